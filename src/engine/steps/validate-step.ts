/** `validate`: checks its value against a JSON Schema; refusal 400 invalid_input with the failing paths. */
import type { ValidateStepIR } from '../../flow';
import { invalidInput } from '../errors';
import { then } from '../maybe-promise';
import { formatProblems } from '../schema-validation';
import type { PrepareTools, StepExec } from './step-kit';

export function prepareValidate(ir: ValidateStepIR, t: PrepareTools): StepExec {
  const value = t.value(ir.value, 'value');
  const check = t.schema(ir.schema);
  const step = ir.id;
  return (scope) =>
    then(value.evaluate(scope.root), (v) => {
      const problems = check(v);
      if (problems !== null) throw invalidInput(step, `step '${step}': the value does not match the schema: ${formatProblems(problems)}`);
      return v;
    });
}
