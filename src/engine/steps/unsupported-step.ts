/** Step types the engine does not run yet (grpc, correlate_open, correlate_close): a step error. */
import type { StepIR } from '../../flow';
import { StepFailure } from '../errors';
import type { StepExec } from './step-kit';

export function prepareUnsupported(ir: StepIR): StepExec {
  const message = `step '${ir.id}': steps of type '${ir.type}' are not implemented by this engine yet`;
  return () => {
    throw new StepFailure('not_implemented', 501, message, ir.id);
  };
}
