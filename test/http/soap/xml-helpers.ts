/** Test-side XML reading (independent of the code under test): a plain element tree. */
import { XMLParser, XMLValidator } from 'fast-xml-parser';

export interface Node {
  name: string;
  attrs: Record<string, string>;
  children: Node[];
  text: string;
}

const parser = new XMLParser({ preserveOrder: true, ignoreAttributes: false, attributeNamePrefix: '', parseTagValue: false, trimValues: true });

export function wellFormed(xml: string): void {
  const result = XMLValidator.validate(xml);
  if (result !== true) throw new Error(`not well-formed: ${result.err.msg} (line ${result.err.line})`);
}

export function parseTree(xml: string): Node {
  wellFormed(xml);
  const entries = parser.parse(xml) as unknown[];
  const roots = entries.map(toNode).filter((n): n is Node => n !== null && !n.name.startsWith('?'));
  if (roots.length !== 1 || roots[0] === undefined) throw new Error('expected one root');
  return roots[0];
}

function toNode(entry: unknown): Node | null {
  if (typeof entry !== 'object' || entry === null) return null;
  const e = entry as Record<string, unknown>;
  const name = Object.keys(e).find((k) => k !== ':@');
  if (name === undefined || name === '#text') return null;
  const kids = Array.isArray(e[name]) ? (e[name] as unknown[]) : [];
  const attrs = (e[':@'] ?? {}) as Record<string, string>;
  const text = kids
    .map((k) => (typeof k === 'object' && k !== null && '#text' in k ? String((k as Record<string, unknown>)['#text']) : ''))
    .join('');
  return { name, attrs, children: kids.map(toNode).filter((n): n is Node => n !== null), text };
}

/** Depth-first search for every element named `name` (qualified, as written). */
export function findAll(node: Node, name: string): Node[] {
  const out: Node[] = [];
  const walk = (n: Node): void => {
    if (n.name === name) out.push(n);
    n.children.forEach(walk);
  };
  walk(node);
  return out;
}

/** The child xsd:element named `name` anywhere below `node`. */
export function xsdElement(node: Node, name: string): Node {
  const found = findAll(node, 'xsd:element').find((n) => n.attrs.name === name);
  if (found === undefined) throw new Error(`no xsd:element ${name}`);
  return found;
}

export function child(node: Node, path: string[]): Node {
  let cur = node;
  for (const step of path) {
    const next = cur.children.find((c) => c.name === step);
    if (next === undefined) throw new Error(`no ${step} under ${cur.name}`);
    cur = next;
  }
  return cur;
}
