/** `enqueue`: a message to a flow of the same tenant, through the engine's enqueue port. */
import type { EnqueueStepIR } from '../../flow';
import { flowError, StepFailure } from '../errors';
import { then } from '../maybe-promise';
import type { PrepareTools, StepExec } from './step-kit';

export function prepareEnqueue(ir: EnqueueStepIR, t: PrepareTools): StepExec {
  const step = ir.id;
  const body = t.value(ir.body, 'body');
  return (scope) =>
    then(body.evaluate(scope.root), async (b) => {
      const run = scope.run;
      const enqueue = run.services.ports.enqueue;
      if (enqueue === undefined) throw flowError(step, `step '${step}': enqueue is not available here`);
      try {
        const r = await enqueue(run.input.tenant, ir.flow, b === undefined ? null : b, run.input);
        return { message_id: r.message_id };
      } catch (e) {
        if (e instanceof StepFailure) throw e;
        throw flowError(step, `step '${step}': enqueue to flow '${ir.flow}' failed: ${e instanceof Error ? e.message : String(e)}`);
      }
    });
}
