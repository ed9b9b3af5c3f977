export interface Clock {
  now(): Date;
}

/** ISO 8601 UTC to the second, the form every table prints. */
export function isoSeconds(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
