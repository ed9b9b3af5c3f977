/**
 * Runs a list of steps in a scope: `when`, `timeout_ms`, `on_error`, output bookkeeping.
 * Synchronous as long as the steps are; a promise only appears when a step is asynchronous.
 */
import { childSignal, raceSignal } from './cancellation';
import { asStepFailure, failureFromAbort, RespondSignal, StepFailure } from './errors';
import { toBoolean } from './expr/values';
import { isPromise, type MaybePromise } from './maybe-promise';
import type { PreparedStep, Scope } from './run-context';

export function runSteps(list: readonly PreparedStep[], scope: Scope, from = 0): MaybePromise<void> {
  for (let i = from; i < list.length; i++) {
    const r = runStep(list[i] as PreparedStep, scope);
    if (r !== undefined) return r.then(() => runSteps(list, scope, i + 1));
  }
  return undefined;
}

/** JSONata's effective boolean value (undefined: false). */
export function truthy(v: unknown): boolean {
  try {
    return toBoolean(v) === true;
  } catch {
    return false; // ±Infinity
  }
}

function runStep(step: PreparedStep, scope: Scope): Promise<void> | undefined {
  scope.run.checkAlive(step.id);
  if (step.when === null) return execute(step, scope);
  let w: MaybePromise<unknown>;
  try {
    w = step.when.evaluate(scope.root);
  } catch (e) {
    return fail(step, scope, e, undefined);
  }
  if (isPromise(w)) {
    return w.then(
      (v) => (truthy(v) ? execute(step, scope) : undefined),
      (e: unknown) => fail(step, scope, e, undefined),
    );
  }
  return truthy(w) ? execute(step, scope) : undefined;
}

function execute(step: PreparedStep, scope: Scope): Promise<void> | undefined {
  scope.run.stepsRun++;
  if (step.timeoutMs !== null) return executeWithTimeout(step, scope, step.timeoutMs);
  let out: MaybePromise<unknown>;
  try {
    out = step.exec(scope);
  } catch (e) {
    return fail(step, scope, e, undefined);
  }
  if (!isPromise(out)) {
    store(step, scope, out);
    return undefined;
  }
  const signal = scope.signal();
  return raceSignal(out, signal).then(
    (v) => store(step, scope, v),
    (e: unknown) => fail(step, scope, e, signal),
  );
}

function executeWithTimeout(step: PreparedStep, scope: Scope, timeoutMs: number): Promise<void> | undefined {
  const child = childSignal(scope.signal(), timeoutMs);
  let out: MaybePromise<unknown>;
  try {
    out = step.exec(scope.withSignal(child.signal));
  } catch (e) {
    child.dispose();
    return fail(step, scope, e, child.signal);
  }
  if (!isPromise(out)) {
    child.dispose();
    store(step, scope, out);
    return undefined;
  }
  return raceSignal(out, child.signal).then(
    (v) => {
      child.dispose();
      store(step, scope, v);
    },
    (e: unknown) => {
      child.dispose();
      return fail(step, scope, e, child.signal);
    },
  );
}

function store(step: PreparedStep, scope: Scope, out: unknown): void {
  if (!step.hasOutput) return;
  scope.steps[step.id] = out;
  scope.last = out;
}

/** The failure a step ended with: its signal's reason when it fired, else what it threw. */
function failureOf(step: PreparedStep, e: unknown, signal: AbortSignal | undefined): StepFailure {
  if (e instanceof StepFailure && e.fatal) return e; // a nested step already named the deadline
  if (signal?.aborted === true) return failureFromAbort(signal.reason, step.id);
  return asStepFailure(e, step.id);
}

/** Continues (on_error: continue) by storing `{error}` as the output, or throws. */
function fail(step: PreparedStep, scope: Scope, e: unknown, signal: AbortSignal | undefined): undefined {
  if (e instanceof RespondSignal) throw e;
  const f = failureOf(step, e, signal);
  if (f.fatal || !step.continueOnError) throw f;
  const message = scope.run.redact(f.message);
  scope.run.log('warn', `step '${step.id}' failed, continuing (on_error: continue): ${message}`, { step: step.id, code: f.code });
  store(step, scope, { error: { code: f.code, message } });
  return undefined;
}
