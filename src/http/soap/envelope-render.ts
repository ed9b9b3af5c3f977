/**
 * The success envelope: `RunResponse` in the flow's namespace, its children shaped by the output
 * schema exactly as the WSDL declares them. A result that does not match the output schema is
 * rendered best effort (values as text) rather than refused; properties the schema does not
 * declare are left out, because the WSDL cannot describe them to the client.
 */
import { NS, RESPONSE_ELEMENT, targetNamespace, type SoapFlow, type SoapVersion } from './names';
import { ITEM_ELEMENT, isRecord, messageShape, type Field, type Shape } from './schema-shape';
import { lexical } from './xsd-types';
import { escapeAttr, escapeText } from './xml-escape';

export function renderSoapResponse(result: unknown, flow: SoapFlow, version: SoapVersion = '1.1'): string {
  const message = messageShape(flow.output);
  const source: unknown = message.wrapped ? { [message.fields[0]?.name ?? 'value']: result } : result;
  const content = isRecord(source) ? renderFields(source, message.fields) : '';
  const envNs = version === '1.2' ? NS.soap12 : NS.soap11;
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<soap:Envelope xmlns:soap="${envNs}" xmlns:xsi="${NS.xsi}">` +
    `<soap:Body><${RESPONSE_ELEMENT} xmlns="${escapeAttr(targetNamespace(flow))}">${content}</${RESPONSE_ELEMENT}></soap:Body>` +
    `</soap:Envelope>\n`
  );
}

function renderFields(value: Record<string, unknown>, fields: Field[]): string {
  let out = '';
  for (const field of fields) {
    if (!Object.prototype.hasOwnProperty.call(value, field.name)) continue;
    const v = value[field.name];
    if (v === undefined) continue;
    if (field.shape.kind === 'array') {
      // A null array has no faithful repeated-element form: it is left out, like an absent one.
      if (v === null) continue;
      const items = Array.isArray(v) ? v : [v];
      for (const item of items) out += renderElement(field.xml, field.shape.items, item);
      continue;
    }
    out += renderElement(field.xml, field.shape, v);
  }
  return out;
}

function renderElement(name: string, shape: Shape, value: unknown): string {
  if (value === null || value === undefined) return `<${name} xsi:nil="true"/>`;
  let inner: string;
  switch (shape.kind) {
    case 'object':
      inner = isRecord(value) ? renderFields(value, shape.fields) : escapeText(asText(value));
      break;
    case 'array':
      inner = Array.isArray(value) ? value.map((item) => renderElement(ITEM_ELEMENT, shape.items, item)).join('') : escapeText(asText(value));
      break;
    case 'scalar':
      inner = escapeText(typeof value === 'number' || typeof value === 'boolean' ? lexical(value, shape.type) : asText(value));
      break;
    case 'json':
      inner = escapeText(JSON.stringify(value) ?? 'null');
      break;
  }
  return inner === '' ? `<${name}/>` : `<${name}>${inner}</${name}>`;
}

function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value) ?? '';
}
