/**
 * Array constructors `[a, b]`, object constructors `{"k": v}` and blocks
 * `(a; b)`. jsonata evaluates the items of array constructors and the values of
 * object constructors concurrently (Promise.all), so when more than one of them
 * fails, which error wins depends on promise scheduling: the fast path then
 * hands the evaluation to jsonata instead of guessing. Assignments inside such
 * items would race the same way, so they are not compiled.
 */
import { AstNode, lhsPairs, Unsupported } from './ast';
import { assignedNames, assignedNamesOf } from './analysis';
import { NodeCompiler } from './compiler-api';
import { Bailout, exprError } from './errors';
import { Ev, newFrame, Scope } from './scope';
import { markCons, seqOf } from './sequence';
import { append, hasOwn } from './values';

/** Run evaluations jsonata would run concurrently; one failure is rethrown, several bail out. */
function settle(count: number, run: (i: number) => unknown): unknown[] {
  const out = new Array<unknown>(count);
  let failures = 0;
  let first: unknown;
  for (let i = 0; i < count; i++) {
    try {
      out[i] = run(i);
    } catch (e) {
      if (e instanceof Bailout) throw e;
      if (failures++ === 0) first = e;
    }
  }
  if (failures === 1) throw first;
  if (failures > 1) throw new Bailout('several concurrent failures');
  return out;
}

export function compileArray(c: NodeCompiler, node: AstNode): Ev {
  const items = node.expressions ?? [];
  if (assignedNamesOf(items).size > 0) throw new Unsupported('assignment inside an array constructor');
  const evs = items.map((e) => c.compile(e));
  const nested = items.map((e) => e.value === '[');
  const cons = node.consarray === true;
  const n = evs.length;
  const build = (values: readonly unknown[]): unknown[] => {
    const result: unknown[] = [];
    for (let i = 0; i < n; i++) {
      const v = values[i];
      if (v === undefined) continue;
      if (nested[i] || !Array.isArray(v)) {
        result.push(v);
      } else {
        for (let j = 0; j < v.length; j++) result.push(v[j]);
      }
    }
    return cons ? markCons(result) : result;
  };
  if (n === 1) {
    const only = evs[0];
    return (ctx, sc) => build([only(ctx, sc)]);
  }
  return (ctx, sc) => build(settle(n, (i) => evs[i](ctx, sc)));
}

const RESERVED = new Set(['_jsonata_lambda', '_jsonata_function']);

/** The objects object constructors build have no prototype. */
function newObject(): Record<string, unknown> {
  return Object.create(null) as Record<string, unknown>;
}

export function compileObject(c: NodeCompiler, node: AstNode): Ev {
  const pairs = lhsPairs(node);
  if (assignedNamesOf(pairs.flat()).size > 0) throw new Unsupported('assignment inside an object constructor');
  const keyEvs = pairs.map((p) => c.compile(p[0]));
  const valEvs = pairs.map((p) => c.compile(p[1]));
  const general = generalObject(keyEvs, valEvs);

  if (!pairs.every((p) => p[0].type === 'string' && p[0].predicate === undefined && p[0].keepArray !== true)) return general;
  // Literal keys: the group structure is known statically for a single (non-array) context.
  const seen = new Map<string, number>();
  for (let i = 0; i < pairs.length; i++) {
    const key = pairs[i][0].value as string;
    const prev = seen.get(key);
    if (RESERVED.has(key) || (prev !== undefined && prev !== i)) return general; // always fails; let the general code throw
    seen.set(key, i);
  }
  const order = Object.keys(Object.fromEntries([...seen.entries()]));
  const idx = order.map((k) => seen.get(k) as number);
  const n = order.length;
  return (ctx, sc) => {
    if (Array.isArray(ctx)) return general(ctx, sc);
    const values = n === 1 ? [valEvs[idx[0]](ctx, sc)] : settle(n, (i) => valEvs[idx[i]](ctx, sc));
    const result = newObject();
    for (let i = 0; i < n; i++) if (values[i] !== undefined) result[order[i]] = values[i];
    return result;
  };
}

interface Group {
  data: unknown;
  readonly pair: number;
}

function generalObject(keyEvs: readonly Ev[], valEvs: readonly Ev[]): Ev {
  return (ctx: unknown, sc: Scope) => {
    let items: unknown[] = Array.isArray(ctx) ? ctx : seqOf(ctx);
    if (items.length === 0) items = [undefined];
    const groups = Object.create(null) as Record<string, Group>;
    for (const item of items) {
      for (let p = 0; p < keyEvs.length; p++) {
        const key = keyEvs[p](item, sc);
        if (typeof key !== 'string' && key !== undefined) throw exprError('T1003', { value: key });
        if (key === undefined) continue;
        if (RESERVED.has(key)) throw exprError('D1013', { value: key });
        if (hasOwn(groups, key)) {
          if (groups[key].pair !== p) throw exprError('D1009', { value: key });
          groups[key].data = append(groups[key].data, item);
        } else {
          groups[key] = { data: item, pair: p };
        }
      }
    }
    const keys = Object.keys(groups);
    const values = settle(keys.length, (i) => {
      const g = groups[keys[i]];
      return valEvs[g.pair](g.data, sc);
    });
    const result = newObject();
    for (let i = 0; i < keys.length; i++) if (values[i] !== undefined) result[keys[i]] = values[i];
    return result;
  };
}

export function compileBlock(c: NodeCompiler, node: AstNode, tail: boolean): Ev {
  const exprs = node.expressions ?? [];
  const names = assignedNames(node);
  const evs = c.inFrame(names, () =>
    exprs.map((e, i) => (tail && i === exprs.length - 1 ? c.compileTail(e) : c.compile(e))));
  const n = evs.length;
  const run = (ctx: unknown, sc: Scope): unknown => {
    let r: unknown;
    for (let i = 0; i < n; i++) r = evs[i](ctx, sc);
    return r;
  };
  if (names.size === 0) {
    if (n === 1) return evs[0];
    return run;
  }
  const size = names.size;
  return (ctx, sc) => run(ctx, new Scope(newFrame(size), sc, sc.st));
}

export function compileBind(c: NodeCompiler, node: AstNode): Ev {
  const target = node.lhs;
  if (target === undefined || Array.isArray(target) || (target as AstNode).type !== 'variable') throw new Unsupported('bind target');
  const name = (target as AstNode).value as string;
  // the innermost frame declares every name assigned in it (analysis.assignedNames)
  const ref = c.frameRefs(name)[0];
  if (ref === undefined || ref.depth !== 0) throw new Unsupported(`assignment to $${name} outside its frame`);
  const slot = ref.slot;
  const R = c.compile(node.rhs as AstNode);
  return (ctx, sc) => {
    const v = R(ctx, sc);
    (sc.vars as unknown[])[slot] = v;
    return v;
  };
}
