/**
 * The JSON IR of a compiled flow (FLOW-LANGUAGE.md section 6). This file is the contract
 * with the run engine; docs/flow-language.md describes every field.
 */
export const IR_VERSION = { major: 1, minor: 0 } as const;

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** An expression: its JSONata source (what the engine evaluates) and its syntax tree. */
export interface ExprIR {
  $expr: string;
  ast: JsonValue;
}

/** An interpolated string: literal parts and expressions, concatenated as strings. */
export interface TplIR {
  $tpl: Array<string | ExprIR>;
}

/** A template value: literals as written; `{$expr}` / `{$tpl}` objects anywhere inside. */
export type ValueIR = null | boolean | number | string | ExprIR | TplIR | ValueIR[] | { [key: string]: ValueIR };

export type EffectName = 'flow_call' | 'grpc_egress' | 'http_egress' | 'queue' | 'state';

export type JsonSchemaIR = { [key: string]: JsonValue };

export interface StepRetryIR {
  attempts: number;
  backoff_ms: number;
}

interface StepCommon {
  id: string;
  /** null: always runs. */
  when: ValueIR | null;
  on_error: 'fail' | 'continue';
  /** null: only the run's deadline applies. */
  timeout_ms: number | null;
}

export interface TransformStepIR extends StepCommon {
  type: 'transform';
  value: ValueIR;
}
export interface ValidateStepIR extends StepCommon {
  type: 'validate';
  value: ValueIR;
  schema: JsonSchemaIR;
}
export interface HttpStepIR extends StepCommon {
  type: 'http';
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS';
  url: ValueIR;
  headers: ValueIR | null;
  query: ValueIR | null;
  body: ValueIR | null;
  content_type: string | null;
  /** Accepted statuses as inclusive ranges. */
  expect: Array<[number, number]>;
  tls: boolean;
  retry: StepRetryIR | null;
}
export interface OAuth2TokenStepIR extends StepCommon {
  type: 'oauth2_token';
  token_url: ValueIR;
  client_id: ValueIR;
  client_secret: ValueIR;
  scope: ValueIR | null;
  audience: ValueIR | null;
  retry: StepRetryIR | null;
}
export interface GrpcStepIR extends StepCommon {
  type: 'grpc';
  target: ValueIR;
  proto: string;
  /** null: the latest deployed version. */
  proto_version: string | null;
  service: string;
  method: string;
  message: ValueIR;
  metadata: ValueIR | null;
  tls: boolean;
  retry: StepRetryIR | null;
}
export interface CallFlowLibIR {
  name: string;
  steps: StepIR[];
}
export interface CallFlowStepIR extends StepCommon {
  type: 'call_flow';
  /** Exactly one of `lib` and `flow` is set. */
  lib: CallFlowLibIR | null;
  flow: string | null;
  input: ValueIR;
}
export interface ForeachStepIR extends StepCommon {
  type: 'foreach';
  items: ValueIR;
  parallel: number;
  steps: StepIR[];
}
export interface SwitchCaseIR {
  when: ValueIR;
  steps: StepIR[];
}
export interface SwitchStepIR extends StepCommon {
  type: 'switch';
  cases: SwitchCaseIR[];
  default: StepIR[];
}
export interface EnqueueStepIR extends StepCommon {
  type: 'enqueue';
  flow: string;
  body: ValueIR;
}
export interface CorrelateOpenStepIR extends StepCommon {
  type: 'correlate_open';
  key: ValueIR;
  deadline: string;
  deadline_ms: number;
  on_timeout: string | null;
  state: ValueIR | null;
}
export interface CorrelateCloseStepIR extends StepCommon {
  type: 'correlate_close';
  key: ValueIR;
}
export interface LogStepIR extends StepCommon {
  type: 'log';
  level: 'debug' | 'info' | 'warn' | 'error';
  message: ValueIR;
}
export interface FailStepIR extends StepCommon {
  type: 'fail';
  status: ValueIR;
  code: ValueIR;
  message: ValueIR;
}
export interface RespondStepIR extends StepCommon {
  type: 'respond';
  status: ValueIR;
  headers: ValueIR | null;
  body: ValueIR | null;
}

export type StepIR =
  | TransformStepIR
  | ValidateStepIR
  | HttpStepIR
  | OAuth2TokenStepIR
  | GrpcStepIR
  | CallFlowStepIR
  | ForeachStepIR
  | SwitchStepIR
  | EnqueueStepIR
  | CorrelateOpenStepIR
  | CorrelateCloseStepIR
  | LogStepIR
  | FailStepIR
  | RespondStepIR;

export interface ScheduleIR {
  cron: string;
  timezone: string;
  body: JsonValue;
}

export interface MaxMessageBytesIR {
  run: number | null;
  enqueue: number | null;
  grpc: number | null;
  events: number | null;
}

export interface DedupIR {
  key: ValueIR;
  window_hours: number;
  lease_seconds: number;
  memoize_response: boolean;
  on_failure: 'retry' | 'absorb';
}

export interface FlowIR {
  meta: {
    name: string;
    tenant: string;
    version: { major: number; minor: number };
    effects: EffectName[];
  };
  description: string | null;
  required_scope: string | null;
  schedule: ScheduleIR | null;
  input: JsonSchemaIR | null;
  output: JsonSchemaIR | null;
  config: string[];
  secrets: string[];
  max_message_bytes: MaxMessageBytesIR | null;
  timeout_ms: number;
  retry: { max_attempts: number; backoff_ms: number; max_backoff_ms: number };
  concurrency: number;
  dedup: DedupIR | null;
  inbound: { grpc: { proto: string; service: string; method: string } } | null;
  events: Array<{ source: string; type: string }>;
  tls: { client_cert: string | null; client_key: string | null; ca_cert: string | null } | null;
  steps: StepIR[];
  doc: string;
}

/** Throws when the IR's format version is not one this code understands. */
export function checkIrVersion(ir: unknown): void {
  const version = readVersion(ir);
  const ours = `${IR_VERSION.major}.${IR_VERSION.minor}`;
  if (version === undefined) {
    throw new Error(`IR has no readable meta.version {major, minor}; this engine reads IR format ${ours}`);
  }
  if (version.major !== IR_VERSION.major) {
    throw new Error(
      `IR format version ${version.major}.${version.minor} is not supported: this engine reads IR format ${ours} (major ${IR_VERSION.major}); recompile the flow with this version of svc`,
    );
  }
}

function readVersion(ir: unknown): { major: number; minor: number } | undefined {
  if (typeof ir !== 'object' || ir === null) return undefined;
  const meta: unknown = (ir as { meta?: unknown }).meta;
  if (typeof meta !== 'object' || meta === null) return undefined;
  const v: unknown = (meta as { version?: unknown }).version;
  if (typeof v !== 'object' || v === null) return undefined;
  const major: unknown = (v as { major?: unknown }).major;
  const minor: unknown = (v as { minor?: unknown }).minor;
  if (typeof major !== 'number' || !Number.isInteger(major)) return undefined;
  return { major, minor: typeof minor === 'number' ? minor : 0 };
}

/** Compact (byte-identical for the same IR) or 2-space indented JSON. */
export function renderIr(ir: FlowIR, pretty: boolean): string {
  return pretty ? JSON.stringify(ir, null, 2) : JSON.stringify(ir);
}
