/**
 * XSD for the normalised shapes (schema-shape.ts): one global element per message, anonymous
 * types inside, so the WSDL is self-contained and every client sees the same element tree the
 * envelopes carry.
 *
 * Mapping: object -> complexType/sequence (minOccurs="0" unless `required`); array -> the
 * element repeated (minOccurs="0" maxOccurs="unbounded"), an array directly inside an array
 * -> repeated `item` children; string/number/integer/boolean -> xsd:string/double/long/boolean;
 * enum and the numeric/length/pattern keywords -> a simpleType restriction; `null` allowed ->
 * nillable="true"; anything XSD cannot type (no schema, no `type`, objects without properties,
 * type unions) -> xsd:string holding JSON text.
 */
import { ITEM_ELEMENT, type ArrayShape, type Field, type MessageShape, type ScalarShape, type ScalarType, type Shape } from './schema-shape';
import { escapeAttr, escapeText } from './xml-escape';

export const XSD_TYPE: Record<ScalarType | 'json', string> = {
  string: 'xsd:string',
  number: 'xsd:double',
  integer: 'xsd:long',
  boolean: 'xsd:boolean',
  json: 'xsd:string',
};

const JSON_TEXT_DOC = 'JSON text: any JSON value, serialised (e.g. {"a":1}, [1,2], "s", 3, true, null).';

/** A global element declaration named `name` whose content is the message's fields. */
export function messageElement(name: string, message: MessageShape, indent: string): string {
  const inner = indent + '  ';
  if (message.fields.length === 0) {
    return `${indent}<xsd:element name="${name}">\n${inner}<xsd:complexType><xsd:sequence/></xsd:complexType>\n${indent}</xsd:element>\n`;
  }
  return (
    `${indent}<xsd:element name="${name}">\n` +
    `${inner}<xsd:complexType>\n${inner}  <xsd:sequence>\n` +
    message.fields.map((f) => fieldElement(f, inner + '    ')).join('') +
    `${inner}  </xsd:sequence>\n${inner}</xsd:complexType>\n` +
    `${indent}</xsd:element>\n`
  );
}

function fieldElement(field: Field, indent: string): string {
  const { shape } = field;
  if (shape.kind === 'array') {
    return element(field.xml, '0', 'unbounded', shape.items.nullable, shape.items, shape.description ?? shape.items.description, indent);
  }
  return element(field.xml, field.required ? '1' : '0', '1', shape.nullable, shape, shape.description, indent);
}

function element(name: string, min: '0' | '1', max: '1' | 'unbounded', nillable: boolean, content: Shape, description: string | null, indent: string): string {
  let attrs = `name="${escapeAttr(name)}"`;
  if (min === '0') attrs += ' minOccurs="0"';
  if (max === 'unbounded') attrs += ' maxOccurs="unbounded"';
  if (nillable) attrs += ' nillable="true"';
  const docs = [description, content.kind === 'json' ? JSON_TEXT_DOC : null, patternNote(content)].filter((d): d is string => d !== null);
  const annotation = docs.length === 0 ? '' : `${indent}  <xsd:annotation><xsd:documentation>${escapeText(docs.join('\n'))}</xsd:documentation></xsd:annotation>\n`;
  const inner = indent + '  ';
  switch (content.kind) {
    case 'json':
      return simpleElement(attrs, XSD_TYPE.json, annotation, indent);
    case 'scalar': {
      const restriction = restrictionOf(content, inner + '  ');
      if (restriction === null) return simpleElement(attrs, XSD_TYPE[content.type], annotation, indent);
      return `${indent}<xsd:element ${attrs}>\n${annotation}${inner}<xsd:simpleType>\n${restriction}${inner}</xsd:simpleType>\n${indent}</xsd:element>\n`;
    }
    case 'object':
      return (
        `${indent}<xsd:element ${attrs}>\n${annotation}${inner}<xsd:complexType>\n${inner}  <xsd:sequence>\n` +
        content.fields.map((f) => fieldElement(f, inner + '    ')).join('') +
        `${inner}  </xsd:sequence>\n${inner}</xsd:complexType>\n${indent}</xsd:element>\n`
      );
    case 'array':
      return (
        `${indent}<xsd:element ${attrs}>\n${annotation}${inner}<xsd:complexType>\n${inner}  <xsd:sequence>\n` +
        nestedItems(content, inner + '    ') +
        `${inner}  </xsd:sequence>\n${inner}</xsd:complexType>\n${indent}</xsd:element>\n`
      );
  }
}

/** An array inside an array: its items are `item` children of the outer array's element. */
function nestedItems(shape: ArrayShape, indent: string): string {
  return element(ITEM_ELEMENT, '0', 'unbounded', shape.items.nullable, shape.items, shape.items.description, indent);
}

function simpleElement(attrs: string, type: string, annotation: string, indent: string): string {
  if (annotation === '') return `${indent}<xsd:element ${attrs} type="${type}"/>\n`;
  return `${indent}<xsd:element ${attrs} type="${type}">\n${annotation}${indent}</xsd:element>\n`;
}

function restrictionOf(shape: ScalarShape, indent: string): string | null {
  const facets: string[] = [];
  const f = shape.facets;
  if (shape.enum !== null) {
    for (const v of shape.enum) facets.push(`<xsd:enumeration value="${escapeAttr(lexical(v, shape.type))}"/>`);
  }
  if (f.minimum !== undefined) facets.push(`<xsd:minInclusive value="${lexical(shape.type === 'integer' ? Math.ceil(f.minimum) : f.minimum, shape.type)}"/>`);
  if (f.maximum !== undefined) facets.push(`<xsd:maxInclusive value="${lexical(shape.type === 'integer' ? Math.floor(f.maximum) : f.maximum, shape.type)}"/>`);
  if (f.minLength !== undefined) facets.push(`<xsd:minLength value="${f.minLength}"/>`);
  if (f.maxLength !== undefined) facets.push(`<xsd:maxLength value="${f.maxLength}"/>`);
  if (f.pattern !== undefined) {
    const xsd = xsdPattern(f.pattern);
    if (xsd !== null) facets.push(`<xsd:pattern value="${escapeAttr(xsd)}"/>`);
  }
  if (facets.length === 0) return null;
  return `${indent}<xsd:restriction base="${XSD_TYPE[shape.type]}">\n${facets.map((x) => `${indent}  ${x}\n`).join('')}${indent}</xsd:restriction>\n`;
}

function patternNote(shape: Shape): string | null {
  if (shape.kind !== 'scalar' || shape.facets.pattern === undefined) return null;
  if (xsdPattern(shape.facets.pattern) !== null) return null;
  return `pattern (ECMA-262 regular expression, not expressible as an XSD pattern): ${shape.facets.pattern}`;
}

/** The XSD lexical form of a JSON scalar of the given schema type. */
export function lexical(value: string | number | boolean, type: ScalarType): string {
  if (typeof value === 'number') {
    if (type === 'integer' && Number.isInteger(value)) return BigInt(value).toString();
    if (Object.is(value, -0)) return '0';
    return String(value);
  }
  return String(value);
}

/** Escapes ECMA allows that XSD spells without the backslash. */
const DROP_BACKSLASH = new Set(['/', '$', "'", '"', ':', ',', '=', '!', '#', '@', '<', '>', '&', '%', '~', '`', ' ', '_']);
/** Escapes XSD knows (single-character and class escapes). */
const XSD_ESCAPES = new Set(['n', 'r', 't', '\\', '|', '.', '-', '^', '?', '*', '+', '{', '}', '(', ')', '[', ']', 's', 'S', 'd', 'D', 'w', 'W']);

/**
 * Translates a JSON Schema `pattern` (ECMA-262, unanchored) to an XSD pattern (implicitly
 * anchored), or null when it uses something XSD regular expressions lack (lookaround,
 * non-capturing groups, backreferences, word boundaries, lazy quantifiers, \u escapes, inner
 * anchors). Untranslatable patterns are left to the flow's own input validation and noted
 * in the element's documentation instead.
 */
export function xsdPattern(pattern: string): string | null {
  let body = pattern;
  const anchoredStart = body.startsWith('^');
  if (anchoredStart) body = body.slice(1);
  const anchoredEnd = body.endsWith('$') && trailingBackslashes(body.slice(0, -1)) % 2 === 0;
  if (anchoredEnd) body = body.slice(0, -1);

  let out = '';
  let inClass = false;
  let depth = 0;
  let topLevelAlternation = false;
  for (let i = 0; i < body.length; i += 1) {
    const ch = body[i] as string;
    if (ch === '\\') {
      const next = body[i + 1];
      if (next === undefined) return null;
      i += 1;
      if (DROP_BACKSLASH.has(next)) out += next;
      else if (XSD_ESCAPES.has(next)) out += '\\' + next;
      else return null;
      continue;
    }
    if (inClass) {
      if (ch === ']') inClass = false;
      out += ch;
      continue;
    }
    switch (ch) {
      case '[':
        inClass = true;
        out += ch;
        if (body[i + 1] === '^') {
          out += '^';
          i += 1;
        }
        if (body[i + 1] === ']') return null; // `[]` / `[^]` mean something else in each dialect
        continue;
      case '(':
        if (body[i + 1] === '?') return null;
        depth += 1;
        break;
      case ')':
        depth -= 1;
        break;
      case '|':
        if (depth === 0) topLevelAlternation = true;
        break;
      case '^':
      case '$':
        return null;
      case '?':
      case '*':
      case '+':
      case '}':
        if (body[i + 1] === '?') return null; // lazy quantifier
        break;
    }
    out += ch;
  }
  if (inClass || depth !== 0) return null;
  if (topLevelAlternation && (anchoredStart || anchoredEnd)) {
    // `^a|b` anchors only its first branch; stripping the anchors would change the meaning.
    return null;
  }
  const grouped = topLevelAlternation ? `(${out})` : out;
  return `${anchoredStart ? '' : '.*'}${grouped}${anchoredEnd ? '' : '.*'}`;
}

function trailingBackslashes(s: string): number {
  let n = 0;
  for (let i = s.length - 1; i >= 0 && s[i] === '\\'; i -= 1) n += 1;
  return n;
}
