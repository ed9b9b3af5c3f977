/**
 * Safe XML reading for the SOAP door: a namespace-resolved element tree from fast-xml-parser's
 * ordered output. No DTD is ever processed (a DOCTYPE is refused before parsing), only the
 * predefined and numeric character references are decoded, and nesting is capped, so entity
 * expansion ("billion laughs"), external entities and stack exhaustion are not reachable.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { decodeReferences } from './xml-escape';

/** Deepest element nesting accepted in a request envelope. */
export const MAX_XML_DEPTH = 64;

export interface XmlElement {
  /** The qualified name as written (`soap:Body`). */
  qname: string;
  local: string;
  /** Resolved namespace URI; '' when the element is in no namespace. */
  ns: string;
  /** Attributes by qualified name, values decoded; namespace declarations excluded. */
  attrs: Map<string, { local: string; ns: string; value: string }>;
  children: XmlChild[];
}
export type XmlChild = XmlElement | { text: string };

export type Read<T> = { ok: true; value: T } | { ok: false; message: string };

type OrderedEntry = Record<string, unknown>;

const TEXT = '#text';
const CDATA = '#cdata';
const ATTRS = ':@';

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  processEntities: false,
  htmlEntities: false,
  cdataPropName: CDATA,
  commentPropName: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  maxNestedTags: MAX_XML_DEPTH,
});

/** Parses a document and returns its root element. */
export function readXml(xml: string): Read<XmlElement> {
  const text = xml.startsWith('\uFEFF') ? xml.slice(1) : xml;
  if (text.trim() === '') return { ok: false, message: 'the request body is empty; expected a SOAP envelope' };
  if (/<!DOCTYPE/i.test(text)) {
    return { ok: false, message: 'a DOCTYPE is not allowed in a SOAP message (no DTD or entity declarations are processed)' };
  }
  const valid = XMLValidator.validate(text);
  if (valid !== true) {
    return { ok: false, message: `malformed XML: ${valid.err.msg} (line ${valid.err.line}, column ${valid.err.col})` };
  }
  let entries: unknown;
  try {
    entries = parser.parse(text);
  } catch (e) {
    const reason = e instanceof Error ? e.message : String(e);
    if (/nested tags/i.test(reason)) return { ok: false, message: `XML nesting is deeper than ${MAX_XML_DEPTH} elements` };
    return { ok: false, message: `malformed XML: ${reason}` };
  }
  if (!Array.isArray(entries)) return { ok: false, message: 'malformed XML: no root element' };
  const roots = entries.filter((e): e is OrderedEntry => isEntry(e) && tagOf(e) !== undefined && tagOf(e) !== TEXT && tagOf(e) !== CDATA);
  if (roots.length !== 1) return { ok: false, message: 'malformed XML: expected exactly one root element' };
  return build(roots[0] as OrderedEntry, new Map([['xml', 'http://www.w3.org/XML/1998/namespace']]), 1);
}

function build(entry: OrderedEntry, parentScope: Map<string, string>, depth: number): Read<XmlElement> {
  if (depth > MAX_XML_DEPTH) return { ok: false, message: `XML nesting is deeper than ${MAX_XML_DEPTH} elements` };
  const qname = tagOf(entry) as string;
  const rawAttrs = entry[ATTRS];
  const scope = new Map(parentScope);
  const plain: Array<[string, string]> = [];
  if (isEntry(rawAttrs)) {
    for (const key of Object.keys(rawAttrs)) {
      const raw = rawAttrs[key];
      if (typeof raw !== 'string') continue;
      const decoded = decodeReferences(raw);
      if (!decoded.ok) return { ok: false, message: `attribute ${key} of <${qname}>: ${decoded.message}` };
      if (key === 'xmlns') scope.set('', decoded.value);
      else if (key.startsWith('xmlns:')) scope.set(key.slice(6), decoded.value);
      else plain.push([key, decoded.value]);
    }
  }
  const name = resolve(qname, scope, true);
  if (!name.ok) return name;
  const attrs: XmlElement['attrs'] = new Map();
  for (const [key, value] of plain) {
    const an = resolve(key, scope, false);
    if (!an.ok) return an;
    attrs.set(key, { local: an.value.local, ns: an.value.ns, value });
  }
  const children: XmlChild[] = [];
  const kids = entry[qname];
  if (Array.isArray(kids)) {
    for (const kid of kids) {
      if (!isEntry(kid)) continue;
      const tag = tagOf(kid);
      if (tag === undefined) continue;
      if (tag === TEXT) {
        const decoded = decodeReferences(String(kid[TEXT]));
        if (!decoded.ok) return { ok: false, message: `in <${qname}>: ${decoded.message}` };
        children.push({ text: decoded.value });
      } else if (tag === CDATA) {
        children.push({ text: cdataText(kid[CDATA]) });
      } else {
        const child = build(kid, scope, depth + 1);
        if (!child.ok) return child;
        children.push(child.value);
      }
    }
  }
  return { ok: true, value: { qname, local: name.value.local, ns: name.value.ns, attrs, children } };
}

function resolve(qname: string, scope: Map<string, string>, isElement: boolean): Read<{ local: string; ns: string }> {
  const colon = qname.indexOf(':');
  if (colon < 0) return { ok: true, value: { local: qname, ns: isElement ? scope.get('') ?? '' : '' } };
  const prefix = qname.slice(0, colon);
  const ns = scope.get(prefix);
  if (ns === undefined) return { ok: false, message: `malformed XML: namespace prefix '${prefix}' of ${qname} is not declared` };
  return { ok: true, value: { local: qname.slice(colon + 1), ns } };
}

function cdataText(value: unknown): string {
  if (!Array.isArray(value)) return '';
  return value.map((v) => (isEntry(v) && typeof v[TEXT] === 'string' ? v[TEXT] : '')).join('');
}

function tagOf(entry: OrderedEntry): string | undefined {
  return Object.keys(entry).find((k) => k !== ATTRS);
}

function isEntry(v: unknown): v is OrderedEntry {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function isElement(child: XmlChild): child is XmlElement {
  return 'qname' in child;
}

/** Child elements; a non-blank text child is reported (element-only content expected). */
export function elementChildren(el: XmlElement, where: string): Read<XmlElement[]> {
  const out: XmlElement[] = [];
  for (const c of el.children) {
    if (isElement(c)) out.push(c);
    else if (c.text.trim() !== '') return { ok: false, message: `${where}: unexpected text ${JSON.stringify(clip(c.text.trim()))}; this element holds elements only` };
  }
  return { ok: true, value: out };
}

/** The text content of a simple element; child elements are reported. */
export function textContent(el: XmlElement, where: string): Read<string> {
  let text = '';
  for (const c of el.children) {
    if (isElement(c)) return { ok: false, message: `${where}: expected text, found child element <${c.qname}>` };
    text += c.text;
  }
  return { ok: true, value: text };
}

export function clip(s: string): string {
  return s.length > 40 ? `${s.slice(0, 40)}…` : s;
}
