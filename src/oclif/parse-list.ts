/** Splits a comma-separated flag value, trimming items and dropping empty ones. */
export function splitList(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}
