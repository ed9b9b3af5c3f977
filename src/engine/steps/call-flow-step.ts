/**
 * `call_flow`: `lib` runs the library's steps (compiled into this flow) in their own `steps`
 * scope with the call's input as `body`; the result is their last output or respond body.
 * `flow` runs the latest deployed flow of the same tenant through the engine's callFlow port.
 */
import type { CallFlowStepIR } from '../../flow';
import { flowError, RespondSignal, StepFailure } from '../errors';
import { isPromise, then, type MaybePromise } from '../maybe-promise';
import type { PreparedStep, Scope } from '../run-context';
import { runSteps } from '../step-runner';
import type { PrepareTools, StepExec } from './step-kit';

function runLibrary(steps: readonly PreparedStep[], scope: Scope, input: unknown): MaybePromise<unknown> {
  const sub = scope.separate(input);
  const answer = (e: unknown): unknown => {
    if (e instanceof RespondSignal) return e.body === undefined ? null : e.body;
    throw e;
  };
  let r: MaybePromise<void>;
  try {
    r = runSteps(steps, sub);
  } catch (e) {
    return answer(e);
  }
  const result = (): unknown => (sub.last === undefined ? null : sub.last);
  return isPromise(r) ? r.then(result, answer) : result();
}

export function prepareCallFlow(ir: CallFlowStepIR, t: PrepareTools): StepExec {
  const step = ir.id;
  const input = t.value(ir.input, 'input');
  if (ir.lib !== null) {
    const steps = t.steps(ir.lib.steps);
    return (scope) => then(input.evaluate(scope.root), (v) => runLibrary(steps, scope, v === undefined ? null : v));
  }
  const name = ir.flow ?? '';
  return (scope) =>
    then(input.evaluate(scope.root), async (v) => {
      const run = scope.run;
      const callFlow = run.services.ports.callFlow;
      if (callFlow === undefined) throw flowError(step, `step '${step}': call_flow to deployed flows is not available here`);
      let r;
      try {
        r = await callFlow(run.input.tenant, name, v === undefined ? null : v, run.input);
      } catch (e) {
        if (e instanceof StepFailure) throw e;
        throw flowError(step, `step '${step}': call_flow to flow '${name}' failed: ${e instanceof Error ? e.message : String(e)}`);
      }
      if (r.error !== undefined || r.status >= 400) {
        const status = r.status >= 400 && r.status <= 599 ? r.status : 500;
        const why = r.error === undefined ? `it answered ${r.status}` : `${r.error.code}: ${r.error.message}`;
        throw new StepFailure(r.error?.code ?? 'flow_error', status, `step '${step}': flow '${name}' failed: ${why}`, step);
      }
      return r.body === undefined ? null : r.body;
    });
}
