/** What a step preparer gets (compilers bound to the step) and gives back (its exec). */
import type { JsonSchemaIR, StepIR, ValueIR } from '../../flow';
import type { TlsClientFiles } from '../egress/http-egress';
import type { MaybePromise } from '../maybe-promise';
import type { PreparedStep, Scope } from '../run-context';
import type { SchemaCheck } from '../schema-validation';
import type { CompiledValue, ValueSite } from '../templates';

export type StepExec = (scope: Scope) => MaybePromise<unknown>;

export interface PrepareTools {
  readonly stepId: string;
  /** Compiles a template field of this step. */
  value(v: ValueIR, field: string): CompiledValue;
  /** The site of a field, for error messages. */
  site(field: string): ValueSite;
  schema(schema: JsonSchemaIR): SchemaCheck;
  /** Prepares nested steps (foreach, switch, call_flow lib). */
  steps(list: readonly StepIR[]): PreparedStep[];
  /** The flow's TLS client material (null: none declared). */
  readonly tls: TlsClientFiles | null;
}

/** A status from a template value: an integer within [low, high]. */
export function checkStatus(v: unknown, low: number, high: number, stepId: string): number | string {
  if (typeof v === 'number' && Number.isInteger(v) && v >= low && v <= high) return v;
  return `step '${stepId}': status must be an integer from ${low} to ${high}, got ${v === undefined ? 'nothing' : JSON.stringify(v)}`;
}
