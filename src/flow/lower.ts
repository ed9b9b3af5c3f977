/**
 * Lowering: every expression becomes `{ "$expr": source, "ast": <JSONata syntax tree> }`,
 * an interpolated string becomes `{ "$tpl": [ "text", {"$expr": ...}, ... ] }`, literals
 * stay as written. JSONata syntax errors and calls of unknown functions are reported.
 */
import jsonata from 'jsonata';
import { closest, isPlainObject, shorten, show } from './diagnostics';
import type { ExprIR, JsonValue, TplIR, ValueIR } from './ir';
import { formatPath } from './codecs/kit';
import { prefixStepReferences } from './references';
import { isTemplate, parseTemplate } from './template';
import type { PathSegment } from './yaml-located';

/** The functions the engine adds to JSONata's own. */
export const EXTRA_FUNCTIONS = ['uuid', 'sha256', 'hmac_sha256', 'base64_encode', 'base64_decode', 'parse_json', 'to_json'] as const;

/** JSONata 2.x built-in functions. */
export const JSONATA_FUNCTIONS = [
  'sum', 'count', 'max', 'min', 'average', 'string', 'substring', 'substringBefore', 'substringAfter', 'lowercase',
  'uppercase', 'length', 'trim', 'pad', 'match', 'contains', 'replace', 'split', 'join', 'formatNumber', 'formatBase',
  'formatInteger', 'parseInteger', 'number', 'floor', 'ceil', 'round', 'abs', 'sqrt', 'power', 'random', 'boolean',
  'not', 'map', 'zip', 'filter', 'single', 'reduce', 'sift', 'keys', 'lookup', 'append', 'exists', 'spread', 'merge',
  'reverse', 'each', 'error', 'assert', 'type', 'sort', 'shuffle', 'distinct', 'base64encode', 'base64decode',
  'encodeUrlComponent', 'encodeUrl', 'decodeUrlComponent', 'decodeUrl', 'eval', 'toMillis', 'fromMillis', 'clone',
  'now', 'millis',
] as const;

const KNOWN_FUNCTIONS: ReadonlySet<string> = new Set<string>([...JSONATA_FUNCTIONS, ...EXTRA_FUNCTIONS]);
const RESERVED_KEYS = ['$expr', '$tpl'];
const MAX_AST_DEPTH = 200;

export interface LowerContext {
  /** Prefix for `steps.X` references (steps spliced from a library). */
  refPrefix: string;
  report: (path: PathSegment[], message: string) => void;
}

/** Lowers a value read as a template (`tpl`) or as an expression (`expr`). undefined: errors were reported. */
export function lowerValue(value: unknown, kind: 'tpl' | 'expr', path: PathSegment[], ctx: LowerContext): ValueIR | undefined {
  let ok = true;
  const visit = (v: unknown, p: PathSegment[], top: boolean): ValueIR => {
    if (typeof v === 'string') {
      if (kind === 'expr' && top && !isTemplate(v)) {
        const e = lowerExpression(v, p, ctx);
        if (e === undefined) ok = false;
        return e ?? null;
      }
      const t = parseTemplate(v);
      if (!t.ok) {
        // Reported by the name checks, which always run before lowering.
        ok = false;
        return null;
      }
      if (t.shape === 'literal') return t.parts.map((x) => (x.kind === 'text' ? x.text : '')).join('');
      const lowered: Array<string | ExprIR> = [];
      for (const part of t.parts) {
        if (part.kind === 'text') lowered.push(part.text);
        else {
          const e = lowerExpression(part.source, p, ctx);
          if (e === undefined) ok = false;
          else lowered.push(e);
        }
      }
      if (t.shape === 'single') {
        const only = lowered[0];
        return only === undefined || typeof only === 'string' ? null : only;
      }
      const tpl: TplIR = { $tpl: lowered };
      return tpl;
    }
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) {
        ctx.report(p, `'${formatPath(p)}' must be a finite number, got ${String(v)}`);
        ok = false;
        return null;
      }
      return v;
    }
    if (typeof v === 'boolean' || v === null || v === undefined) return v ?? null;
    if (kind === 'expr' && top) {
      ctx.report(p, `'${formatPath(p)}' must be an expression, got ${show(v)}`);
      ok = false;
      return null;
    }
    if (Array.isArray(v)) return v.map((x, i) => visit(x, [...p, i], false));
    if (isPlainObject(v)) {
      const out: { [key: string]: ValueIR } = {};
      for (const [k, x] of Object.entries(v)) {
        if (RESERVED_KEYS.includes(k)) {
          ctx.report([...p, k], `'${formatPath([...p, k])}': the key '${k}' is reserved for compiled expressions`);
          ok = false;
          continue;
        }
        Object.defineProperty(out, k, { value: visit(x, [...p, k], false), enumerable: true, writable: true, configurable: true });
      }
      return out;
    }
    return String(v);
  };
  const result = visit(value, path, true);
  return ok ? result : undefined;
}

/** Parses one JSONata expression. undefined: an error was reported. */
export function lowerExpression(rawSource: string, path: PathSegment[], ctx: LowerContext): ExprIR | undefined {
  const source = prefixStepReferences(rawSource.trim(), ctx.refPrefix);
  const where = `'${formatPath(path)}'`;
  let ast: JsonValue;
  try {
    ast = toJson(jsonata(source).ast(), 0);
  } catch (e) {
    const { message, position } = jsonataError(e);
    const at = position !== undefined ? ` at character ${position}` : '';
    ctx.report(path, `${where}: invalid expression \${${shorten(source, 60)}}: ${message}${at}`);
    return undefined;
  }
  const unknown = unknownFunctions(ast);
  if (unknown.length > 0) {
    for (const name of unknown) {
      const c = closest(name, KNOWN_FUNCTIONS);
      ctx.report(
        path,
        `${where}: unknown function '$${name}' in \${${shorten(source, 60)}}${c !== undefined ? ` (did you mean '$${c}'?)` : ''}`,
      );
    }
    return undefined;
  }
  return { $expr: source, ast };
}

function jsonataError(e: unknown): { message: string; position: number | undefined } {
  if (typeof e === 'object' && e !== null) {
    const m: unknown = (e as { message?: unknown }).message;
    const p: unknown = (e as { position?: unknown }).position;
    return { message: typeof m === 'string' ? m : 'syntax error', position: typeof p === 'number' ? p : undefined };
  }
  return { message: String(e), position: undefined };
}

/** A plain JSON copy of a JSONata syntax tree (regex literals become {pattern, flags}). */
export function toJson(u: unknown, depth: number): JsonValue {
  if (depth > MAX_AST_DEPTH) throw new Error('expression is nested too deeply');
  if (u === null || u === undefined) return null;
  if (typeof u === 'string' || typeof u === 'boolean') return u;
  if (typeof u === 'number') return Number.isFinite(u) ? u : null;
  if (u instanceof RegExp) return { pattern: u.source, flags: u.flags };
  if (Array.isArray(u)) return u.map((x) => toJson(x, depth + 1));
  if (typeof u === 'object') {
    const out: { [key: string]: JsonValue } = {};
    for (const [k, v] of Object.entries(u)) {
      if (v === undefined || typeof v === 'function') continue;
      Object.defineProperty(out, k, { value: toJson(v, depth + 1), enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
  return null;
}

function isNode(u: JsonValue): u is { [key: string]: JsonValue } {
  return typeof u === 'object' && u !== null && !Array.isArray(u);
}

/** Names of called functions that are neither built in nor bound in the expression. */
function unknownFunctions(ast: JsonValue): string[] {
  const called: string[] = [];
  const bound = new Set<string>();
  const visit = (n: JsonValue): void => {
    if (Array.isArray(n)) {
      n.forEach(visit);
      return;
    }
    if (!isNode(n)) return;
    const type = n['type'];
    const proc = n['procedure'];
    if ((type === 'function' || type === 'partial') && proc !== undefined && isNode(proc) && proc['type'] === 'variable' && typeof proc['value'] === 'string') {
      called.push(proc['value']);
    }
    if (type === 'bind') {
      const lhs = n['lhs'];
      if (lhs !== undefined && isNode(lhs) && typeof lhs['value'] === 'string') bound.add(lhs['value']);
    }
    if (type === 'lambda') {
      const args = n['arguments'];
      if (Array.isArray(args)) for (const a of args) if (isNode(a) && typeof a['value'] === 'string') bound.add(a['value']);
    }
    for (const v of Object.values(n)) visit(v);
  };
  visit(ast);
  return [...new Set(called)].filter((name) => name !== '' && !KNOWN_FUNCTIONS.has(name) && !bound.has(name));
}
