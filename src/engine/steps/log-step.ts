/** `log`: writes its message (secret values redacted) at its level, with the run's correlation id. */
import type { LogStepIR } from '../../flow';
import { then } from '../maybe-promise';
import { templateString } from '../templates';
import type { PrepareTools, StepExec } from './step-kit';

export function prepareLog(ir: LogStepIR, t: PrepareTools): StepExec {
  const message = t.value(ir.message, 'message');
  const site = t.site('message');
  return (scope) =>
    then(message.evaluate(scope.root), (m) => {
      scope.run.log(ir.level, templateString(m, site), { step: ir.id });
      return undefined;
    });
}
