/** `switch`: the steps of the first case whose `when` is truthy, else `default`; output: the branch's last output. */
import type { SwitchStepIR } from '../../flow';
import { isPromise, then, type MaybePromise } from '../maybe-promise';
import type { PreparedStep, Scope } from '../run-context';
import { runSteps, truthy } from '../step-runner';
import type { CompiledValue } from '../templates';
import type { PrepareTools, StepExec } from './step-kit';

interface Case {
  readonly when: CompiledValue;
  readonly steps: readonly PreparedStep[];
}

function runBranch(scope: Scope, steps: readonly PreparedStep[]): MaybePromise<unknown> {
  const branch = scope.nested(undefined, scope.bearer, undefined);
  return then(runSteps(steps, branch), () => (branch.last === undefined ? null : branch.last));
}

export function prepareSwitch(ir: SwitchStepIR, t: PrepareTools): StepExec {
  const cases: Case[] = ir.cases.map((c, i) => ({ when: t.value(c.when, `cases[${i}].when`), steps: t.steps(c.steps) }));
  const fallback = t.steps(ir.default);
  const pick = (scope: Scope, from: number): MaybePromise<unknown> => {
    for (let i = from; i < cases.length; i++) {
      const c = cases[i] as Case;
      const w = c.when.evaluate(scope.root);
      if (isPromise(w)) return w.then((v) => (truthy(v) ? runBranch(scope, c.steps) : pick(scope, i + 1)));
      if (truthy(w)) return runBranch(scope, c.steps);
    }
    return runBranch(scope, fallback);
  };
  return (scope) => pick(scope, 0);
}
