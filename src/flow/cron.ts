/**
 * Checks a cron expression: 5 fields (minute hour day-of-month month day-of-week) or 6
 * (seconds first). Each field is `*`, a value, a range `a-b`, a step `x/n` (x being `*`,
 * a value or a range), or a comma list of those. Months take JAN-DEC, weekdays SUN-SAT
 * (0 and 7 are Sunday); `?` is accepted for day-of-month and day-of-week.
 * Returns a list of problems; empty when the expression is valid.
 */
interface FieldSpec {
  name: string;
  min: number;
  max: number;
  names?: readonly string[];
  question?: boolean;
}

const SECOND: FieldSpec = { name: 'second', min: 0, max: 59 };
const MINUTE: FieldSpec = { name: 'minute', min: 0, max: 59 };
const HOUR: FieldSpec = { name: 'hour', min: 0, max: 23 };
const DOM: FieldSpec = { name: 'day of month', min: 1, max: 31, question: true };
const MONTH: FieldSpec = {
  name: 'month',
  min: 1,
  max: 12,
  names: ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'],
};
const DOW: FieldSpec = { name: 'day of week', min: 0, max: 7, names: ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'], question: true };

const MACROS: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

export function checkCron(expr: string): string[] {
  const trimmed = expr.trim();
  if (trimmed === '') return ['the cron expression is empty'];
  const macro = MACROS[trimmed.toLowerCase()];
  if (macro !== undefined) return [`'${trimmed}' is not supported; write the 5 fields instead: '${macro}'`];
  const fields = trimmed.split(/\s+/);
  if (fields.length !== 5 && fields.length !== 6) {
    return [
      `a cron expression has 5 fields (minute hour day-of-month month day-of-week) or 6 (seconds first), got ${fields.length}`,
    ];
  }
  const specs = fields.length === 6 ? [SECOND, MINUTE, HOUR, DOM, MONTH, DOW] : [MINUTE, HOUR, DOM, MONTH, DOW];
  const problems: string[] = [];
  fields.forEach((f, i) => {
    const spec = specs[i];
    if (spec === undefined) return;
    const p = checkField(f, spec);
    if (p !== undefined) problems.push(`${spec.name} field '${f}': ${p}`);
  });
  return problems;
}

function checkField(field: string, spec: FieldSpec): string | undefined {
  if (field === '?' && spec.question === true) return undefined;
  for (const item of field.split(',')) {
    if (item === '') return 'empty list item';
    const p = checkItem(item, spec);
    if (p !== undefined) return p;
  }
  return undefined;
}

function checkItem(item: string, spec: FieldSpec): string | undefined {
  const [range, step, extra] = item.split('/');
  if (extra !== undefined) return `'${item}' has more than one '/'`;
  if (step !== undefined) {
    if (!/^\d+$/.test(step) || Number(step) < 1) return `the step in '${item}' must be a positive integer`;
    if (Number(step) > spec.max - spec.min + 1) return `the step ${step} is larger than the field's range ${spec.min}-${spec.max}`;
  }
  if (range === undefined || range === '') return `'${item}' has no value before '/'`;
  if (range === '*') return undefined;
  const bounds = range.split('-');
  if (bounds.length > 2) return `'${range}' is not a value or a range a-b`;
  const values: number[] = [];
  for (const b of bounds) {
    const v = valueOf(b, spec);
    if (typeof v === 'string') return v;
    values.push(v);
  }
  const [lo, hi] = values;
  if (lo !== undefined && hi !== undefined && lo > hi) return `the range ${range} runs backwards`;
  return undefined;
}

function valueOf(token: string, spec: FieldSpec): number | string {
  if (/^\d+$/.test(token)) {
    const n = Number(token);
    if (n < spec.min || n > spec.max) return `${n} is out of range (${spec.min}-${spec.max})`;
    return n;
  }
  const idx = spec.names?.indexOf(token.toUpperCase()) ?? -1;
  if (idx >= 0) return spec.min === 1 ? idx + 1 : idx;
  const names = spec.names !== undefined ? ` or ${spec.names[0]}-${spec.names[spec.names.length - 1]}` : '';
  return `'${token}' is not a number (${spec.min}-${spec.max}${names})`;
}

/** The canonical IANA name of a time zone, or undefined when the runtime does not know it. */
export function canonicalTimeZone(tz: string): string | undefined {
  if (tz.trim() === '' || /^[+-]/.test(tz)) return undefined;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: tz }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

export function knownTimeZones(): string[] {
  try {
    return [...Intl.supportedValuesOf('timeZone'), 'UTC'];
  } catch {
    return ['UTC'];
  }
}
