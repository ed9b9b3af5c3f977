/**
 * The JSON Schema subset a flow declares (type, properties, required, items, enum,
 * minimum/maximum, minLength/maxLength, pattern, description), normalised into the shapes
 * the WSDL, the request parser and the response renderer all walk. One normalisation keeps
 * the three consistent: an element the WSDL declares is the element the envelopes carry.
 */
import { xmlName } from './xml-escape';

export type ScalarType = 'string' | 'number' | 'integer' | 'boolean';
export type EnumValue = string | number | boolean;

export interface Facets {
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
}

interface ShapeCommon {
  /** The schema allows `null` (`type` lists "null", or an enum holds null). */
  nullable: boolean;
  description: string | null;
}
export interface ObjectShape extends ShapeCommon {
  kind: 'object';
  fields: Field[];
}
export interface ArrayShape extends ShapeCommon {
  kind: 'array';
  items: Shape;
}
export interface ScalarShape extends ShapeCommon {
  kind: 'scalar';
  type: ScalarType;
  enum: EnumValue[] | null;
  facets: Facets;
}
/** A value the schema does not type closely enough for XSD: carried as JSON text in a string. */
export interface JsonTextShape extends ShapeCommon {
  kind: 'json';
}
export type Shape = ObjectShape | ArrayShape | ScalarShape | JsonTextShape;

export interface Field {
  /** The JSON property name. */
  name: string;
  /** The element name (see `xmlName`). */
  xml: string;
  required: boolean;
  shape: Shape;
}

/**
 * The children of the `Run` / `RunResponse` wrapper element. An object schema with properties
 * contributes its properties; any other schema (array, scalar, untyped, or none at all) is
 * carried in one element named `value`, and `wrapped` says so.
 */
export interface MessageShape {
  fields: Field[];
  wrapped: boolean;
}

/** Element name of the single child that carries a non-object message. */
export const VALUE_ELEMENT = 'value';
/** Element name of the inner items of an array nested directly in an array. */
export const ITEM_ELEMENT = 'item';

const MAX_SCHEMA_DEPTH = 64;

export function messageShape(schema: unknown): MessageShape {
  if (schema === null || schema === undefined) {
    return { fields: [{ name: VALUE_ELEMENT, xml: VALUE_ELEMENT, required: false, shape: jsonText(true, null) }], wrapped: true };
  }
  const shape = toShape(schema, 0);
  if (shape.kind === 'object') return { fields: shape.fields, wrapped: false };
  return { fields: [{ name: VALUE_ELEMENT, xml: VALUE_ELEMENT, required: true, shape }], wrapped: true };
}

export function toShape(schema: unknown, depth: number): Shape {
  if (!isRecord(schema) || depth > MAX_SCHEMA_DEPTH) return jsonText(true, null);
  const description = typeof schema.description === 'string' ? schema.description : null;
  const enumValues = Array.isArray(schema.enum) ? schema.enum : null;
  const declared = declaredTypes(schema.type);
  const concrete = declared?.filter((t) => t !== 'null') ?? [];
  if (declared !== null && concrete.length === 0) {
    // `type: "null"` (or an empty list): nothing XSD can type; a nillable JSON-text element.
    return jsonText(true, description);
  }
  const type = declared === null ? inferType(schema, enumValues) : concrete.length === 1 ? concrete[0] : undefined;
  let nullable: boolean;
  if (declared !== null) nullable = declared.includes('null');
  else if (enumValues !== null || type !== undefined) nullable = false;
  else nullable = true; // no type at all: any JSON value, null included
  if (enumValues !== null && enumValues.includes(null)) nullable = true;

  switch (type) {
    case 'object': {
      const props = isRecord(schema.properties) ? schema.properties : null;
      if (props === null || Object.keys(props).length === 0) return jsonText(nullable, description);
      const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : []);
      const fields = Object.keys(props).map((name) => ({
        name,
        xml: xmlName(name),
        required: required.has(name),
        shape: toShape(props[name], depth + 1),
      }));
      return { kind: 'object', fields, nullable, description };
    }
    case 'array':
      return { kind: 'array', items: toShape(schema.items, depth + 1), nullable, description };
    case 'string':
    case 'number':
    case 'integer':
    case 'boolean': {
      const values = enumValues === null ? null : enumValues.filter((v): v is EnumValue => v !== null && fitsType(v, type));
      return { kind: 'scalar', type, enum: values, facets: facetsOf(schema, type), nullable, description };
    }
    default:
      return jsonText(nullable, description);
  }
}

function jsonText(nullable: boolean, description: string | null): JsonTextShape {
  return { kind: 'json', nullable, description };
}

function declaredTypes(type: unknown): string[] | null {
  if (typeof type === 'string') return [type];
  if (Array.isArray(type)) return type.filter((t): t is string => typeof t === 'string');
  return null;
}

/** No `type`: an enum of one JSON type, or `properties` / `items`, still say what the value is. */
function inferType(schema: Record<string, unknown>, enumValues: unknown[] | null): string | undefined {
  if (enumValues !== null) {
    const values = enumValues.filter((v) => v !== null);
    if (values.length === 0) return undefined;
    if (values.every((v) => typeof v === 'string')) return 'string';
    if (values.every((v) => typeof v === 'boolean')) return 'boolean';
    if (values.every((v) => typeof v === 'number' && Number.isInteger(v))) return 'integer';
    if (values.every((v) => typeof v === 'number')) return 'number';
    return undefined;
  }
  if (isRecord(schema.properties)) return 'object';
  if (schema.items !== undefined) return 'array';
  return undefined;
}

function fitsType(value: unknown, type: ScalarType): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'boolean':
      return typeof value === 'boolean';
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'number':
      return typeof value === 'number';
  }
}

function facetsOf(schema: Record<string, unknown>, type: ScalarType): Facets {
  const facets: Facets = {};
  if (type === 'number' || type === 'integer') {
    if (typeof schema.minimum === 'number') facets.minimum = schema.minimum;
    if (typeof schema.maximum === 'number') facets.maximum = schema.maximum;
  }
  if (type === 'string') {
    if (isCount(schema.minLength)) facets.minLength = schema.minLength;
    if (isCount(schema.maxLength)) facets.maxLength = schema.maxLength;
    if (typeof schema.pattern === 'string') facets.pattern = schema.pattern;
  }
  return facets;
}

function isCount(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0;
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
