/**
 * Templates (FLOW-LANGUAGE.md section 3): a string is a template when it holds `${...}`.
 * `$${` is a literal `${`. An expression ends at the `}` that balances its `${`; braces of
 * JSONata object constructors and lambda bodies, braces inside quoted strings and backtick
 * names, and comments do not end it.
 */
export type TemplatePart = { kind: 'text'; text: string } | { kind: 'expr'; source: string; offset: number };

export type TemplateParse =
  | { ok: true; parts: TemplatePart[]; shape: 'literal' | 'single' | 'interpolation' }
  | { ok: false; offset: number; message: string };

export function parseTemplate(s: string): TemplateParse {
  const parts: TemplatePart[] = [];
  let text = '';
  let i = 0;
  while (i < s.length) {
    if (s.startsWith('$${', i)) {
      text += '${';
      i += 3;
      continue;
    }
    if (s.startsWith('${', i)) {
      const start = i + 2;
      const end = findExpressionEnd(s, start);
      if (end < 0) {
        return { ok: false, offset: i, message: `the '\${' at column ${i + 1} is never closed by a matching '}'` };
      }
      const source = s.slice(start, end);
      if (source.trim() === '') {
        return { ok: false, offset: i, message: `empty expression '\${}' at column ${i + 1}` };
      }
      if (text !== '') parts.push({ kind: 'text', text });
      text = '';
      parts.push({ kind: 'expr', source, offset: start });
      i = end + 1;
      continue;
    }
    text += s[i];
    i++;
  }
  if (text !== '') parts.push({ kind: 'text', text });
  const exprs = parts.filter((p) => p.kind === 'expr').length;
  const shape = exprs === 0 ? 'literal' : exprs === 1 && parts.length === 1 ? 'single' : 'interpolation';
  return { ok: true, parts, shape };
}

/** True when the string holds at least one (unescaped) `${`. */
export function isTemplate(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    if (s.startsWith('$${', i)) {
      i += 2;
      continue;
    }
    if (s.startsWith('${', i)) return true;
  }
  return false;
}

/** Index of the `}` closing an expression that starts at `start`, or -1. */
export function findExpressionEnd(s: string, start: number): number {
  let depth = 1;
  let i = start;
  while (i < s.length) {
    const c = s[i];
    if (c === '"' || c === "'" || c === '`') {
      i = skipQuoted(s, i);
      if (i < 0) return -1;
      continue;
    }
    if (c === '/' && s[i + 1] === '*') {
      const close = s.indexOf('*/', i + 2);
      if (close < 0) return -1;
      i = close + 2;
      continue;
    }
    if (c === '{') depth++;
    else if (c === '}') {
      depth--;
      if (depth === 0) return i;
    }
    i++;
  }
  return -1;
}

/** Index just after the closing quote of the string starting at `i`, or -1. */
export function skipQuoted(s: string, i: number): number {
  const q = s[i];
  let j = i + 1;
  while (j < s.length) {
    const c = s[j];
    if (c === '\\' && q !== '`') {
      j += 2;
      continue;
    }
    if (c === q) return j + 1;
    j++;
  }
  return -1;
}
