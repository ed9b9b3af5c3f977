/**
 * The run engine's public types: what a run gets (RunInput), what it answers (RunResult) and
 * the ports through which everything outside the engine is reached (EnginePorts).
 */
import type { HttpEgress } from './egress/http-egress';

export type Door = 'run' | 'enqueue' | 'grpc' | 'cron' | 'event';

export interface RunInput {
  tenant: string;
  flowName: string;
  version: string;
  door: Door;
  /** Parsed JSON body ({} for cron ticks). */
  body: unknown;
  /** Lower-cased names. */
  headers: Record<string, string>;
  query: Record<string, string | string[]>;
  correlationId: string;
  /** Queued deliveries only. */
  message?: { id: string; attempt: number };
  event?: { source: string; type: string; id: string };
  /** SVC_CONFIG_* values read once at start, by key. */
  config: Readonly<Record<string, string>>;
  /** SVC_SECRET_* values, by key. */
  secrets: Readonly<Record<string, string>>;
}

export interface RunError {
  code: string;
  /** Safe to show: never contains a secret value. */
  message: string;
  /** The step that failed, when one did. */
  step?: string;
}

export interface RunResult {
  /** HTTP status for the /run answer. */
  status: number;
  /** From a respond step (never hop-by-hop ones). */
  headers: Record<string, string>;
  /** JSON value; undefined = no body. Failures carry `{error: {code, message}}`. */
  body: unknown;
  error?: RunError;
  /** Steps that ran (skipped ones not counted; nested steps and every foreach iteration counted). */
  stepsRun: number;
}

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
