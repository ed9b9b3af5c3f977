/**
 * How long a SQLite connection waits for another process's write lock before giving up:
 * `SVC_BUSY_TIMEOUT_MS`, default 10 s. The CLI and a running server share the files; WAL lets
 * readers through at once, and writers queue for at most this long.
 */
export function busyTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.SVC_BUSY_TIMEOUT_MS;
  const n = raw === undefined ? NaN : Number(raw);
  return Number.isInteger(n) && n >= 0 ? n : 10_000;
}
