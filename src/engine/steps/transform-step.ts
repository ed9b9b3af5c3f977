/** `transform`: the value of its template. */
import type { TransformStepIR } from '../../flow';
import type { PrepareTools, StepExec } from './step-kit';

export function prepareTransform(ir: TransformStepIR, t: PrepareTools): StepExec {
  const value = t.value(ir.value, 'value');
  if (value.constant) {
    const v = value.evaluate({});
    return () => v;
  }
  return (scope) => value.evaluate(scope.root);
}
