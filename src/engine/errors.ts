/**
 * Failures and control signals of a run. A StepFailure carries the answer's code and status;
 * its message names the step and is redacted (secret values removed) before anyone sees it.
 */

export type FailureCode = 'invalid_input' | 'flow_error' | 'upstream_error' | 'timeout' | 'not_implemented' | string;

export class StepFailure extends Error {
  constructor(
    readonly code: FailureCode,
    readonly status: number,
    message: string,
    readonly step?: string,
    /** Not caught by `on_error: continue` (flow deadline, cancellation). */
    readonly fatal = false,
  ) {
    super(message);
    this.name = 'StepFailure';
  }
}

export const flowError = (step: string | undefined, message: string): StepFailure => new StepFailure('flow_error', 500, message, step);
export const upstreamError = (step: string, message: string): StepFailure => new StepFailure('upstream_error', 502, message, step);
export const invalidInput = (step: string | undefined, message: string): StepFailure => new StepFailure('invalid_input', 400, message, step);

/** Thrown by a respond step: ends the run (or the call_flow library run) with this answer. */
export class RespondSignal {
  constructor(
    readonly status: number,
    readonly headers: Record<string, string>,
    readonly body: unknown,
  ) {}
}

/** Why a signal was aborted; the reason object of every AbortController the engine owns. */
export class AbortReason {
  constructor(
    readonly kind: 'flow_deadline' | 'step_timeout' | 'cancelled' | 'sibling_failed',
    readonly ms: number,
  ) {}
}

/** The failure a step sees when its signal fired with `reason`. */
export function failureFromAbort(reason: unknown, step: string | undefined): StepFailure {
  const where = step === undefined ? '' : ` (step '${step}' was running)`;
  if (reason instanceof AbortReason) {
    switch (reason.kind) {
      case 'step_timeout':
        return new StepFailure('timeout', 504, `step '${step ?? '?'}' did not finish within its timeout_ms of ${reason.ms} ms`, step);
      case 'flow_deadline':
        return new StepFailure('timeout', 504, `the flow did not finish within its timeout_ms of ${reason.ms} ms${where}`, step, true);
      case 'sibling_failed':
        return new StepFailure('flow_error', 500, `cancelled because another foreach iteration failed${where}`, step, true);
      case 'cancelled':
        break;
    }
  }
  return new StepFailure('flow_error', 500, `the run was cancelled${where}`, step, true);
}

/** Any thrown value as a StepFailure of `step` (unknown errors become internal flow errors). */
export function asStepFailure(e: unknown, step: string | undefined): StepFailure {
  if (e instanceof StepFailure) return e;
  if (e instanceof AbortReason) return failureFromAbort(e, step);
  const detail = e instanceof Error ? e.message : String(e);
  return flowError(step, `${step === undefined ? '' : `step '${step}': `}internal error: ${detail}`);
}
