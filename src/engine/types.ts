/**
 * The run engine's public types: what a run gets (RunInput), what it answers (RunResult) and
 * the ports through which everything outside the engine is reached (EnginePorts).
 */
import type { FlowRunInput, FlowRunResult, RunDoor } from '../domain/flow-runner';
import type { HttpEgress } from './egress/http-egress';

/** The engine's input and result are the domain's contract (src/domain/flow-runner.ts). */
export type Door = RunDoor;
export type RunInput = FlowRunInput;
export type RunError = NonNullable<FlowRunResult['error']>;
export type RunResult = FlowRunResult;

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export type LogFields = Record<string, string | number | boolean | null | undefined>;

export interface EngineLogger {
  log(level: LogLevel, message: string, fields: LogFields): void;
}

export interface EngineClock {
  now(): Date;
}

export interface EnginePorts {
  http: HttpEgress;
  logger: EngineLogger;
  clock: EngineClock;
  /** call_flow {flow}: runs the latest deployed version of a flow of the same tenant. */
  callFlow?(tenant: string, name: string, input: unknown, parent: RunInput): Promise<RunResult>;
  /** enqueue steps: writes a message to a flow's queue. */
  enqueue?(tenant: string, flow: string, body: unknown, parent: RunInput): Promise<{ message_id: string }>;
}
