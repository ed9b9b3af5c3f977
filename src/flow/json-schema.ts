/**
 * The JSON Schema subset of flow files (draft 2020-12): type, properties, required, items,
 * enum, minimum, maximum, minLength, maxLength, pattern; `title` and `description` are
 * accepted as annotations. Each problem names the key path inside the schema; the schema is
 * then compiled with ajv so anything ajv refuses is reported too.
 */
import Ajv2020 from 'ajv/dist/2020';
import { closest, isPlainObject, show } from './diagnostics';
import type { PathSegment } from './yaml-located';

export const SCHEMA_KEYWORDS = [
  'type',
  'properties',
  'required',
  'items',
  'enum',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'pattern',
  'title',
  'description',
] as const;
const KEYWORDS: ReadonlySet<string> = new Set(SCHEMA_KEYWORDS);
const TYPES = ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'];

export interface SchemaProblem {
  path: PathSegment[];
  message: string;
}

let ajv: Ajv2020 | undefined;
function getAjv(): Ajv2020 {
  if (ajv === undefined) ajv = new Ajv2020({ strict: true, strictTypes: false, strictTuples: false, strictRequired: false, allErrors: true, addUsedSchema: false, logger: false });
  return ajv;
}

export function checkSchema(schema: unknown): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  walk(schema, [], problems, 0);
  if (problems.length > 0) return problems;
  try {
    getAjv().compile(schema as object);
  } catch (e) {
    problems.push({ path: [], message: `JSON Schema is invalid: ${e instanceof Error ? e.message : String(e)}` });
  }
  return problems;
}

function isNonNegInt(u: unknown): boolean {
  return typeof u === 'number' && Number.isSafeInteger(u) && u >= 0;
}

function walk(schema: unknown, path: PathSegment[], problems: SchemaProblem[], depth: number): void {
  const add = (p: PathSegment[], message: string): void => {
    problems.push({ path: p, message });
  };
  if (depth > 32) {
    add(path, 'schema is nested too deeply');
    return;
  }
  if (!isPlainObject(schema)) {
    add(path, `a schema must be a map, got ${show(schema)}`);
    return;
  }
  for (const [key, v] of Object.entries(schema)) {
    const at = [...path, key];
    if (!KEYWORDS.has(key)) {
      const c = closest(key, SCHEMA_KEYWORDS);
      add(
        at,
        `unsupported JSON Schema keyword '${key}'${c !== undefined ? ` (did you mean '${c}'?)` : ''}; supported: ${SCHEMA_KEYWORDS.join(', ')}`,
      );
      continue;
    }
    switch (key) {
      case 'type': {
        const list = Array.isArray(v) ? v : [v];
        if (list.length === 0) add(at, "'type' must not be an empty list");
        for (const t of list) {
          if (typeof t !== 'string' || !TYPES.includes(t)) {
            const c = typeof t === 'string' ? closest(t, TYPES) : undefined;
            add(at, `'type' must be one of ${TYPES.join(', ')}, got ${show(t)}${c !== undefined ? ` (did you mean '${c}'?)` : ''}`);
          }
        }
        break;
      }
      case 'properties':
        if (!isPlainObject(v)) add(at, `'properties' must be a map of property name to schema, got ${show(v)}`);
        else for (const [name, sub] of Object.entries(v)) walk(sub, [...at, name], problems, depth + 1);
        break;
      case 'items':
        walk(v, at, problems, depth + 1);
        break;
      case 'required':
        if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) add(at, `'required' must be a list of property names, got ${show(v)}`);
        else if (new Set(v).size !== v.length) add(at, "'required' lists a property twice");
        break;
      case 'enum':
        if (!Array.isArray(v) || v.length === 0) add(at, `'enum' must be a non-empty list of values, got ${show(v)}`);
        break;
      case 'minimum':
      case 'maximum':
        if (typeof v !== 'number' || !Number.isFinite(v)) add(at, `'${key}' must be a number, got ${show(v)}`);
        break;
      case 'minLength':
      case 'maxLength':
        if (!isNonNegInt(v)) add(at, `'${key}' must be an integer >= 0, got ${show(v)}`);
        break;
      case 'pattern':
        if (typeof v !== 'string') add(at, `'pattern' must be a regular expression string, got ${show(v)}`);
        else {
          try {
            new RegExp(v, 'u');
          } catch (e) {
            add(at, `'pattern' is not a valid regular expression: ${e instanceof Error ? e.message : String(e)}`);
          }
        }
        break;
      default:
        if (typeof v !== 'string') add(at, `'${key}' must be a string, got ${show(v)}`);
    }
  }
  const min = schema['minimum'];
  const max = schema['maximum'];
  if (typeof min === 'number' && typeof max === 'number' && min > max) add([...path, 'minimum'], `'minimum' ${min} is greater than 'maximum' ${max}`);
  const minL = schema['minLength'];
  const maxL = schema['maxLength'];
  if (typeof minL === 'number' && typeof maxL === 'number' && minL > maxL) add([...path, 'minLength'], `'minLength' ${minL} is greater than 'maxLength' ${maxL}`);
  const required = schema['required'];
  const props = schema['properties'];
  if (Array.isArray(required) && isPlainObject(props)) {
    for (const r of required) {
      if (typeof r === 'string' && !(r in props)) {
        add([...path, 'required'], `'required' names '${r}', which is not in 'properties'${didYou(r, Object.keys(props))}`);
      }
    }
  }
}

function didYou(word: string, candidates: string[]): string {
  const c = closest(word, candidates);
  return c === undefined ? '' : ` (did you mean '${c}'?)`;
}
