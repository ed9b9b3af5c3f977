/**
 * `foreach`: runs its steps once per item (`item`, `index` in the root), at most `parallel` at a
 * time; the output lists each iteration's last output in item order. The first failure cancels
 * the other iterations. An oauth2 token pending before the loop is handed to every iteration.
 */
import type { ForeachStepIR } from '../../flow';
import { childSignal } from '../cancellation';
import { AbortReason } from '../errors';
import { isPromise, then, type MaybePromise } from '../maybe-promise';
import type { BearerSlot, PreparedStep, Scope } from '../run-context';
import { runSteps } from '../step-runner';
import type { PrepareTools, StepExec } from './step-kit';

function asList(v: unknown): readonly unknown[] {
  if (v === undefined || v === null) return [];
  return Array.isArray(v) ? v : [v];
}

class Iterations {
  readonly out: unknown[];
  private readonly inherited: string | undefined;
  private tokenUsed = false;

  constructor(
    private readonly scope: Scope,
    private readonly steps: readonly PreparedStep[],
    private readonly items: readonly unknown[],
  ) {
    this.out = new Array<unknown>(items.length);
    this.inherited = scope.bearer.token;
  }

  start(i: number, signal: AbortSignal | undefined): { it: Scope; bearer: BearerSlot; done: MaybePromise<void> } {
    const bearer: BearerSlot = { token: this.inherited };
    const it = this.scope.nested({ item: this.items[i], index: i }, bearer, signal);
    return { it, bearer, done: runSteps(this.steps, it) };
  }

  finish(i: number, it: Scope, bearer: BearerSlot): void {
    this.out[i] = it.last === undefined ? null : it.last;
    if (bearer.token !== this.inherited) this.tokenUsed = true;
  }

  result(): unknown[] {
    if (this.tokenUsed && this.inherited !== undefined) this.scope.bearer.token = undefined;
    return this.out;
  }

  sequential(from: number): MaybePromise<unknown[]> {
    for (let i = from; i < this.items.length; i++) {
      const { it, bearer, done } = this.start(i, undefined);
      if (isPromise(done)) {
        return done.then(() => {
          this.finish(i, it, bearer);
          return this.sequential(i + 1);
        });
      }
      this.finish(i, it, bearer);
    }
    return this.result();
  }

  async parallel(width: number): Promise<unknown[]> {
    const child = childSignal(this.scope.signal());
    let next = 0;
    let failure: { error: unknown } | undefined;
    const worker = async (): Promise<void> => {
      while (failure === undefined && next < this.items.length) {
        const i = next++;
        try {
          const { it, bearer, done } = this.start(i, child.signal);
          await done;
          this.finish(i, it, bearer);
        } catch (e) {
          if (failure === undefined) {
            failure = { error: e };
            child.abort(new AbortReason('sibling_failed', 0));
          }
        }
      }
    };
    try {
      await Promise.all(Array.from({ length: Math.min(width, this.items.length) }, worker));
    } finally {
      child.dispose();
    }
    if (failure !== undefined) throw failure.error;
    return this.result();
  }
}

export function prepareForeach(ir: ForeachStepIR, t: PrepareTools): StepExec {
  const items = t.value(ir.items, 'items');
  const steps = t.steps(ir.steps);
  const width = ir.parallel;
  return (scope) =>
    then(items.evaluate(scope.root), (v) => {
      const list = asList(v);
      const iterations = new Iterations(scope, steps, list);
      return width <= 1 || list.length <= 1 ? iterations.sequential(0) : iterations.parallel(width);
    });
}
