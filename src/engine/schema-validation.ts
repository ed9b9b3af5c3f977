/**
 * JSON Schemas of a flow (`input`, `validate` steps) compiled once with ajv (draft 2020-12);
 * a check returns the failing paths as readable problems (`/lines/0/qty must be >= 1`).
 */
import Ajv2020, { type ErrorObject } from 'ajv/dist/2020';
import type { JsonSchemaIR } from '../flow';

/** null: the value is valid; otherwise one line per problem. */
export type SchemaCheck = (value: unknown) => string[] | null;

const MAX_PROBLEMS = 10;

function problem(e: ErrorObject): string {
  const at = e.instancePath === '' ? '/' : e.instancePath;
  if (e.keyword === 'required') {
    const missing = (e.params as { missingProperty?: unknown }).missingProperty;
    return `${e.instancePath}/${String(missing)} is required`;
  }
  if (e.keyword === 'enum') {
    const allowed = (e.params as { allowedValues?: unknown }).allowedValues;
    return `${at} must be one of ${JSON.stringify(allowed)}`;
  }
  return `${at} ${e.message ?? `fails '${e.keyword}'`}`;
}

export class SchemaCompiler {
  private readonly ajv = new Ajv2020({
    allErrors: true,
    strict: false,
    addUsedSchema: false,
    logger: false,
  });

  compile(schema: JsonSchemaIR): SchemaCheck {
    const validate = this.ajv.compile(schema);
    // the compiled function stays usable; drop ajv's cache entry so redeploys do not pile up
    this.ajv.removeSchema(schema);
    return (value) => {
      if (validate(value)) return null;
      const seen = new Set<string>();
      for (const e of validate.errors ?? []) seen.add(problem(e));
      return [...seen];
    };
  }
}

/** Problems as one message line: the first ten, then how many more. */
export function formatProblems(problems: readonly string[]): string {
  const shown = problems.slice(0, MAX_PROBLEMS).join('; ');
  return problems.length > MAX_PROBLEMS ? `${shown}; and ${problems.length - MAX_PROBLEMS} more` : shown;
}
