/**
 * Errors raised by compiled expressions. They carry jsonata's error `code`
 * (e.g. "T2001") so callers can treat fast-path and fallback failures alike.
 */

const MESSAGES: Readonly<Record<string, string>> = {
  T0410: 'Argument {index} of function {token} does not match function signature',
  T0411: 'Context value is not a compatible type with argument {index} of function {token}',
  T0412: 'Argument {index} of function {token} must be an array of {type}',
  D1001: 'Number out of range: {value}',
  D1002: 'Cannot negate a non-numeric value: {value}',
  T1003: 'Key in object structure must evaluate to a string; got: {value}',
  T1005: 'Attempted to invoke a non-function. Did you mean ${token}?',
  T1006: 'Attempted to invoke a non-function',
  D1009: 'Multiple key definitions evaluate to same key: {value}',
  D1013: 'Object property names starting with _jsonata_ are reserved for internal use: {value}',
  T2001: 'The left side of the {token} operator must evaluate to a number',
  T2002: 'The right side of the {token} operator must evaluate to a number',
  T2003: 'The left side of the range operator (..) must evaluate to an integer',
  T2004: 'The right side of the range operator (..) must evaluate to an integer',
  T2009: 'The values {value} and {value2} either side of operator {token} must be of the same data type',
  T2010: 'The expressions either side of operator {token} must evaluate to numeric or string values',
  D2014: 'The size of the sequence allocated by the range operator (..) must not exceed 1e7',
  D3001: 'Attempting to invoke string function on Infinity or NaN',
  D3020: 'Third argument of split function must evaluate to a positive number',
  D3030: 'Unable to cast value to a number: {value}',
  D3050: 'The second argument of reduce function must be a function with at least two arguments',
  D3900: 'Invalid JSON passed to $parse_json: {value}',
};

export interface ExprErrorDetails {
  readonly value?: unknown;
  readonly value2?: unknown;
  readonly index?: number;
  readonly token?: string;
  readonly type?: string;
  readonly position?: number;
}

function show(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'function') return 'function';
  try {
    const s = JSON.stringify(v);
    return s === undefined ? String(v) : s;
  } catch {
    return String(v);
  }
}

export class ExprError extends Error {
  readonly code: string | undefined;
  value?: unknown;
  value2?: unknown;
  index?: number;
  token?: string;
  type?: string;
  position?: number;

  constructor(code: string | undefined, message: string, details: ExprErrorDetails = {}) {
    super(message);
    this.name = 'ExprError';
    this.code = code;
    if ('value' in details) this.value = details.value;
    if ('value2' in details) this.value2 = details.value2;
    if (details.index !== undefined) this.index = details.index;
    if (details.token !== undefined) this.token = details.token;
    if (details.type !== undefined) this.type = details.type;
    if (details.position !== undefined) this.position = details.position;
  }
}

/** Build an ExprError for a jsonata error code, with a message in jsonata's wording. */
export function exprError(code: string, details: ExprErrorDetails = {}): ExprError {
  const template = MESSAGES[code] ?? code;
  const message = template.replace(/\{(\w+)\}/g, (_m, field: string) => {
    const v = (details as Record<string, unknown>)[field];
    return field === 'token' || field === 'index' || field === 'type' ? String(v ?? '') : show(v);
  });
  return new ExprError(code, message, details);
}

/**
 * Thrown during a fast-path evaluation when the rest of the evaluation must be
 * delegated to jsonata (e.g. a custom function returned a promise). Never escapes
 * `CompiledExpr.evaluate`.
 */
export class Bailout {
  constructor(readonly reason: string) {}
}

/** Convert whatever jsonata (or a custom function) threw into an Error with `code`. */
export function toExprError(thrown: unknown): unknown {
  if (thrown instanceof Error) return thrown;
  if (typeof thrown === 'object' && thrown !== null) {
    const o = thrown as Record<string, unknown>;
    const code = typeof o.code === 'string' ? o.code : undefined;
    const message = typeof o.message === 'string' ? o.message : code ?? 'expression evaluation failed';
    const e = new ExprError(code, message, {
      value: o.value,
      value2: o.value2,
      index: typeof o.index === 'number' ? o.index : undefined,
      token: typeof o.token === 'string' ? o.token : undefined,
      position: typeof o.position === 'number' ? o.position : undefined,
    });
    if (!('value' in o)) delete e.value;
    if (!('value2' in o)) delete e.value2;
    if (typeof o.stack === 'string') e.stack = `${e.name}: ${message}\n${o.stack.split('\n').slice(1).join('\n')}`;
    return e;
  }
  return thrown;
}
