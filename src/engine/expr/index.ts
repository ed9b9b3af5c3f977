/**
 * Expression compiler: JSONata source → evaluator. The common subset of
 * JSONata is lowered once into plain JS closures (`fast: true`); anything else
 * is evaluated by jsonata itself (`fast: false`). Both paths give the same
 * results and fail with Errors carrying the same jsonata error `code`.
 */
import { Unsupported } from './ast';
import { beginEvaluation, endEvaluation } from './clock';
import { compileTree, CompiledTree } from './compiler';
import { Bailout } from './errors';
import { Fallback } from './fallback';
import { buildRegistry, ExprFunction } from './registry';
import { newFrame, Scope } from './scope';

export { ExprError } from './errors';
export { PLATFORM_FUNCTIONS } from './platform-functions';
export type { PlatformFunction } from './platform-functions';
export type { ExprFunction } from './registry';

/** The root object (`$$` and bare paths), e.g. { body, headers, query, steps, config, flow, correlation_id, ... }. */
export interface ExprContext {
  [name: string]: unknown;
}

export interface CompiledExpr {
  readonly source: string;
  /** true when the whole expression runs as compiled closures */
  readonly fast: boolean;
  /** Why the expression is not on the fast path (undefined when it is). */
  readonly fallbackReason?: string;
  evaluate(root: unknown, bindings?: Record<string, unknown>): Promise<unknown> | unknown;
}

const counters = { fastEvaluations: 0, bailouts: 0, fallbackEvaluations: 0 };

/** Process-wide counters: fast evaluations, fast evaluations handed to jsonata mid-way, fallback evaluations. */
export function expressionStats(): Readonly<typeof counters> {
  return { ...counters };
}

class FastExpr implements CompiledExpr {
  readonly fast = true;

  constructor(
    readonly source: string,
    private readonly tree: CompiledTree,
    private readonly fallback: Fallback,
  ) {}

  evaluate(root: unknown, bindings?: Record<string, unknown>): Promise<unknown> | unknown {
    // jsonata treats an array input as a single wrapped value; leave that to jsonata
    if (Array.isArray(root)) {
      counters.fallbackEvaluations++;
      return this.fallback.evaluate(root, bindings);
    }
    counters.fastEvaluations++;
    const saved = beginEvaluation();
    try {
      const sc = new Scope(this.tree.rootFrame > 0 ? newFrame(this.tree.rootFrame) : null, null, { root, bindings });
      return this.tree.ev(root, sc);
    } catch (e) {
      if (e instanceof Bailout) {
        counters.bailouts++;
        return this.fallback.evaluate(root, bindings);
      }
      throw e;
    } finally {
      endEvaluation(saved);
    }
  }
}

class SlowExpr implements CompiledExpr {
  readonly fast = false;

  constructor(
    readonly source: string,
    readonly fallbackReason: string,
    private readonly fallback: Fallback,
  ) {}

  evaluate(root: unknown, bindings?: Record<string, unknown>): Promise<unknown> {
    counters.fallbackEvaluations++;
    return this.fallback.evaluate(root, bindings);
  }
}

/**
 * Compile a JSONata expression. Throws (an ExprError with jsonata's S0xxx code)
 * on syntax errors. `functions` are extra functions callable as `$name(...)`,
 * in addition to the platform functions (PLATFORM_FUNCTIONS).
 */
export function compileExpression(source: string, functions?: Readonly<Record<string, ExprFunction>>): CompiledExpr {
  const fallback = new Fallback(source, functions);
  let tree: CompiledTree;
  try {
    tree = compileTree(fallback.ast(), buildRegistry(functions));
  } catch (e) {
    if (e instanceof Unsupported) return new SlowExpr(source, e.message, fallback);
    throw e;
  }
  return new FastExpr(source, tree, fallback);
}
