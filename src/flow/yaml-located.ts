import { Document, LineCounter, Node as YamlNode, isAlias, isMap, isScalar, isSeq, parseDocument } from 'yaml';
import { setProp } from './diagnostics';

export type PathSegment = string | number;
export type Path = ReadonlyArray<PathSegment>;

/** Lines (1-based, in the file) of every map key and list item of a parsed YAML text. */
export class LineIndex {
  private readonly lines = new Map<string, number>();
  constructor(readonly firstLine: number) {}

  static key(path: Path): string {
    return path.map(String).join('\u0000');
  }

  set(path: Path, line: number): void {
    const k = LineIndex.key(path);
    if (!this.lines.has(k)) this.lines.set(k, line);
  }

  /** The line of the path, or of its nearest ancestor that has one. */
  at(path: Path): number {
    for (let n = path.length; n >= 0; n--) {
      const line = this.lines.get(LineIndex.key(path.slice(0, n)));
      if (line !== undefined) return line;
    }
    return this.firstLine;
  }
}

export interface YamlError {
  line: number;
  message: string;
}

export interface ParsedYaml {
  value: unknown;
  lines: LineIndex;
  errors: YamlError[];
}

const MAX_NODES = 200_000;

/**
 * Parses YAML text whose first line is `firstLine` of the file into plain JSON-like values
 * (YAML 1.2 core schema) and an index of lines. Errors carry file lines.
 */
export function parseYamlAt(text: string, firstLine: number): ParsedYaml {
  const lc = new LineCounter();
  const lines = new LineIndex(firstLine);
  const errors: YamlError[] = [];
  const lineOf = (offset: number): number => lc.linePos(offset).line + firstLine - 1;
  let doc: Document.Parsed;
  try {
    doc = parseDocument(text, { lineCounter: lc, prettyErrors: false, uniqueKeys: true, strict: true, version: '1.2' });
  } catch (e) {
    return { value: undefined, lines, errors: [{ line: firstLine, message: `YAML error: ${e instanceof Error ? e.message : String(e)}` }] };
  }
  for (const e of [...doc.errors, ...doc.warnings]) {
    errors.push({ line: lineOf(e.pos[0]), message: `YAML syntax error: ${cleanYamlMessage(e.message)}` });
  }
  if (errors.length > 0) return { value: undefined, lines, errors };

  let budget = MAX_NODES;
  const walk = (node: unknown, path: PathSegment[], depth: number): unknown => {
    if (--budget < 0 || depth > 64) throw new WalkLimit();
    if (node === null || node === undefined) return null;
    if (isAlias(node)) {
      const target = node.resolve(doc);
      return target === undefined ? null : walk(target, path, depth + 1);
    }
    if (isScalar(node)) {
      const v: unknown = node.value;
      if (v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
      return String(v);
    }
    if (isMap(node)) {
      const out: Record<string, unknown> = {};
      for (const pair of node.items) {
        const keyNode: unknown = pair.key;
        let key: string;
        if (keyNode === null || keyNode === undefined) key = '';
        else if (isScalar(keyNode)) key = keyNode.value === null ? '' : String(keyNode.value);
        else {
          const at = rangeStart(keyNode);
          errors.push({ line: at === undefined ? lines.at(path) : lineOf(at), message: 'YAML: a map key must be a plain value, not a list or map' });
          continue;
        }
        const at = rangeStart(keyNode) ?? rangeStart(pair.value);
        lines.set([...path, key], at === undefined ? lines.at(path) : lineOf(at));
        setProp(out, key, walk(pair.value, [...path, key], depth + 1));
      }
      return out;
    }
    if (isSeq(node)) {
      return node.items.map((item, i) => {
        const at = rangeStart(item);
        lines.set([...path, i], at === undefined ? lines.at(path) : lineOf(at));
        return walk(item, [...path, i], depth + 1);
      });
    }
    return null;
  };
  try {
    const value = walk(doc.contents, [], 0);
    if (isYamlNode(doc.contents)) {
      const at = rangeStart(doc.contents);
      if (at !== undefined) lines.set([], lineOf(at));
    }
    return { value, lines, errors };
  } catch (e) {
    if (e instanceof WalkLimit) {
      return { value: undefined, lines, errors: [{ line: firstLine, message: 'YAML is too large or too deeply nested (aliases expand to too many values)' }] };
    }
    throw e;
  }
}

class WalkLimit extends Error {}

function isYamlNode(u: unknown): u is YamlNode {
  return typeof u === 'object' && u !== null && 'range' in u;
}

function rangeStart(node: unknown): number | undefined {
  if (!isYamlNode(node)) return undefined;
  const r = node.range;
  return Array.isArray(r) && typeof r[0] === 'number' ? r[0] : undefined;
}

/** "Map keys must be unique at line 6, column 1:\n..." -> "Map keys must be unique" */
function cleanYamlMessage(message: string): string {
  const first = message.split('\n')[0] ?? message;
  return first.replace(/ at line \d+, column \d+:?\s*$/, '').trim();
}
