/**
 * Template values of the IR compiled once into evaluators (FLOW-LANGUAGE.md section 3):
 * `{"$expr"}` evaluates its JSONata source, `{"$tpl"}` concatenates its parts as strings
 * (JSONata's $string rules; undefined gives ''), maps and lists are evaluated member by member,
 * literals are returned as they are. Evaluation stays synchronous while the expressions are.
 */
import type { ExprIR, TplIR, ValueIR } from '../flow';
import { compileExpression, type CompiledExpr } from './expr';
import { castString } from './expr/values';
import { flowError, StepFailure } from './errors';
import { isPromise, type MaybePromise } from './maybe-promise';

/** The expression root of a run (body, headers, steps, ...). */
export type ExprRoot = Record<string, unknown>;

type Ev = (root: ExprRoot) => MaybePromise<unknown>;

export interface CompiledValue {
  /** True when the value holds no expression (its evaluation always gives `value`). */
  readonly constant: boolean;
  readonly evaluate: Ev;
}

/** Where a value sits, for error messages: `step 'x'` and the field path. */
export interface ValueSite {
  readonly step: string;
  readonly field: string;
}

function isExpr(v: object): v is ExprIR {
  return typeof (v as { $expr?: unknown }).$expr === 'string';
}

function isTpl(v: object): v is TplIR {
  return Array.isArray((v as { $tpl?: unknown }).$tpl);
}

function describe(e: unknown): string {
  if (e instanceof Error) {
    const code = (e as { code?: unknown }).code;
    return typeof code === 'string' && !e.message.includes(code) ? `${e.message} (${code})` : e.message;
  }
  return String(e);
}

function expressionFailure(site: ValueSite, source: string, e: unknown): StepFailure {
  if (e instanceof StepFailure) return e;
  return flowError(site.step, `step '${site.step}': ${site.field}: expression \`${source}\` failed: ${describe(e)}`);
}

function compileExpr(ir: ExprIR, site: ValueSite): Ev {
  let compiled: CompiledExpr;
  try {
    compiled = compileExpression(ir.$expr);
  } catch (e) {
    throw new Error(`step '${site.step}': ${site.field}: expression \`${ir.$expr}\` cannot be compiled: ${describe(e)}`);
  }
  const source = ir.$expr;
  const rethrow = (e: unknown): never => {
    throw expressionFailure(site, source, e);
  };
  return (root) => {
    let r: MaybePromise<unknown>;
    try {
      r = compiled.evaluate(root);
    } catch (e) {
      throw expressionFailure(site, source, e);
    }
    return isPromise(r) ? r.then(undefined, rethrow) : r;
  };
}

/** Evaluates `evs` in order into `out`, synchronously until one of them is promised. */
function evalAll(evs: readonly Ev[], root: ExprRoot, from: number, out: unknown[]): MaybePromise<unknown[]> {
  for (let i = from; i < evs.length; i++) {
    const ev = evs[i] as Ev;
    const r = ev(root);
    if (isPromise(r)) {
      return r.then((v) => {
        out[i] = v;
        return evalAll(evs, root, i + 1, out);
      });
    }
    out[i] = r;
  }
  return out;
}

/** A value as the string JSONata's $string gives ('' for undefined). */
export function templateString(v: unknown, site: ValueSite): string {
  if (typeof v === 'string') return v;
  if (v === undefined) return '';
  try {
    return castString(v) ?? '';
  } catch (e) {
    throw flowError(site.step, `step '${site.step}': ${site.field}: ${describe(e)}`);
  }
}

function compileTpl(ir: TplIR, site: ValueSite): Ev {
  const evs: Ev[] = ir.$tpl.map((part) => (typeof part === 'string' ? () => part : compileExpr(part, site)));
  const join = (parts: unknown[]): string => {
    let s = '';
    for (const p of parts) s += templateString(p, site);
    return s;
  };
  return (root) => {
    const parts = evalAll(evs, root, 0, new Array<unknown>(evs.length));
    return isPromise(parts) ? parts.then(join) : join(parts);
  };
}

function compileNode(v: ValueIR, site: ValueSite): CompiledValue {
  if (v === null || typeof v !== 'object') {
    return { constant: true, evaluate: () => v };
  }
  if (Array.isArray(v)) {
    const items = v.map((item, i) => compileNode(item, { step: site.step, field: `${site.field}[${i}]` }));
    if (items.every((c) => c.constant)) return { constant: true, evaluate: () => v };
    const evs = items.map((c) => c.evaluate);
    const finish = (values: unknown[]): unknown[] => {
      for (let i = 0; i < values.length; i++) if (values[i] === undefined) values[i] = null;
      return values;
    };
    return {
      constant: false,
      evaluate: (root) => {
        const values = evalAll(evs, root, 0, new Array<unknown>(evs.length));
        return isPromise(values) ? values.then(finish) : finish(values);
      },
    };
  }
  if (isExpr(v)) return { constant: false, evaluate: compileExpr(v, site) };
  if (isTpl(v)) return { constant: false, evaluate: compileTpl(v, site) };
  const keys = Object.keys(v);
  const members = keys.map((k) => compileNode(v[k] as ValueIR, { step: site.step, field: `${site.field}.${k}` }));
  if (members.every((c) => c.constant)) return { constant: true, evaluate: () => v };
  const evs = members.map((c) => c.evaluate);
  const build = (values: unknown[]): Record<string, unknown> => {
    const out: Record<string, unknown> = {};
    for (let i = 0; i < keys.length; i++) {
      const value = values[i];
      if (value !== undefined) out[keys[i] as string] = value; // undefined members are left out, as JSON does
    }
    return out;
  };
  return {
    constant: false,
    evaluate: (root) => {
      const values = evalAll(evs, root, 0, new Array<unknown>(evs.length));
      return isPromise(values) ? values.then(build) : build(values);
    },
  };
}

/** Evaluates several compiled values, synchronously while they are. */
export function evaluateEach(values: readonly CompiledValue[], root: ExprRoot): MaybePromise<unknown[]> {
  return evalAll(
    values.map((v) => v.evaluate),
    root,
    0,
    new Array<unknown>(values.length),
  );
}

/** Compiles a template value of the IR; throws (at prepare) when an expression cannot be compiled. */
export function compileValue(v: ValueIR, site: ValueSite): CompiledValue {
  return compileNode(v, site);
}
