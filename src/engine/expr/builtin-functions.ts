/**
 * The jsonata built-in functions available on the fast path, with jsonata's
 * signatures, arities and semantics (undefined in → undefined out, the same
 * error codes). Functions not listed here make an expression fall back.
 */
import { Bailout, exprError } from './errors';
import { arityOf, callFromHof, FnValue, makeNative } from './callable';
import { evaluationMillis } from './clock';
import { createSeq, Seq } from './sequence';
import { signature } from './signature';
import {
  append, castString, hasOwn, isFunctionValue, lookupKey, stringToArray, toBoolean, typeName,
} from './values';

type Impl = (args: unknown[]) => unknown;

interface Def {
  readonly sig: string;
  /** what jsonata reports as the function's arity (its implementation's declared parameters) */
  readonly arity: number;
  readonly impl: Impl;
}

const str = (v: unknown): string => v as string;
const num = (v: unknown): number => v as number;
const arr = (v: unknown): unknown[] => v as unknown[];

function hofArgs(func: unknown, value: unknown, index: unknown, whole: unknown): unknown[] {
  const args = [value];
  const n = arityOf(func);
  if (n >= 2) args.push(index);
  if (n >= 3) args.push(whole);
  return args;
}

function sum(a: unknown[]): number {
  let total = 0;
  a.forEach((n) => { total += num(n); });
  return total;
}

const SURROGATE = /[\uD800-\uDFFF]/;

function substring(s: string, startArg: number, length: number | undefined): string {
  // Without surrogate pairs, code points are code units: String#slice clamps and counts
  // negative positions exactly as Array#slice does on the code point array below.
  if (!SURROGATE.test(s)) {
    let start = startArg;
    if (s.length + start < 0) start = 0;
    if (length !== undefined) {
      if (length <= 0) return '';
      return s.slice(start, start >= 0 ? start + length : s.length + start + length);
    }
    return s.slice(start);
  }
  const chars = stringToArray(s);
  let start = startArg;
  if (chars.length + start < 0) start = 0;
  if (length !== undefined) {
    if (length <= 0) return '';
    const end = start >= 0 ? start + length : chars.length + start + length;
    return chars.slice(start, end).join('');
  }
  return chars.slice(start).join('');
}

function trim(s: string): string {
  let r = s.replace(/[ \t\n\r]+/gm, ' ');
  if (r.charAt(0) === ' ') r = r.substring(1);
  if (r.charAt(r.length - 1) === ' ') r = r.substring(0, r.length - 1);
  return r;
}

function toNumber(arg: unknown): number | undefined {
  if (arg === undefined) return undefined;
  if (typeof arg === 'number') return arg;
  if (typeof arg === 'string' && /^-?[0-9]+(\.[0-9]+)?([Ee][-+]?[0-9]+)?$/.test(arg) && !Number.isNaN(parseFloat(arg)) && Number.isFinite(Number(arg))) {
    return parseFloat(arg);
  }
  if (typeof arg === 'string' && /^(0[xX][0-9A-Fa-f]+)|(0[oO][0-7]+)|(0[bB][0-1]+)$/.test(arg)) return Number(arg);
  if (arg === true) return 1;
  if (arg === false) return 0;
  throw exprError('D3030', { value: arg, index: 1 });
}

/** Round half to even, shifting the decimal point textually like jsonata. */
export function roundHalfEven(value: number, precision: number | undefined): number {
  let arg = value;
  if (precision) {
    const parts = arg.toString().split('e');
    arg = +(parts[0] + 'e' + (parts[1] ? +parts[1] + precision : precision));
  }
  let result = Math.round(arg);
  const diff = result - arg;
  if (Math.abs(diff) === 0.5 && Math.abs(result % 2) === 1) result = result - 1;
  if (precision) {
    const parts = result.toString().split('e');
    result = +(parts[0] + 'e' + (parts[1] ? +parts[1] - precision : -precision));
  }
  if (Object.is(result, -0)) result = 0;
  return result;
}

function split(s: string, separator: unknown, limit: unknown): unknown {
  if (num(limit) < 0) throw exprError('D3020', { value: limit, index: 3 });
  if (limit === undefined || num(limit) > 0) {
    if (typeof separator === 'string') return s.split(separator, limit as number | undefined);
    if (isFunctionValue(separator)) throw new Bailout('$split with a matcher function');
    throw new TypeError('matcher is not a function');
  }
  return [];
}

function contains(s: unknown, token: unknown): unknown {
  if (s === undefined || token === undefined) return undefined;
  if (typeof token === 'string') return str(s).indexOf(token) !== -1;
  if (isFunctionValue(token)) throw new Bailout('$contains with a matcher function');
  throw new TypeError('matcher is not a function');
}

function keysOf(arg: unknown): Seq {
  let result = createSeq();
  if (Array.isArray(arg)) {
    const merged: Record<string, true> = Object.create(null) as Record<string, true>;
    for (const item of arg) for (const k of keysOf(item)) merged[str(k)] = true;
    result = keysOf(merged);
  } else if (arg !== null && typeof arg === 'object' && !isFunctionValue(arg)) {
    for (const k of Object.keys(arg)) result.push(k);
  }
  return result;
}

function map(a: unknown, func: unknown): unknown {
  if (a === undefined) return undefined;
  const items = arr(a);
  const result = createSeq();
  for (let i = 0; i < items.length; i++) {
    const r = callFromHof(func, hofArgs(func, items[i], i, items));
    if (r !== undefined) result.push(r);
  }
  return result;
}

function filter(a: unknown, func: unknown): unknown {
  if (a === undefined) return undefined;
  const items = arr(a);
  const result = createSeq();
  for (let i = 0; i < items.length; i++) {
    const entry = items[i];
    if (toBoolean(callFromHof(func, hofArgs(func, entry, i, items)))) result.push(entry);
  }
  return result;
}

function reduce(a: unknown, func: unknown, init: unknown): unknown {
  if (a === undefined) return undefined;
  const items = arr(a);
  const n = arityOf(func);
  if (n < 2) throw exprError('D3050', { index: 1 });
  let result: unknown;
  let i: number;
  if (init === undefined && items.length > 0) {
    result = items[0];
    i = 1;
  } else {
    result = init;
    i = 0;
  }
  for (; i < items.length; i++) {
    const args = [result, items[i]];
    if (n >= 3) args.push(i);
    if (n >= 4) args.push(items);
    result = callFromHof(func, args);
  }
  return result;
}

const DEFS: Readonly<Record<string, Def>> = {
  sum: { sig: '<a<n>:n>', arity: 1, impl: ([a]) => (a === undefined ? undefined : sum(arr(a))) },
  count: { sig: '<a:n>', arity: 1, impl: ([a]) => (a === undefined ? 0 : arr(a).length) },
  max: { sig: '<a<n>:n>', arity: 1, impl: ([a]) => (a === undefined || arr(a).length === 0 ? undefined : Math.max(...(a as number[]))) },
  min: { sig: '<a<n>:n>', arity: 1, impl: ([a]) => (a === undefined || arr(a).length === 0 ? undefined : Math.min(...(a as number[]))) },
  average: { sig: '<a<n>:n>', arity: 1, impl: ([a]) => (a === undefined || arr(a).length === 0 ? undefined : sum(arr(a)) / arr(a).length) },
  string: { sig: '<x-b?:s>', arity: 1, impl: ([v, pretty]) => castString(v, pretty === true) },
  substring: {
    sig: '<s-nn?:s>', arity: 3,
    impl: ([s, start, len]) => (s === undefined ? undefined : substring(str(s), num(start), len as number | undefined)),
  },
  substringBefore: {
    sig: '<s-s:s>', arity: 2,
    impl: ([s, chars]) => {
      if (s === undefined) return undefined;
      const pos = str(s).indexOf(chars as string);
      return pos > -1 ? str(s).substr(0, pos) : s;
    },
  },
  substringAfter: {
    sig: '<s-s:s>', arity: 2,
    impl: ([s, chars]) => {
      if (s === undefined) return undefined;
      const pos = str(s).indexOf(chars as string);
      return pos > -1 ? str(s).substr(pos + str(chars).length) : s;
    },
  },
  lowercase: { sig: '<s-:s>', arity: 1, impl: ([s]) => (s === undefined ? undefined : str(s).toLowerCase()) },
  uppercase: { sig: '<s-:s>', arity: 1, impl: ([s]) => (s === undefined ? undefined : str(s).toUpperCase()) },
  length: { sig: '<s-:n>', arity: 1, impl: ([s]) => (s === undefined ? undefined : stringToArray(str(s)).length) },
  trim: { sig: '<s-:s>', arity: 1, impl: ([s]) => (s === undefined ? undefined : trim(str(s))) },
  contains: { sig: '<s-(sf):b>', arity: 2, impl: ([s, token]) => contains(s, token) },
  split: { sig: '<s-(sf)n?:a<s>>', arity: 3, impl: ([s, sep, limit]) => (s === undefined ? undefined : split(str(s), sep, limit)) },
  join: {
    sig: '<a<s>s?:s>', arity: 2,
    impl: ([a, sep]) => (a === undefined ? undefined : arr(a).join(sep === undefined ? '' : str(sep))),
  },
  number: { sig: '<(nsb)-:n>', arity: 1, impl: ([v]) => toNumber(v) },
  floor: { sig: '<n-:n>', arity: 1, impl: ([n]) => (n === undefined ? undefined : Math.floor(num(n))) },
  ceil: { sig: '<n-:n>', arity: 1, impl: ([n]) => (n === undefined ? undefined : Math.ceil(num(n))) },
  round: { sig: '<n-n?:n>', arity: 2, impl: ([n, p]) => (n === undefined ? undefined : roundHalfEven(num(n), p as number | undefined)) },
  abs: { sig: '<n-:n>', arity: 1, impl: ([n]) => (n === undefined ? undefined : Math.abs(num(n))) },
  boolean: { sig: '<x-:b>', arity: 1, impl: ([v]) => toBoolean(v) },
  not: { sig: '<x-:b>', arity: 1, impl: ([v]) => (v === undefined ? undefined : !toBoolean(v)) },
  exists: { sig: '<x:b>', arity: 1, impl: ([v]) => v !== undefined },
  map: { sig: '<af>', arity: 2, impl: ([a, f]) => map(a, f) },
  filter: { sig: '<af>', arity: 2, impl: ([a, f]) => filter(a, f) },
  reduce: { sig: '<afj?:j>', arity: 3, impl: ([a, f, init]) => reduce(a, f, init) },
  keys: { sig: '<x-:a<s>>', arity: 1, impl: ([v]) => keysOf(v) },
  lookup: { sig: '<x-s:x>', arity: 2, impl: ([v, k]) => lookupKey(v, k as string) },
  append: { sig: '<xx:a>', arity: 2, impl: ([a, b]) => append(a, b) },
  type: { sig: '<x:s>', arity: 1, impl: ([v]) => typeName(v) },
  now: {
    sig: '<s?s?:s>', arity: 2,
    impl: ([picture, tz]) => {
      if (picture !== undefined || tz !== undefined) throw new Bailout('$now with a picture');
      return new Date(evaluationMillis()).toISOString();
    },
  },
  millis: { sig: '<:n>', arity: 0, impl: () => evaluationMillis() },
};

function build(): ReadonlyMap<string, FnValue> {
  const m = new Map<string, FnValue>();
  for (const name of Object.keys(DEFS)) {
    const d = DEFS[name];
    m.set(name, makeNative(name, signature(d.sig), d.arity, d.impl));
  }
  return m;
}

/** Built-in function values by name (without the `$`). */
export const BUILTINS: ReadonlyMap<string, FnValue> = build();

/** Every function jsonata 2.x defines; those missing from the fast subset force a fallback when referenced. */
const JSONATA_FUNCTIONS = new Set([
  'sum', 'count', 'max', 'min', 'average', 'string', 'substring', 'substringBefore', 'substringAfter', 'lowercase',
  'uppercase', 'length', 'trim', 'pad', 'match', 'contains', 'replace', 'split', 'join', 'formatNumber', 'formatBase',
  'formatInteger', 'parseInteger', 'number', 'floor', 'ceil', 'round', 'abs', 'sqrt', 'power', 'random', 'boolean',
  'not', 'map', 'zip', 'filter', 'single', 'reduce', 'sift', 'keys', 'lookup', 'append', 'exists', 'spread', 'merge',
  'reverse', 'each', 'error', 'assert', 'type', 'sort', 'shuffle', 'distinct', 'base64encode', 'base64decode',
  'encodeUrlComponent', 'encodeUrl', 'decodeUrlComponent', 'decodeUrl', 'eval', 'toMillis', 'fromMillis', 'clone',
  'now', 'millis',
]);

/** A jsonata built-in the fast path does not implement. */
export function isUnimplementedBuiltin(name: string): boolean {
  return JSONATA_FUNCTIONS.has(name) && !hasOwn(DEFS, name);
}
