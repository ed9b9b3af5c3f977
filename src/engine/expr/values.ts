/**
 * Value-level semantics shared by operators and functions: numeric checks,
 * effective boolean value, deep equality, string casting and $type.
 */
import { exprError } from './errors';
import { createSeq, Seq } from './sequence';

export type Obj = Record<string, unknown>;

export function isObject(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** jsonata's function test: JS functions, and jsonata's own lambda / native objects. */
export function isFunctionValue(v: unknown): boolean {
  if (typeof v === 'function') return true;
  if (typeof v === 'object' && v !== null) {
    const o = v as { _jsonata_function?: unknown; _jsonata_lambda?: unknown };
    return o._jsonata_function === true || o._jsonata_lambda === true;
  }
  return false;
}

/** True for a number that is not NaN; throws D1001 for ±Infinity (as jsonata does). */
export function isNumeric(v: unknown): v is number {
  if (typeof v !== 'number' || Number.isNaN(v)) return false;
  if (!Number.isFinite(v)) throw exprError('D1001', { value: v });
  return true;
}

export function isArrayOfNumbers(v: unknown): boolean {
  if (!Array.isArray(v)) return false;
  let ok = true;
  for (let i = 0; i < v.length; i++) if (!isNumeric(v[i])) ok = false; // every item is checked (D1001)
  return ok;
}

export function hasOwn(o: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(o, key);
}

/** Effective boolean value ($boolean); undefined stays undefined. */
export function toBoolean(arg: unknown): boolean | undefined {
  if (arg === undefined) return undefined;
  if (Array.isArray(arg)) {
    if (arg.length === 1) return toBoolean(arg[0]);
    if (arg.length > 1) {
      let any = false;
      for (let i = 0; i < arg.length; i++) if (toBoolean(arg[i])) any = true;
      return any;
    }
    return false;
  }
  if (typeof arg === 'string') return arg.length > 0;
  if (isNumeric(arg)) return arg !== 0;
  if (arg !== null && typeof arg === 'object' && !isFunctionValue(arg)) return Object.keys(arg).length > 0;
  return arg === true;
}

/** Boolean used by `and`/`or`: undefined counts as false. */
export function boolize(v: unknown): boolean {
  return toBoolean(v) === true;
}

export function deepEqual(lhs: unknown, rhs: unknown): boolean {
  if (lhs === rhs) return true;
  if (typeof lhs === 'object' && typeof rhs === 'object' && lhs !== null && rhs !== null) {
    if (Array.isArray(lhs) && Array.isArray(rhs)) {
      if (lhs.length !== rhs.length) return false;
      for (let i = 0; i < lhs.length; i++) if (!deepEqual(lhs[i], rhs[i])) return false;
      return true;
    }
    const lkeys = Object.getOwnPropertyNames(lhs).sort();
    const rkeys = Object.getOwnPropertyNames(rhs).sort();
    if (lkeys.length !== rkeys.length) return false;
    for (let i = 0; i < lkeys.length; i++) if (lkeys[i] !== rkeys[i]) return false;
    const l = lhs as Obj;
    const r = rhs as Obj;
    for (const k of lkeys) if (!deepEqual(l[k], r[k])) return false;
    return true;
  }
  return false;
}

function jsonReplacer(_key: string, val: unknown): unknown {
  if (val !== undefined && val !== null && isNumeric(val)) {
    return Number.isInteger(val) ? val : Number(val.toPrecision(15));
  }
  return val && isFunctionValue(val) ? '' : val;
}

/** $string / the `&` operator's cast. */
export function castString(arg: unknown, prettify = false): string | undefined {
  if (arg === undefined) return undefined;
  if (typeof arg === 'string') return arg;
  if (isFunctionValue(arg)) return '';
  if (typeof arg === 'number' && !Number.isFinite(arg)) throw exprError('D3001', { value: arg });
  let v = arg;
  if (Array.isArray(v) && (v as Seq).outerWrapper) v = v[0];
  return JSON.stringify(v, jsonReplacer, prettify ? 2 : 0) as string;
}

export function typeName(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (value === null) return 'null';
  if (isNumeric(value)) return 'number';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'boolean';
  if (Array.isArray(value)) return 'array';
  if (isFunctionValue(value)) return 'function';
  return 'object';
}

/** Characters by code point (jsonata counts astral characters as one). */
export function stringToArray(str: string): string[] {
  const out: string[] = [];
  for (const ch of str) out.push(ch);
  return out;
}

/** Property lookup with jsonata's mapping over arrays ($lookup and path names). */
export function lookupKey(input: unknown, key: string): unknown {
  if (Array.isArray(input)) {
    const result: Seq = [];
    result.sequence = true;
    for (let i = 0; i < input.length; i++) {
      const res = lookupKey(input[i], key);
      if (res !== undefined) {
        if (Array.isArray(res)) {
          for (let j = 0; j < res.length; j++) result.push(res[j]);
        } else {
          result.push(res);
        }
      }
    }
    return result;
  }
  if (input !== null && typeof input === 'object' && hasOwn(input, key) && !isFunctionValue(input)) {
    return (input as Obj)[key];
  }
  return undefined;
}

/** $append, also used to gather the items of an object-constructor group. */
export function append(a1: unknown, a2: unknown): unknown {
  if (a1 === undefined) return a2;
  if (a2 === undefined) return a1;
  let first: unknown[];
  if (Array.isArray(a1)) {
    first = a1;
  } else {
    first = createSeq();
    first.push(a1);
  }
  return first.concat(Array.isArray(a2) ? a2 : [a2]);
}
