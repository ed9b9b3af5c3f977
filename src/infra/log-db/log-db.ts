import type Database from 'better-sqlite3';
import type { AccessDeniedRecord, RunRecord } from '../../domain/run-record';
import { busyTimeoutMs } from '../db/busy-timeout';
import { APPEND_ONLY_CACHE_KIB } from '../db/page-cache';
import { sqliteFailure } from '../db/sqlite-errors';
import { ensureParentDir } from '../state-paths';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS runs (
  id INTEGER PRIMARY KEY,
  started_at TEXT NOT NULL, tenant TEXT NOT NULL, flow TEXT NOT NULL, version TEXT NOT NULL,
  door TEXT NOT NULL, status INTEGER NOT NULL, duration_ms REAL NOT NULL,
  correlation_id TEXT NOT NULL, error_code TEXT
);
CREATE INDEX IF NOT EXISTS runs_by_flow ON runs (tenant, flow, started_at);
CREATE TABLE IF NOT EXISTS access_denied (
  id INTEGER PRIMARY KEY,
  at TEXT NOT NULL, door TEXT NOT NULL, status INTEGER NOT NULL, reason TEXT NOT NULL,
  tenant TEXT, flow TEXT, key_id INTEGER, correlation_id TEXT NOT NULL
);`;

const RUN_CHUNK = 64;

/** svc-log.db: run records and access refusals, written in batches off the request path. */
export class LogDb {
  private readonly db: Database.Database;
  private readonly insertRun: Database.Statement;
  /** RUN_CHUNK rows per statement: a batch of runs costs one call into SQLite per chunk, not per row. */
  private readonly insertRuns: Database.Statement;
  private readonly insertDenied: Database.Statement;

  constructor(readonly file: string) {
    try {
      ensureParentDir(file);
      const Sqlite = require('better-sqlite3') as typeof Database;
      this.db = new Sqlite(file, { timeout: busyTimeoutMs() });
      this.db.pragma('journal_mode = WAL');
      this.db.pragma('synchronous = NORMAL');
      this.db.pragma(`cache_size = ${APPEND_ONLY_CACHE_KIB}`);
      this.db.exec(SCHEMA);
      this.insertRun = this.db.prepare(
        'INSERT INTO runs (started_at, tenant, flow, version, door, status, duration_ms, correlation_id, error_code) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      );
      this.insertRuns = this.db.prepare(
        `INSERT INTO runs (started_at, tenant, flow, version, door, status, duration_ms, correlation_id, error_code) VALUES ${Array.from({ length: RUN_CHUNK }, () => '(?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
      );
      this.insertDenied = this.db.prepare('INSERT INTO access_denied (at, door, status, reason, tenant, flow, key_id, correlation_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
    } catch (err) {
      throw sqliteFailure(file, 'log database', err);
    }
  }

  write(runs: readonly RunRecord[], denied: readonly AccessDeniedRecord[]): void {
    // Runs of one batch mostly share their millisecond: format each distinct one once.
    let lastMs = Number.NaN;
    let lastIso = '';
    const iso = (ms: number): string => {
      if (ms !== lastMs) {
        lastMs = ms;
        lastIso = new Date(ms).toISOString();
      }
      return lastIso;
    };
    this.db.transaction(() => {
      let i = 0;
      if (runs.length >= RUN_CHUNK) {
        const params: unknown[] = new Array<unknown>(RUN_CHUNK * 9);
        for (; i + RUN_CHUNK <= runs.length; i += RUN_CHUNK) {
          for (let j = 0; j < RUN_CHUNK; j++) {
            const r = runs[i + j] as RunRecord;
            const o = j * 9;
            params[o] = iso(r.startedAt);
            params[o + 1] = r.tenant;
            params[o + 2] = r.flow;
            params[o + 3] = r.version;
            params[o + 4] = r.door;
            params[o + 5] = r.status;
            params[o + 6] = r.durationMs;
            params[o + 7] = r.correlationId;
            params[o + 8] = r.errorCode;
          }
          this.insertRuns.run(params);
        }
      }
      for (; i < runs.length; i++) {
        const r = runs[i] as RunRecord;
        this.insertRun.run(iso(r.startedAt), r.tenant, r.flow, r.version, r.door, r.status, r.durationMs, r.correlationId, r.errorCode);
      }
      for (const d of denied) this.insertDenied.run(d.at, d.door, d.status, d.reason, d.tenant, d.flow, d.keyId, d.correlationId);
    })();
  }

  recentRuns(limit: number): RunRecord[] {
    const rows = this.db.prepare('SELECT * FROM runs ORDER BY id DESC LIMIT ?').all(limit) as Array<Record<string, unknown>>;
    return rows.map((r) => ({
      startedAt: Date.parse(String(r.started_at)),
      tenant: String(r.tenant),
      flow: String(r.flow),
      version: String(r.version),
      door: String(r.door) as RunRecord['door'],
      status: Number(r.status),
      durationMs: Number(r.duration_ms),
      correlationId: String(r.correlation_id),
      errorCode: r.error_code === null ? null : String(r.error_code),
    }));
  }

  close(): void {
    this.db.close();
  }
}
