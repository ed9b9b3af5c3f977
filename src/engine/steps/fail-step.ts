/** `fail`: ends the run with its own status (400-599), code and message. */
import type { FailStepIR } from '../../flow';
import { flowError, StepFailure } from '../errors';
import { then } from '../maybe-promise';
import { evaluateEach, templateString } from '../templates';
import { checkStatus, type PrepareTools, type StepExec } from './step-kit';

export function prepareFail(ir: FailStepIR, t: PrepareTools): StepExec {
  const step = ir.id;
  const fields = [t.value(ir.status, 'status'), t.value(ir.code, 'code'), t.value(ir.message, 'message')];
  const codeSite = t.site('code');
  const messageSite = t.site('message');
  return (scope) =>
    then(evaluateEach(fields, scope.root), ([s, c, m]) => {
      const status = checkStatus(s, 400, 599, step);
      if (typeof status === 'string') throw flowError(step, status);
      const code = templateString(c, codeSite).trim();
      const message = templateString(m, messageSite);
      throw new StepFailure(code === '' ? 'flow_error' : code, status, message === '' ? `the flow failed at step '${step}'` : message, step);
    });
}
