/**
 * Random JSONata expressions (from the fast-path grammar) and random JSON
 * inputs for the differential test. Everything is driven by a seeded PRNG so a
 * failing case can be regenerated from its seed.
 */

export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** mulberry32 */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }
}

// ---------------------------------------------------------------- inputs

const STRINGS = ['', 'a', 'abc', 'Hello World', '  spaced   out ', '42', '-3.5', '1e3', 'a,b,c', 'x y z', 'Ünïcødé', 'true', 'null', 'MiXeD case', '0x1F', 'new york city', '😀 smile 😀', 'a\uD800b'];
const FIELDS = ['a', 'b', 'c', 'n', 's', 'price', 'qty', 'name', 'tags', 'items', 'flag', 'nul'];

/** A decimal whose last digit is 5: a tie for $round at one digit less (e.g. 2.675, -0.125, 1.5). */
function decimalTie(r: Rng): number {
  return Number(`${r.int(-9999, 9999) * 10 + 5}e-${r.int(1, 5)}`);
}

function number(r: Rng): number {
  switch (r.int(0, 5)) {
    case 5: return decimalTie(r);
    case 0: return r.int(-10, 10);
    case 1: return Math.round((r.next() * 200 - 100) * 100) / 100;
    case 2: return r.pick([0, 1, 2, 0.5, 1.5, 2.5, -0.5, -2.5, 0.125, 1e-7, 123456.789]);
    case 3: return r.int(0, 100);
    default: return Math.round(r.next() * 1000) / 10;
  }
}

function value(r: Rng, depth: number): unknown {
  const k = r.int(0, depth > 0 ? 9 : 5);
  switch (k) {
    case 0: case 1: return number(r);
    case 2: case 3: return r.pick(STRINGS);
    case 4: return r.chance(0.5);
    case 5: return null;
    case 6: case 7: {
      const n = r.int(0, 4);
      const kind = r.int(0, 3);
      const out: unknown[] = [];
      for (let i = 0; i < n; i++) {
        out.push(kind === 0 ? number(r) : kind === 1 ? r.pick(STRINGS) : kind === 2 ? object(r, depth - 1) : value(r, depth - 1));
      }
      return out;
    }
    default:
      return object(r, depth - 1);
  }
}

function object(r: Rng, depth: number): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  const n = r.int(0, 5);
  for (let i = 0; i < n; i++) {
    const f = r.pick(FIELDS);
    o[f] = depth > 0 ? value(r, depth) : r.chance(0.5) ? number(r) : r.pick(STRINGS);
  }
  return o;
}

function item(r: Rng, depth: number): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  if (r.chance(0.9)) o.price = r.chance(0.9) ? number(r) : r.pick<unknown>(['12', null, true]);
  if (r.chance(0.85)) o.qty = r.chance(0.95) ? r.int(-1, 5) : '2';
  if (r.chance(0.8)) o.name = r.pick(STRINGS);
  if (r.chance(0.5)) o.tags = r.chance(0.85) ? Array.from({ length: r.int(0, 3) }, () => r.pick(STRINGS)) : r.pick(STRINGS);
  if (r.chance(0.2)) o.flag = r.chance(0.5);
  if (depth > 0 && r.chance(0.25)) o.items = Array.from({ length: r.int(0, 3) }, () => item(r, depth - 1));
  if (r.chance(0.15)) o.a = value(r, 1);
  return o;
}

/** A random root object (never an array): order-like data with noise. */
export function randomInput(r: Rng): Record<string, unknown> {
  const root = object(r, 2);
  if (r.chance(0.85)) root.items = Array.from({ length: r.int(0, 5) }, () => item(r, 1));
  if (r.chance(0.6)) root.body = { ...object(r, 1), items: Array.from({ length: r.int(0, 3) }, () => item(r, 1)) };
  if (r.chance(0.5)) root.n = number(r);
  if (r.chance(0.5)) root.s = r.pick(STRINGS);
  // nested arrays of objects / numbers, for paths that map over arrays of arrays
  if (r.chance(0.3)) root.m = Array.from({ length: r.int(0, 3) }, () => (r.chance(0.7) ? Array.from({ length: r.int(0, 2) }, () => item(r, 0)) : r.chance(0.5) ? [number(r), [number(r)]] : item(r, 0)));
  return root;
}

// ---------------------------------------------------------------- expressions

type Sort = 'num' | 'str' | 'bool' | 'arr' | 'obj' | 'any';

/** Built-ins the compiler calls through a direct form (builtin-direct.ts). */
const DIRECT_BUILTINS = [
  'uppercase', 'lowercase', 'trim', 'length', 'substring', 'substringBefore', 'substringAfter', 'contains', 'split', 'join',
  'string', 'number', 'sum', 'max', 'min', 'average', 'count', 'round', 'floor', 'ceil', 'abs', 'exists', 'boolean', 'not', 'type',
];
const SORTS: readonly Sort[] = ['num', 'str', 'bool', 'arr', 'obj', 'any'];

interface Env {
  readonly vars: readonly string[];
  readonly fresh: { n: number };
}

export class ExprGenerator {
  constructor(private readonly r: Rng) {}

  expression(maxDepth: number): string {
    return this.gen(this.r.pick(SORTS), maxDepth, { vars: [], fresh: { n: 0 } });
  }

  private fresh(env: Env): string {
    env.fresh.n++;
    return `$v${env.fresh.n}`;
  }

  private gen(sortIn: Sort, d: number, env: Env): string {
    const r = this.r;
    // now and then ignore the intended type, to exercise type errors
    const sort: Sort = r.chance(0.08) ? r.pick(SORTS) : sortIn;
    if (d <= 0 || r.chance(0.2)) return this.leaf(sort, env);
    const e = (s: Sort): string => this.gen(s, d - 1, env);
    switch (sort) {
      case 'num': return this.num(d, env, e);
      case 'str': return this.str(d, env, e);
      case 'bool': return this.bool(e);
      case 'arr': return this.arr(d, env, e);
      case 'obj': return this.obj(e);
      default: return this.any(d, env, e);
    }
  }

  private leaf(sort: Sort, env: Env): string {
    const r = this.r;
    if (env.vars.length > 0 && r.chance(0.3)) return r.pick(env.vars);
    switch (sort) {
      case 'num':
        return r.pick([String(r.int(0, 9)), String(r.int(-5, 5)), String(number(r)), 'price', 'qty', 'n', 'a', 'items.price', 'items[0].qty', 'body.n']);
      case 'str':
        return r.pick([JSON.stringify(r.pick(STRINGS)), 'name', 's', 'items.name', 'body.s', '"a\\"b"', "'single'"]);
      case 'bool':
        return r.pick(['true', 'false', 'flag', 'items.flag']);
      case 'arr':
        return r.pick(['items', 'tags', 'items.tags', 'items.price', 'body.items', '[]', '[1, 2, 3]', 'items.items.name', 'm', 'm.name', 'm.price', '["a", "b c"]']);
      case 'obj':
        return r.pick(['$', '$$', 'body', 'items[0]', '{}', 'a']);
      default:
        return r.pick(['null', 'nul', 'a', 'b', 'c', 'x', '$', 'missing.path', '$$.n', 'body.a']);
    }
  }

  private path(d: number, env: Env, e: (s: Sort) => string): string {
    const r = this.r;
    const start = r.pick(['', '', '', '$.', '$$.', env.vars.length > 0 ? `${r.pick(env.vars)}.` : '']);
    const n = r.int(1, 3);
    const parts: string[] = [];
    for (let i = 0; i < n; i++) {
      let step = r.chance(0.1) && d > 1 ? `(${e(r.pick(SORTS))})` : r.pick(FIELDS);
      if (r.chance(0.35)) {
        step += r.chance(0.5)
          ? `[${r.pick(['0', '1', '-1', '2', '0.5', '-2'])}]`
          : `[${e(r.pick(['bool', 'bool', 'num', 'any']))}]`;
      }
      parts.push(step);
    }
    return start + parts.join('.');
  }

  private lambda(params: number, body: (env: Env) => string, env: Env): string {
    const names: string[] = [];
    for (let i = 0; i < params; i++) names.push(this.fresh(env));
    const inner: Env = { vars: [...env.vars, ...names], fresh: env.fresh };
    return `function(${names.join(', ')}){ ${body(inner)} }`;
  }

  private num(d: number, env: Env, e: (s: Sort) => string): string {
    const r = this.r;
    switch (r.int(0, 13)) {
      case 0: case 1: case 2: return `${e('num')} ${r.pick(['+', '-', '*', '/', '%'])} ${e('num')}`;
      case 3: return `-${e('num')}`;
      case 4: return `$${r.pick(['sum', 'max', 'min', 'average', 'count'])}(${e('arr')})`;
      case 5: {
        if (r.chance(0.3)) {
          // a decimal tie at the precision rounded to (2.675 → 2 digits), or next to it
          const digits = r.int(1, 5);
          const tie = `${r.int(-9999, 9999) * 10 + 5}e-${digits}`;
          return `$round(${r.chance(0.7) ? tie : `${tie} ${r.pick(['+', '-'])} 1e-${digits + r.int(8, 14)}`}, ${digits - 1})`;
        }
        return `$round(${e('num')}${r.chance(0.6) ? `, ${r.chance(0.85) ? r.int(-3, 5) : e('num')}` : ''})`;
      }
      case 6: return `$${r.pick(['floor', 'ceil', 'abs'])}(${e('num')})`;
      case 7: return `$number(${e(r.pick(['str', 'num', 'bool']))})`;
      case 8: return `$length(${e('str')})`;
      case 9: return `$reduce(${e('arr')}, ${this.lambda(2, (inner) => this.gen('num', d - 1, inner), env)}${r.chance(0.3) ? `, ${e('num')}` : ''})`;
      case 10: return `(${e('bool')} ? ${e('num')} : ${e('num')})`;
      case 11: return this.path(d, env, e);
      case 12: return `$count(${this.path(d, env, e)})`;
      default: return `$sum(${this.path(d, env, e)}.(${e('num')}))`;
    }
  }

  private str(d: number, env: Env, e: (s: Sort) => string): string {
    const r = this.r;
    switch (r.int(0, 12)) {
      case 0: case 1: return `${e(r.pick(['str', 'num', 'any']))} & ${e(r.pick(['str', 'num', 'bool']))}`;
      case 2: return `$string(${e('any')}${r.chance(0.1) ? ', true' : ''})`;
      case 3: return `$${r.pick(['uppercase', 'lowercase', 'trim'])}(${e('str')})`;
      case 4: {
        const text = r.chance(0.3) ? JSON.stringify(r.pick(['😀 smile 😀', 'a\uD800b', 'x😀y😀z', 'Ünïcødé'])) : e('str');
        return `$substring(${text}, ${e('num')}${r.chance(0.5) ? `, ${e('num')}` : ''})`;
      }
      case 5: return `$${r.pick(['substringBefore', 'substringAfter'])}(${e('str')}, ${JSON.stringify(r.pick([' ', ',', 'a', 'l', '']))})`;
      case 6: return `$join(${e('arr')}${r.chance(0.5) ? `, ${JSON.stringify(r.pick([',', ' ', '']))}` : ''})`;
      case 7: return `$type(${e('any')})`;
      case 8: return `(${e('bool')} ? ${e('str')}${r.chance(0.7) ? ` : ${e('str')}` : ''})`;
      case 9: return `${this.path(d, env, e)}.$${r.pick(['uppercase', 'lowercase', 'string', 'trim'])}()`;
      case 10: return `${e('str')} ~> $${r.pick(['uppercase', 'trim', 'lowercase'])}()`;
      case 11: return `$${r.pick(['uppercase', 'string'])}()`;
      default: return this.path(d, env, e);
    }
  }

  private bool(e: (s: Sort) => string): string {
    const r = this.r;
    switch (r.int(0, 9)) {
      case 0: case 1: return `${e('num')} ${r.pick(['<', '<=', '>', '>=', '=', '!='])} ${e('num')}`;
      case 2: return `${e('str')} ${r.pick(['<', '>', '=', '!='])} ${e('str')}`;
      case 3: return `${e('any')} ${r.pick(['=', '!='])} ${e('any')}`;
      case 4: return `${e('bool')} ${r.pick(['and', 'or'])} ${e('bool')}`;
      case 5: return `$${r.pick(['not', 'boolean', 'exists'])}(${e('any')})`;
      case 6: return `$contains(${e('str')}, ${JSON.stringify(r.pick(['a', ' ', 'b', '']))})`;
      case 7: return `${e(r.pick(['num', 'str']))} in ${e('arr')}`;
      case 8: return `${e('any')} ${r.pick(['<', '>'])} ${e('any')}`;
      default: return `$exists(${e('arr')})`;
    }
  }

  private arr(d: number, env: Env, e: (s: Sort) => string): string {
    const r = this.r;
    switch (r.int(0, 13)) {
      case 0: case 1: case 2: return this.path(d, env, e);
      case 3: {
        const n = r.int(0, 3);
        return `[${Array.from({ length: n }, () => e(r.pick(SORTS))).join(', ')}]`;
      }
      case 4: return `$map(${e('arr')}, ${this.lambda(this.hofParams(), (inner) => this.gen(r.pick(SORTS), d - 1, inner), env)})`;
      case 5: return `$filter(${e('arr')}, ${this.lambda(this.hofParams(), (inner) => this.gen('bool', d - 1, inner), env)})`;
      case 6: return `$split(${e('str')}, ${JSON.stringify(r.pick([' ', ',', '', 'a']))}${r.chance(0.2) ? `, ${r.int(0, 2)}` : ''})`;
      case 7: return `$keys(${e('obj')})`;
      case 8: return `$append(${e(r.pick(SORTS))}, ${e(r.pick(SORTS))})`;
      case 9: return `${this.path(d, env, e)}.(${e(r.pick(SORTS))})`;
      case 10: return `$lookup(${e(r.pick(['obj', 'arr']))}, ${JSON.stringify(r.pick(FIELDS))})`;
      case 11: return `[${r.int(-2, 2)}..${r.int(-1, 4)}]`;
      case 12: return `$map(${e('arr')}, $${r.pick(['string', 'uppercase', 'number', 'boolean', 'exists', 'type'])})`;
      default: return `${e('arr')}[${r.pick(['0', '-1', '[0, 1]'])}]`;
    }
  }

  private obj(e: (s: Sort) => string): string {
    const r = this.r;
    if (r.chance(0.8)) {
      const n = r.int(1, 4);
      const keys: string[] = [];
      for (let i = 0; i < n; i++) {
        const k = r.chance(0.85) ? JSON.stringify(r.pick([...FIELDS, '10', '2', 'x y'])) : e('str');
        keys.push(`${k}: ${e(r.pick(SORTS))}`);
      }
      return `{ ${keys.join(', ')} }`;
    }
    return e('any');
  }

  private any(d: number, env: Env, e: (s: Sort) => string): string {
    const r = this.r;
    switch (r.int(0, 12)) {
      case 8: return this.builtinAnyArgs(e);
      case 9: return this.shadowed(d, env, e);
      case 10: return this.applied(d, env, e);
      case 11: return this.inTailPosition(d, env, e);
      case 12: {
        // an inner frame reads the outer variable before assigning its own of the same name
        const v = this.fresh(env);
        const w = this.fresh(env);
        return `(${v} := ${e(r.pick(SORTS))}; (${w} := ${v}; ${v} := ${e(r.pick(SORTS))}; [${w}, ${v}]))`;
      }
      case 0: {
        const v = this.fresh(env);
        const inner: Env = { vars: [...env.vars, v], fresh: env.fresh };
        return `(${v} := ${e(r.pick(SORTS))}; ${this.gen(r.pick(SORTS), d - 1, inner)})`;
      }
      case 1: return `(${e('bool')} ? ${e(r.pick(SORTS))} : ${e(r.pick(SORTS))})`;
      case 2: {
        const f = this.fresh(env);
        const lam = this.lambda(1, (inner) => this.gen(r.pick(SORTS), d - 1, inner), env);
        return `(${f} := ${lam}; ${f}(${e(r.pick(SORTS))}))`;
      }
      case 3: return `${e(r.pick(SORTS))}[${e('bool')}]`;
      case 4: return this.path(d, env, e);
      case 5: return `(${e('arr')}[])`; // parenthesised: jsonata lexes a `/` right after `[]` as a regex
      default: return e(r.pick(['num', 'str', 'bool', 'arr', 'obj']));
    }
  }

  /** $map/$filter lambdas: 1–3 parameters (value, index, array), now and then a 4th that stays undefined. */
  private hofParams(): number {
    return this.r.chance(0.1) ? 4 : this.r.int(1, 3);
  }

  /** A built-in with a direct form, called with 0–3 arguments of any type (wrong types, undefined, arrays). */
  private builtinAnyArgs(e: (s: Sort) => string): string {
    const r = this.r;
    const name = r.pick(DIRECT_BUILTINS);
    const n = r.chance(0.1) ? 0 : r.int(1, 3);
    const args = Array.from({ length: n }, () => e(r.pick(SORTS)));
    return `$${name}(${args.join(', ')})`;
  }

  /** Built-in names rebound by a variable or a lambda parameter. */
  private shadowed(d: number, env: Env, e: (s: Sort) => string): string {
    const r = this.r;
    const name = r.pick(DIRECT_BUILTINS);
    const other = r.pick(['lowercase', 'uppercase', 'string', 'count', 'sum', 'join']);
    switch (r.int(0, 3)) {
      case 0: return `($${name} := $${other}; $${name}(${e(r.pick(SORTS))}))`;
      case 1: {
        const x = this.fresh(env);
        return `(${x} := $${name}; ${x}(${e(r.pick(SORTS))}))`;
      }
      case 2: {
        const f = this.fresh(env);
        const s = this.fresh(env);
        return `(${f} := function($${name}, ${s}){ $${name}(${s}) }; ${f}($${other}, ${e(r.pick(SORTS))}))`;
      }
      default: {
        const f = this.fresh(env);
        const inner: Env = { vars: [...env.vars, '$' + name], fresh: env.fresh };
        return `(${f} := function($${name}){ ${this.gen(r.pick(SORTS), d - 1, inner)} }; ${f}($${other}))`;
      }
    }
  }

  /** `~>` into built-ins with a direct form or an inline lambda. */
  private applied(d: number, env: Env, e: (s: Sort) => string): string {
    const r = this.r;
    switch (r.int(0, 4)) {
      case 0: return `${e('str')} ~> $substring(${e('num')}${r.chance(0.5) ? `, ${e('num')}` : ''})`;
      case 1: return `${e('arr')} ~> $join(${JSON.stringify(r.pick([',', ' ', '']))})`;
      case 2: return `${e('str')} ~> $split(${JSON.stringify(r.pick([' ', ',', '']))})`;
      case 3: return `${e('num')} ~> $round(${r.int(-2, 3)})`;
      default: return `${e('arr')} ~> $${r.pick(['map', 'filter'])}(${this.lambda(this.hofParams(), (inner) => this.gen(r.pick(SORTS), d - 1, inner), env)})`;
    }
  }

  /** Built-in calls and $map/$filter as the last expression of a lambda body (tail calls). */
  private inTailPosition(d: number, env: Env, e: (s: Sort) => string): string {
    const r = this.r;
    const f = this.fresh(env);
    const body = (inner: Env): string => {
      const p = inner.vars[inner.vars.length - 1];
      const items = r.pick([`[${p}]`, `[${p}, ${p}]`, p]); // one item: a singleton sequence
      const hof = `$${r.pick(['map', 'filter'])}(${items}, ${this.lambda(this.hofParams(), (i2) => this.gen(r.pick(SORTS), d - 1, i2), inner)})`;
      switch (r.int(0, 4)) {
        case 0: return hof;
        case 1: return `(${hof})`;
        case 2: return `${p} ? ${hof} : ${p}`;
        case 3: return `$${r.pick(DIRECT_BUILTINS)}(${p})`;
        default: return `($split(${p}, " "))`;
      }
    };
    // $map keeps what the lambda returns as it is (a tail call's sequence is not normalised)
    const use = r.chance(0.5) ? `${f}(${e(r.pick(SORTS))})` : `$map(${e('arr')}, ${f})`;
    return `(${f} := ${this.lambda(1, body, env)}; ${use})`;
  }
}
