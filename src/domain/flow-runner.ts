import type { FlowIR } from '../flow';

export type RunDoor = 'run' | 'enqueue' | 'grpc' | 'cron' | 'event';

/** One request for a flow, as every door hands it to the engine. */
export interface FlowRunInput {
  tenant: string;
  flowName: string;
  version: string;
  door: RunDoor;
  /** Parsed JSON body ({} for cron ticks without a schedule body). */
  body: unknown;
  /** Lower-cased names, credentials removed; empty when the flow cannot read them. */
  headers: Record<string, string>;
  query: Record<string, string | string[]>;
  correlationId: string;
  /** Queued deliveries only. */
  message?: { id: string; attempt: number };
  event?: { source: string; type: string; id: string };
  /** SVC_CONFIG_* values read once at start, by key (only the flow's declared keys). */
  config: Readonly<Record<string, string>>;
  /** SVC_SECRET_* values, by key (only the flow's declared keys). */
  secrets: Readonly<Record<string, string>>;
}

export interface FlowRunResult {
  /** HTTP status for the /run answer. */
  status: number;
  /** From a respond step (never hop-by-hop ones). */
  headers: Record<string, string>;
  /** JSON value; undefined = no body. Failures carry `{error: {code, message}}`. */
  body: unknown;
  /** Set on failures; `message` never contains a secret value. */
  error?: { code: string; message: string; step?: string };
  /** Steps that ran (skipped ones not counted; nested steps and every foreach iteration counted). */
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
