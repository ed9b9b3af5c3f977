/** Verbosity levels understood from `RUST_LOG`, quietest first. */
export const LEVELS = ['error', 'warn', 'info', 'debug', 'trace'] as const;
export type Level = (typeof LEVELS)[number];

const isLevel = (s: string): s is Level => (LEVELS as readonly string[]).includes(s);

/**
 * Reads `RUST_LOG`: a bare level (`debug`), or a `target=level,...` list, where the bare entry
 * or the `svc` target sets the level; `off` maps to `error`. Default `info`.
 */
export function levelFromRustLog(value: string | undefined): Level {
  if (!value || value.trim() === '') return 'info';
  let chosen: Level | undefined;
  for (const part of value.split(',').map((p) => p.trim().toLowerCase())) {
    const [target, level] = part.includes('=') ? (part.split('=', 2) as [string, string]) : [undefined, part];
    const normal = level === 'off' ? 'error' : level === 'warning' ? 'warn' : level;
    if (!isLevel(normal)) continue;
    if (target === undefined || target === 'svc') chosen = normal;
  }
  return chosen ?? 'info';
}

export function levelEnabled(current: Level, wanted: Level): boolean {
  return LEVELS.indexOf(wanted) <= LEVELS.indexOf(current);
}
