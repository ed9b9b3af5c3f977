/**
 * Direct forms of built-in functions, for calls whose callee is known at
 * compile time to be the built-in. A direct form takes the evaluated arguments
 * of a call with a fixed argument count, checks their types inline and computes
 * the result the validating call would give. For any argument types it does not
 * handle — everything that would be substituted, wrapped or rejected by the
 * signature in a way the form does not spell out — it returns GENERIC, and the
 * caller makes the ordinary (validating) call with the same values, so errors
 * stay exactly those of the ordinary call.
 */
import { sum, toNumber } from './builtin-functions';
import { roundHalfEven } from './rounding';
import { codePointLength, contains, split, substring, substringAfter, substringBefore, trim } from './string-functions';
import { castString, toBoolean, typeName } from './values';

/** "Make the ordinary call": the arguments are outside what the direct form handles. */
export const GENERIC: unique symbol = Symbol('svc.expr.generic');

export type Direct = (a: unknown, b: unknown, c: unknown) => unknown;

/** Direct forms by number of arguments in the call (unused trailing parameters are undefined). */
type Forms = Readonly<Partial<Record<1 | 2 | 3, Direct>>>;

const isStringOrMissing = (v: unknown): boolean => v === undefined || typeof v === 'string';
const isNumberOrMissing = (v: unknown): boolean => v === undefined || typeof v === 'number';

/** `<s-...>` with a string (or missing) first argument: `f(s)`, undefined for undefined. */
function onString(f: (s: string) => unknown): Direct {
  return (s) => (typeof s === 'string' ? f(s) : s === undefined ? undefined : GENERIC);
}

/** `<n-:n>` with a number (or missing) argument. */
function onNumber(f: (n: number) => number): Direct {
  return (n) => (typeof n === 'number' ? f(n) : n === undefined ? undefined : GENERIC);
}

/** Every item a number (as `a<n>` checks it), so the array passes as it is. */
function allNumbers(a: readonly unknown[]): boolean {
  for (let i = 0; i < a.length; i++) if (typeof a[i] !== 'number') return false;
  return true;
}

/** `items.join(sep)` when every item is a string (as `a<s>` checks it), else GENERIC. */
function joinStrings(items: readonly unknown[], sep: string): unknown {
  let out = '';
  for (let i = 0; i < items.length; i++) {
    const s = items[i];
    if (typeof s !== 'string') return GENERIC;
    out = i === 0 ? s : out + sep + s;
  }
  return out;
}

/** `<a<n>:n>`: an array of numbers, a number (wrapped), or undefined. */
function onNumbers(f: (a: readonly number[]) => unknown): Direct {
  return (a) => {
    if (Array.isArray(a)) return allNumbers(a) ? f(a as number[]) : GENERIC;
    if (typeof a === 'number') return f([a]);
    return a === undefined ? undefined : GENERIC;
  };
}

function join(a: unknown, sep: unknown): unknown {
  if (!isStringOrMissing(sep)) return GENERIC;
  if (Array.isArray(a)) return joinStrings(a, sep === undefined ? '' : (sep as string));
  if (typeof a === 'string') return a;
  return a === undefined ? undefined : GENERIC;
}

function substringOf(s: unknown, start: unknown, length: unknown): unknown {
  if (typeof start !== 'number' || !isNumberOrMissing(length)) return GENERIC;
  if (typeof s === 'string') return substring(s, start, length as number | undefined);
  return s === undefined ? undefined : GENERIC;
}

function splitOf(s: unknown, separator: unknown, limit: unknown): unknown {
  if (typeof separator !== 'string' || !isNumberOrMissing(limit)) return GENERIC;
  if (typeof s === 'string') return limit === undefined ? s.split(separator) : split(s, separator, limit);
  return s === undefined ? undefined : GENERIC;
}

function roundOf(n: unknown, precision: unknown): unknown {
  if (!isNumberOrMissing(precision)) return GENERIC;
  if (typeof n === 'number') return roundHalfEven(n, precision as number | undefined);
  return n === undefined ? undefined : GENERIC;
}

/** `<s-s:s>` / `<s-(sf):b>` with string-or-missing arguments. */
function onTwoStrings(f: (s: unknown, t: unknown) => unknown): Direct {
  return (s, t) => (isStringOrMissing(s) && isStringOrMissing(t) ? f(s, t) : GENERIC);
}

const stringOf: Direct = (v) => castString(v, false);
const numberOf: Direct = (v) => {
  const t = typeof v;
  return t === 'number' || t === 'string' || t === 'boolean' || t === 'undefined' ? toNumber(v) : GENERIC;
};

const DIRECT: Readonly<Record<string, Forms>> = {
  uppercase: { 1: onString((s) => s.toUpperCase()) },
  lowercase: { 1: onString((s) => s.toLowerCase()) },
  trim: { 1: onString(trim) },
  length: { 1: onString(codePointLength) },
  substring: { 2: substringOf, 3: substringOf },
  substringBefore: { 2: onTwoStrings(substringBefore) },
  substringAfter: { 2: onTwoStrings(substringAfter) },
  contains: { 2: onTwoStrings(contains) },
  split: { 2: splitOf, 3: splitOf },
  join: { 1: join, 2: join },
  string: { 1: stringOf },
  number: { 1: numberOf },
  sum: { 1: onNumbers(sum) },
  max: { 1: onNumbers((a) => (a.length === 0 ? undefined : Math.max(...a))) },
  min: { 1: onNumbers((a) => (a.length === 0 ? undefined : Math.min(...a))) },
  average: { 1: onNumbers((a) => (a.length === 0 ? undefined : sum(a) / a.length)) },
  count: { 1: (a) => (Array.isArray(a) ? a.length : a === undefined ? 0 : GENERIC) },
  round: { 1: roundOf, 2: roundOf },
  floor: { 1: onNumber(Math.floor) },
  ceil: { 1: onNumber(Math.ceil) },
  abs: { 1: onNumber(Math.abs) },
  exists: { 1: (v) => v !== undefined },
  boolean: { 1: (v) => toBoolean(v) },
  not: { 1: (v) => (v === undefined ? undefined : !toBoolean(v)) },
  type: { 1: (v) => typeName(v) },
};

/** The direct form of built-in `name` for a call with `argCount` arguments, if there is one. */
export function directForm(name: string, argCount: number): Direct | undefined {
  const forms = Object.prototype.hasOwnProperty.call(DIRECT, name) ? DIRECT[name] : undefined;
  if (forms === undefined || argCount < 1 || argCount > 3) return undefined;
  return forms[argCount as 1 | 2 | 3];
}
