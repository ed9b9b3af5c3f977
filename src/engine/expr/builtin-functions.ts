/**
 * The jsonata built-in functions available on the fast path, with jsonata's
 * signatures, arities and semantics (undefined in → undefined out, the same
 * error codes). Functions not listed here make an expression fall back.
 */
import { Bailout, exprError } from './errors';
import { arityOf, callFromHof, FnValue, makeNative } from './callable';
import { evaluationMillis } from './clock';
import { createSeq, Seq } from './sequence';
import { roundHalfEven } from './rounding';
import { signature } from './signature';
import { codePointLength, contains, split, substring, substringAfter, substringBefore, trim } from './string-functions';
import {
  append, castString, hasOwn, isFunctionValue, lookupKey, toBoolean, typeName,
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

/** The items were validated as numbers (an array with holes fails that validation). */
export function sum(a: readonly unknown[]): number {
  let total = 0;
  for (let i = 0; i < a.length; i++) total += num(a[i]);
  return total;
}

export function toNumber(arg: unknown): number | undefined {
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
  substringBefore: { sig: '<s-s:s>', arity: 2, impl: ([s, chars]) => substringBefore(s, chars) },
  substringAfter: { sig: '<s-s:s>', arity: 2, impl: ([s, chars]) => substringAfter(s, chars) },
  lowercase: { sig: '<s-:s>', arity: 1, impl: ([s]) => (s === undefined ? undefined : str(s).toLowerCase()) },
  uppercase: { sig: '<s-:s>', arity: 1, impl: ([s]) => (s === undefined ? undefined : str(s).toUpperCase()) },
  length: { sig: '<s-:n>', arity: 1, impl: ([s]) => (s === undefined ? undefined : codePointLength(str(s))) },
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
