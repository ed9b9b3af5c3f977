/**
 * Finds `steps.X`, `config.K` and `secrets.K` references in a JSONata expression by a scan
 * of its source: names at the root of a path (not after a `.` unless after `$` / `$$`),
 * outside strings and comments. Backtick names (`` steps.`x` ``) are understood.
 */
import { skipQuoted } from './template';

export type RefKind = 'steps' | 'config' | 'secrets';

export interface Reference {
  kind: RefKind;
  name: string;
  /** Offset of the name (after `kind.`) in the expression source; `nameEnd` is exclusive. */
  offset: number;
  nameEnd: number;
  quoted: boolean;
}

const ROOTS: ReadonlySet<string> = new Set(['steps', 'config', 'secrets']);
const NAME_CHAR = /[A-Za-z0-9_]/;

interface Token {
  kind: 'name' | 'var' | 'punct' | 'string';
  text: string;
  start: number;
  end: number;
  quoted: boolean;
}

function tokenize(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i] ?? '';
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === '/' && src[i + 1] === '*') {
      const close = src.indexOf('*/', i + 2);
      i = close < 0 ? src.length : close + 2;
      continue;
    }
    if (c === '"' || c === "'") {
      const end = skipQuoted(src, i);
      const stop = end < 0 ? src.length : end;
      out.push({ kind: 'string', text: src.slice(i, stop), start: i, end: stop, quoted: false });
      i = stop;
      continue;
    }
    if (c === '`') {
      const end = skipQuoted(src, i);
      const stop = end < 0 ? src.length : end;
      out.push({ kind: 'name', text: src.slice(i + 1, Math.max(i + 1, stop - 1)), start: i + 1, end: Math.max(i + 1, stop - 1), quoted: true });
      i = stop;
      continue;
    }
    if (c === '$') {
      let j = i + 1;
      if (src[j] === '$') j++;
      while (j < src.length && NAME_CHAR.test(src[j] ?? '')) j++;
      out.push({ kind: 'var', text: src.slice(i, j), start: i, end: j, quoted: false });
      i = j;
      continue;
    }
    if (NAME_CHAR.test(c)) {
      let j = i;
      while (j < src.length && NAME_CHAR.test(src[j] ?? '')) j++;
      out.push({ kind: 'name', text: src.slice(i, j), start: i, end: j, quoted: false });
      i = j;
      continue;
    }
    out.push({ kind: 'punct', text: c, start: i, end: i + 1, quoted: false });
    i++;
  }
  return out;
}

export function findReferences(src: string): Reference[] {
  const toks = tokenize(src);
  const refs: Reference[] = [];
  for (let k = 0; k < toks.length; k++) {
    const tok = toks[k];
    if (tok === undefined || tok.kind !== 'name' || !ROOTS.has(tok.text)) continue;
    const prev = toks[k - 1];
    if (prev !== undefined && prev.kind === 'punct' && prev.text === '.') {
      // Only `$.steps` / `$$.steps` are still the root.
      const before = toks[k - 2];
      if (before === undefined || before.kind !== 'var' || (before.text !== '$' && before.text !== '$$')) continue;
    }
    if (prev !== undefined && prev.kind === 'name' && prev.end === tok.start) continue;
    const dot = toks[k + 1];
    const name = toks[k + 2];
    if (dot === undefined || dot.kind !== 'punct' || dot.text !== '.') continue;
    if (name === undefined || name.kind !== 'name') continue;
    refs.push({ kind: tok.text as RefKind, name: name.text, offset: name.start, nameEnd: name.end, quoted: name.quoted });
  }
  return refs;
}

/** Rewrites `steps.X` to `steps.<prefix>X` (used when library steps are spliced in). */
export function prefixStepReferences(src: string, prefix: string): string {
  if (prefix === '') return src;
  const refs = findReferences(src).filter((r) => r.kind === 'steps');
  let out = '';
  let last = 0;
  for (const r of refs) {
    out += src.slice(last, r.offset) + prefix;
    last = r.offset;
  }
  return out + src.slice(last);
}
