/**
 * The string built-ins' implementations ($substring, $substringBefore/After,
 * $trim, $split, $contains, $length), counting characters by code point as jsonata does.
 */
import { Bailout, exprError } from './errors';
import { isFunctionValue, stringToArray } from './values';

const SURROGATE = /[\uD800-\uDFFF]/;

export function substring(s: string, startArg: number, length: number | undefined): string {
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

/** Characters by code point: a surrogate pair counts once, a lone surrogate once. */
export function codePointLength(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length - 1; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

export function substringBefore(s: unknown, chars: unknown): unknown {
  if (s === undefined) return undefined;
  const pos = (s as string).indexOf(chars as string);
  return pos > -1 ? (s as string).substring(0, pos) : s;
}

export function substringAfter(s: unknown, chars: unknown): unknown {
  if (s === undefined) return undefined;
  const pos = (s as string).indexOf(chars as string);
  return pos > -1 ? (s as string).substring(pos + (chars as string).length) : s;
}

export function trim(s: string): string {
  let r = s.replace(/[ \t\n\r]+/gm, ' ');
  if (r.charAt(0) === ' ') r = r.substring(1);
  if (r.charAt(r.length - 1) === ' ') r = r.substring(0, r.length - 1);
  return r;
}

export function split(s: string, separator: unknown, limit: unknown): unknown {
  if ((limit as number) < 0) throw exprError('D3020', { value: limit, index: 3 });
  if (limit === undefined || (limit as number) > 0) {
    if (typeof separator === 'string') return s.split(separator, limit as number | undefined);
    if (isFunctionValue(separator)) throw new Bailout('$split with a matcher function');
    throw new TypeError('matcher is not a function');
  }
  return [];
}

export function contains(s: unknown, token: unknown): unknown {
  if (s === undefined || token === undefined) return undefined;
  if (typeof token === 'string') return (s as string).indexOf(token) !== -1;
  if (isFunctionValue(token)) throw new Bailout('$contains with a matcher function');
  throw new TypeError('matcher is not a function');
}
