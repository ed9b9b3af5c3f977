/**
 * Location paths (`body.order.items.price`, `items[price > 10].sku`,
 * `items.(price * qty)`) and predicates, following jsonata's evaluatePath /
 * evaluateStep / evaluateFilter: each step maps over the input sequence, array
 * results are flattened one level (except constructed arrays), a single JSON
 * array produced by the last step is returned as is.
 */
import { AstNode, AstStage, Unsupported } from './ast';
import { NodeCompiler } from './compiler-api';
import { Ev, Scope } from './scope';
import { createSeq, isSeq, normalize, Seq, seqOf } from './sequence';
import { hasOwn, isArrayOfNumbers, isNumeric, lookupKey, toBoolean } from './values';

export type Filter = (input: unknown, sc: Scope) => Seq;

/** Compile a predicate `[expr]` into a filter over a value/sequence (jsonata's evaluateFilter). */
export function compileFilter(c: NodeCompiler, stage: AstStage): Filter {
  if (stage.type !== 'filter' || stage.expr === undefined) throw new Unsupported(`stage ${stage.type}`);
  const pred = stage.expr;
  if (pred.type === 'number') {
    const literal = Math.floor(pred.value as number);
    return (input) => {
      let results = createSeq();
      const items: unknown[] = Array.isArray(input) ? input : seqOf(input);
      const index = literal < 0 ? items.length + literal : literal;
      const item = items[index];
      if (item !== undefined) {
        if (Array.isArray(item)) results = item as Seq;
        else results.push(item);
      }
      return results;
    };
  }
  const ev = c.compile(pred);
  return (input, sc) => {
    const results = createSeq();
    const items: unknown[] = Array.isArray(input) ? input : seqOf(input);
    for (let index = 0; index < items.length; index++) {
      const item = items[index];
      let res = ev(item, sc);
      if (isNumeric(res)) res = [res];
      if (isArrayOfNumbers(res)) {
        const nums = res as number[];
        for (let k = 0; k < nums.length; k++) {
          let ii = Math.floor(nums[k]);
          if (ii < 0) ii = items.length + ii;
          if (ii === index) results.push(item);
        }
      } else if (toBoolean(res)) {
        results.push(item);
      }
    }
    return results;
  };
}

/** Apply a node's own `predicate` list (e.g. `$v[0]`, `(expr)[cond]`). */
export function withPredicates(c: NodeCompiler, node: AstNode, ev: Ev): Ev {
  const preds = node.predicate;
  if (preds === undefined || preds.length === 0) return ev;
  const filters = preds.map((p) => compileFilter(c, p));
  return (ctx, sc) => {
    let r = ev(ctx, sc);
    for (let i = 0; i < filters.length; i++) r = filters[i](r, sc);
    return r;
  };
}

function checkStep(step: AstNode): void {
  if (step.type === 'sort') throw new Unsupported('order-by');
  if (step.focus !== undefined || step.index !== undefined || step.tuple !== undefined || step.ancestor !== undefined) {
    throw new Unsupported('positional/focus variable binding');
  }
  if (step.group !== undefined) throw new Unsupported('grouping');
  if (step.type === 'parent' || step.seekingParent !== undefined) throw new Unsupported('parent operator');
  for (const s of step.stages ?? []) if (s.type !== 'filter') throw new Unsupported(`stage ${s.type}`);
}

interface CompiledStep {
  /** jsonata's evaluate(step, item): the step value for one input item, normalised */
  readonly ev: Ev;
  readonly stages: readonly Filter[];
}

function compileStep(c: NodeCompiler, step: AstNode): CompiledStep {
  let ev: Ev;
  if (step.type === 'name') {
    const name = step.value as string;
    const keep = step.keepArray === true;
    ev = withPredicates(c, step, (item) => lookupKey(item, name));
    const base = ev;
    ev = (item, sc) => normalize(base(item, sc), keep);
  } else {
    ev = c.compile(step);
  }
  return { ev, stages: (step.stages ?? []).map((s) => compileFilter(c, s)) };
}

/** `v.length`, as jsonata reads it off whatever a leading array-constructor step produced. */
function lengthProp(v: unknown): unknown {
  if (v === null || v === undefined) return undefined;
  return (Object(v) as { length?: unknown }).length;
}

/** The items jsonata's step loop would visit when indexing `v` from 0 to `v.length`. */
function itemsOf(v: unknown): unknown[] {
  if (Array.isArray(v)) return v;
  const n = lengthProp(v);
  if (typeof n !== 'number' || !(n > 0)) return [];
  const o = Object(v) as Record<number, unknown>;
  const out: unknown[] = [];
  for (let i = 0; i < n; i++) out.push(o[i]);
  return out;
}

export function compilePath(c: NodeCompiler, node: AstNode): Ev {
  const steps = node.steps ?? [];
  if (steps.length === 0) throw new Unsupported('empty path');
  if (node.group !== undefined) throw new Unsupported('grouping');
  if (node.tuple !== undefined || node.seekingParent !== undefined) throw new Unsupported('tuple stream');
  steps.forEach(checkStep);

  const compiled = steps.map((s) => compileStep(c, s));
  const last = steps.length - 1;
  const firstIsVariable = steps[0].type === 'variable';
  const firstIsCons = steps[0].consarray === true;
  const keepSingletonArray = node.keepSingletonArray === true;

  const evalStep = (k: number, input: unknown[], sc: Scope): unknown => {
    const { ev, stages } = compiled[k];
    const result = createSeq();
    for (let i = 0; i < input.length; i++) {
      let res = ev(input[i], sc);
      for (let s = 0; s < stages.length; s++) res = stages[s](res, sc);
      if (res !== undefined) result.push(res);
    }
    if (k === last && result.length === 1 && Array.isArray(result[0]) && !isSeq(result[0])) return result[0];
    const out = createSeq();
    for (let i = 0; i < result.length; i++) {
      const res = result[i];
      if (!Array.isArray(res) || (res as Seq).cons) {
        out.push(res);
      } else {
        for (let j = 0; j < res.length; j++) out.push(res[j]);
      }
    }
    return out;
  };

  const runFrom = (start: number, inputSeq: unknown[], sc: Scope): unknown => {
    let input: unknown[] = inputSeq;
    let result: unknown;
    for (let k = start; k < steps.length; k++) {
      if (k === 0 && firstIsCons) {
        result = compiled[0].ev(input, sc);
        if (result === undefined || lengthProp(result) === 0) break;
        input = itemsOf(result);
        continue;
      }
      result = evalStep(k, input, sc);
      if ((result as unknown[]).length === 0) break;
      input = result as unknown[];
    }
    if (keepSingletonArray) {
      if (Array.isArray(result) && (result as Seq).cons && !(result as Seq).sequence) result = seqOf(result);
      if (result === null || result === undefined || (typeof result !== 'object' && typeof result !== 'function')) throw new TypeError('Cannot keep a singleton array of a missing value');
      (result as Seq).keepSingleton = true;
    }
    return result;
  };

  const general: Ev = (ctx, sc) => runFrom(0, Array.isArray(ctx) && !firstIsVariable ? ctx : seqOf(ctx), sc);

  // Fast case: plain names without predicates – walk objects directly while no arrays are met.
  const simple = !keepSingletonArray && steps.every((s) =>
    s.type === 'name' && s.stages === undefined && s.predicate === undefined && s.keepArray !== true);
  if (!simple) return general;
  const names = steps.map((s) => s.value as string);
  return (ctx, sc) => {
    if (Array.isArray(ctx)) return general(ctx, sc);
    let v: unknown = ctx;
    for (let k = 0; k < names.length; k++) {
      if (v === null || typeof v !== 'object') return undefined;
      const r = hasOwn(v, names[k]) ? (v as Record<string, unknown>)[names[k]] : undefined;
      if (r === undefined) return undefined;
      if (Array.isArray(r)) return runFrom(k, seqOf(v), sc);
      v = r;
    }
    return v;
  };
}
