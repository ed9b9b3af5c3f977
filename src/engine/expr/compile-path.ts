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
import { createSeq, isSeq, normalised, normalize, Seq, seqOf } from './sequence';
import { hasOwn, isArrayOfNumbers, isFunctionValue, isNumeric, lookupKey, toBoolean } from './values';

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

/** A step over its input sequence: jsonata's evaluateStep (results flattened one level). */
type StepRun = (input: unknown[], sc: Scope) => unknown;

/** A plain name step: no stages, predicates or `[]`. */
function isPlainName(step: AstNode): boolean {
  return step.type === 'name' && step.stages === undefined && step.predicate === undefined && step.keepArray !== true;
}

/**
 * Collects step results: each non-array (or constructed array) result is kept,
 * other arrays are flattened into the output. The last step of a path returns
 * its only result as it is when that is a JSON array (not a sequence).
 */
class StepResults {
  readonly out: Seq = createSeq();
  private count = 0;
  private first: unknown;

  add(res: unknown): void {
    if (this.count++ === 0) this.first = res;
    const out = this.out;
    if (!Array.isArray(res) || (res as Seq).cons) {
      out.push(res);
    } else {
      for (let j = 0; j < res.length; j++) out.push(res[j]);
    }
  }

  finish(last: boolean): unknown {
    if (last && this.count === 1 && Array.isArray(this.first) && !isSeq(this.first)) return this.first;
    return this.out;
  }
}

/** A plain name step: lookupKey per item (objects inline; jsonata's function objects have no fields), normalised. */
function nameStep(name: string, last: boolean): StepRun {
  return (input) => {
    const results = new StepResults();
    for (let i = 0; i < input.length; i++) {
      const item = input[i];
      let res: unknown;
      if (Array.isArray(item)) {
        res = normalize(lookupKey(item, name), false);
      } else if (item !== null && typeof item === 'object' && hasOwn(item, name) && !isFunctionValue(item)) {
        res = (item as Record<string, unknown>)[name];
        if (Array.isArray(res)) res = normalize(res, false);
      } else {
        continue;
      }
      if (res !== undefined) results.add(res);
    }
    return results.finish(last);
  };
}

function compileStep(c: NodeCompiler, step: AstNode, last: boolean): StepRun {
  if (isPlainName(step)) return nameStep(step.value as string, last);
  let ev: Ev;
  if (step.type === 'name') {
    const name = step.value as string;
    const keep = step.keepArray === true;
    const base = withPredicates(c, step, (item) => lookupKey(item, name));
    ev = (item, sc) => normalize(base(item, sc), keep);
  } else {
    ev = c.compile(step);
  }
  const stages = (step.stages ?? []).map((s) => compileFilter(c, s));
  return (input, sc) => {
    const results = new StepResults();
    for (let i = 0; i < input.length; i++) {
      let res = ev(input[i], sc);
      for (let s = 0; s < stages.length; s++) res = stages[s](res, sc);
      if (res !== undefined) results.add(res);
    }
    return results.finish(last);
  };
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

  const last = steps.length - 1;
  const firstIsCons = steps[0].consarray === true;
  const runs = steps.map((s, k) => (k === 0 && firstIsCons ? undefined : compileStep(c, s, k === last)));
  const consEv = firstIsCons ? c.compile(steps[0]) : undefined;
  const firstIsVariable = steps[0].type === 'variable';
  const keepSingletonArray = node.keepSingletonArray === true;

  const runFrom = (start: number, inputSeq: unknown[], sc: Scope): unknown => {
    let input: unknown[] = inputSeq;
    let result: unknown;
    for (let k = start; k < steps.length; k++) {
      const run = runs[k];
      if (run === undefined) {
        result = (consEv as Ev)(input, sc);
        if (result === undefined || lengthProp(result) === 0) break;
        input = itemsOf(result);
        continue;
      }
      result = run(input, sc);
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

  // Without predicates or `[]` on the path node the evaluator normalises its result itself.
  const self = node.predicate === undefined && node.keepArray !== true;
  const done = (result: unknown): unknown => (self ? normalize(result, false) : result);
  const general: Ev = (ctx, sc) => done(runFrom(0, Array.isArray(ctx) && !firstIsVariable ? ctx : seqOf(ctx), sc));

  // Leading plain names: walk objects directly while no arrays are met.
  let prefix = 0;
  while (prefix < steps.length && isPlainName(steps[prefix])) prefix++;
  if (keepSingletonArray || prefix === 0) return self ? normalised(general) : general;
  const names = steps.slice(0, prefix).map((s) => s.value as string);
  const walk: Ev = (ctx, sc) => {
    if (Array.isArray(ctx)) return general(ctx, sc);
    let v: unknown = ctx;
    for (let k = 0; k < prefix; k++) {
      // a step over the single value v: nothing found ends the path (an empty sequence, i.e. undefined)
      if (v === null || typeof v !== 'object' || !hasOwn(v, names[k]) || isFunctionValue(v)) return undefined;
      const r = (v as Record<string, unknown>)[names[k]];
      if (r === undefined) return undefined;
      if (Array.isArray(r)) {
        const plain = (r as Seq).sequence !== true && (r as Seq).cons !== true;
        if (plain && k === last) return r;
        // the step over [v] yields the items of a plain, non-empty array: go on with them
        if (plain && r.length > 0) return done(runFrom(k + 1, r, sc));
        return done(runFrom(k, seqOf(v), sc));
      }
      v = r;
    }
    return prefix === steps.length ? v : done(runFrom(prefix, seqOf(v), sc));
  };
  return self ? normalised(walk) : walk;
}
