/**
 * Page cache for SQLite files that are mostly appended to (svc-log.db, svc-audit.db), in
 * SQLite's convention (negative: KiB). better-sqlite3 builds SQLite with a 16 MiB default, which
 * a long-running server fills with pages it wrote once and never reads again.
 */
export const APPEND_ONLY_CACHE_KIB = -2048;
