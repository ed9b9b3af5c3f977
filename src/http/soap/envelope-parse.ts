/**
 * SOAP request envelope -> the JSON body the flow expects. Conversion only: element text
 * becomes numbers, booleans, arrays and objects as the input schema says, and text that cannot
 * be converted is refused. Constraints (required, enum, ranges, lengths, patterns) stay with the
 * flow's own input validation, so SOAP and JSON callers get the same checks and messages.
 */
import { NS, REQUEST_ELEMENT, targetNamespace, type SoapFlow, type SoapVersion } from './names';
import { ITEM_ELEMENT, messageShape, type ArrayShape, type Field, type ScalarShape, type Shape } from './schema-shape';
import { clip, elementChildren, readXml, textContent, type Read, type XmlElement } from './xml-tree';

export type SoapParseResult = { ok: true; body: unknown; version: SoapVersion } | { ok: false; message: string };

export function parseSoapRequest(xml: string, flow: SoapFlow): SoapParseResult {
  const root = readXml(xml);
  if (!root.ok) return root;
  const envelope = root.value;
  const version = envelopeVersion(envelope);
  if (version === null) {
    return {
      ok: false,
      message: `the root element must be a SOAP Envelope (${NS.soap11} or ${NS.soap12}); found <${envelope.qname}>${envelope.ns === '' ? ' in no namespace' : ` in namespace ${envelope.ns}`}`,
    };
  }
  const envNs = envelope.ns;
  const parts = elementChildren(envelope, 'Envelope');
  if (!parts.ok) return parts;
  let body: XmlElement | undefined;
  for (const part of parts.value) {
    if (part.ns === envNs && part.local === 'Header' && body === undefined) {
      const refused = checkHeader(part, envNs, version);
      if (refused !== null) return { ok: false, message: refused };
    } else if (part.ns === envNs && part.local === 'Body' && body === undefined) {
      body = part;
    } else {
      return { ok: false, message: `unexpected <${part.qname}> in the Envelope; a SOAP Envelope holds an optional Header, then one Body` };
    }
  }
  const tns = targetNamespace(flow);
  if (body === undefined) return { ok: false, message: `the SOAP Envelope has no Body; expected Body/${REQUEST_ELEMENT} in namespace ${tns}` };
  const ops = elementChildren(body, 'Body');
  if (!ops.ok) return ops;
  if (ops.value.length === 0) return { ok: false, message: `the SOAP Body is empty; expected a <${REQUEST_ELEMENT}> element in namespace ${tns}` };
  if (ops.value.length > 1) return { ok: false, message: `the SOAP Body holds ${ops.value.length} elements; expected exactly one <${REQUEST_ELEMENT}>` };
  const op = ops.value[0] as XmlElement;
  if (op.local !== REQUEST_ELEMENT) {
    return { ok: false, message: `unknown operation <${op.qname}>: this flow has one operation, ${REQUEST_ELEMENT} (element ${REQUEST_ELEMENT} in namespace ${tns})` };
  }
  if (op.ns !== tns && op.ns !== '') {
    return { ok: false, message: `<${op.qname}> is in namespace ${op.ns}; this flow's namespace is ${tns}` };
  }
  const message = messageShape(flow.input);
  const fields = readFields(op, message.fields, REQUEST_ELEMENT);
  if (!fields.ok) return fields;
  if (!message.wrapped) return { ok: true, body: fields.value, version };
  const value = (fields.value as Record<string, unknown>)[message.fields[0]?.name ?? ''];
  if (value !== undefined) return { ok: true, body: value, version };
  // No <value>: like an empty JSON body ({}) for a flow without an input schema; otherwise null,
  // which the flow's input validation then reports against its schema.
  return { ok: true, body: flow.input === null ? {} : null, version };
}

function envelopeVersion(el: XmlElement): SoapVersion | null {
  if (el.local !== 'Envelope') return null;
  if (el.ns === NS.soap11) return '1.1';
  if (el.ns === NS.soap12) return '1.2';
  return null;
}

/** No header is understood; one marked mustUnderstand must therefore be refused. */
function checkHeader(header: XmlElement, envNs: string, version: SoapVersion): string | null {
  for (const entry of header.children) {
    if (!('qname' in entry)) continue;
    for (const attr of entry.attrs.values()) {
      if (attr.ns === envNs && attr.local === 'mustUnderstand') {
        const v = attr.value.trim();
        if (v === '1' || (version === '1.2' && v === 'true')) {
          return `SOAP header <${entry.qname}> is marked mustUnderstand, but this endpoint processes no SOAP headers (authenticate with the HTTP Authorization header)`;
        }
      }
    }
  }
  return null;
}

function readFields(el: XmlElement, fields: Field[], path: string): Read<Record<string, unknown>> {
  const kids = elementChildren(el, path);
  if (!kids.ok) return kids;
  const byName = new Map<string, XmlElement[]>();
  const known = new Map(fields.map((f) => [f.xml, f]));
  for (const kid of kids.value) {
    if (!known.has(kid.local)) {
      const expected = fields.length === 0 ? 'no child elements' : `one of ${fields.map((f) => f.xml).join(', ')}`;
      return { ok: false, message: `${path}: unexpected element <${kid.qname}>; expected ${expected}` };
    }
    const list = byName.get(kid.local);
    if (list === undefined) byName.set(kid.local, [kid]);
    else list.push(kid);
  }
  const out: Record<string, unknown> = {};
  for (const field of fields) {
    const found = byName.get(field.xml) ?? [];
    const at = `${path}/${field.xml}`;
    if (field.shape.kind === 'array') {
      if (found.length === 0 && !field.required) continue;
      const items = readItems(found, field.shape, at);
      if (!items.ok) return items;
      setOwn(out, field.name, items.value);
      continue;
    }
    if (found.length === 0) continue;
    if (found.length > 1) return { ok: false, message: `${at}: appears ${found.length} times, but it is not an array` };
    const value = readValue(found[0] as XmlElement, field.shape, at);
    if (!value.ok) return value;
    setOwn(out, field.name, value.value);
  }
  return { ok: true, value: out };
}

function readItems(elements: XmlElement[], shape: ArrayShape, path: string): Read<unknown[]> {
  const items: unknown[] = [];
  for (let i = 0; i < elements.length; i += 1) {
    const item = readValue(elements[i] as XmlElement, shape.items, `${path}[${i}]`);
    if (!item.ok) return item;
    items.push(item.value);
  }
  return { ok: true, value: items };
}

function readValue(el: XmlElement, shape: Shape, path: string): Read<unknown> {
  if (isNil(el)) return { ok: true, value: null };
  switch (shape.kind) {
    case 'object':
      return readFields(el, shape.fields, path);
    case 'array': {
      const kids = elementChildren(el, path);
      if (!kids.ok) return kids;
      const stray = kids.value.find((k) => k.local !== ITEM_ELEMENT);
      if (stray !== undefined) return { ok: false, message: `${path}: unexpected element <${stray.qname}>; the items of a nested array are <${ITEM_ELEMENT}> elements` };
      return readItems(kids.value, shape, `${path}/${ITEM_ELEMENT}`);
    }
    case 'scalar': {
      const text = textContent(el, path);
      if (!text.ok) return text;
      return readScalar(text.value, shape, path);
    }
    case 'json': {
      const text = textContent(el, path);
      if (!text.ok) return text;
      try {
        return { ok: true, value: JSON.parse(text.value) as unknown };
      } catch {
        return { ok: false, message: `${path}: expected JSON text (this element carries a JSON value), got ${JSON.stringify(clip(text.value))}` };
      }
    }
  }
}

const DOUBLE = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const INTEGER = /^[+-]?\d+$/;

function readScalar(raw: string, shape: ScalarShape, path: string): Read<unknown> {
  if (shape.type === 'string') return { ok: true, value: raw };
  const text = raw.trim();
  switch (shape.type) {
    case 'boolean':
      if (text === 'true' || text === '1') return { ok: true, value: true };
      if (text === 'false' || text === '0') return { ok: true, value: false };
      return { ok: false, message: `${path}: expected a boolean (true, false, 1 or 0), got ${JSON.stringify(clip(text))}` };
    case 'integer': {
      if (!INTEGER.test(text)) return { ok: false, message: `${path}: expected an integer, got ${JSON.stringify(clip(text))}` };
      const n = Number(text);
      if (!Number.isSafeInteger(n)) return { ok: false, message: `${path}: integer ${clip(text)} is outside the range a JSON number carries exactly (±${Number.MAX_SAFE_INTEGER})` };
      return { ok: true, value: n === 0 ? 0 : n };
    }
    case 'number': {
      const n = Number(text);
      if (!DOUBLE.test(text) || !Number.isFinite(n)) return { ok: false, message: `${path}: expected a finite number, got ${JSON.stringify(clip(text))}` };
      return { ok: true, value: n === 0 ? 0 : n };
    }
  }
}

function isNil(el: XmlElement): boolean {
  for (const attr of el.attrs.values()) {
    if (attr.ns === NS.xsi && attr.local === 'nil') {
      const v = attr.value.trim();
      return v === 'true' || v === '1';
    }
  }
  return false;
}

/** Assigns an own property, even for names such as `__proto__`. */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
