import type { FlowIR } from '../flow';

export type RunDoor = 'run' | 'enqueue' | 'grpc' | 'cron' | 'event';

/** One request for a flow, as every door hands it to the engine. */
export interface FlowRunInput {
  tenant: string;
  flowName: string;
  version: string;
  door: RunDoor;
  body: unknown;
  headers: Record<string, string>;
  query: Record<string, string | string[]>;
  correlationId: string;
  message?: { id: string; attempt: number };
  event?: { source: string; type: string; id: string };
  config: Readonly<Record<string, string>>;
  secrets: Readonly<Record<string, string>>;
}

export interface FlowRunResult {
  status: number;
  headers: Record<string, string>;
  body: unknown;
  error?: { code: string; message: string; step?: string };
  stepsRun: number;
}

/** Which per-request parts of the input a prepared flow can read at all. */
export interface InputNeeds {
  readonly headers: boolean;
  readonly query: boolean;
}

/** The run engine as handlers see it (src/engine's FlowEngine satisfies it). */
export interface FlowRunner<P> {
  prepare(ir: FlowIR): P;
  /**
   * Whether runs of `flow` can read `headers` / `query`; a door may pass them empty when not.
   * Runners without the method are taken to read both.
   */
  inputNeeds?(flow: P): InputNeeds;
  /** Why `body` fails the flow's `input` schema, or null (doors that queue check before queueing). */
  checkInput(flow: P, body: unknown): string | null;
  run(flow: P, input: FlowRunInput, signal?: AbortSignal): Promise<FlowRunResult>;
}
