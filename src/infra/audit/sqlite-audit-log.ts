import { inject, injectable } from 'inversify';
import type Database from 'better-sqlite3';
import type { AuditEntry, AuditEvent, AuditLog, ChainFault, ChainVerdict } from '../../domain/audit';
import type { Clock } from '../../domain/clock';
import { TOKENS } from '../tokens';
import { ensureParentDir } from '../state-paths';
import { busyTimeoutMs } from '../db/busy-timeout';
import { APPEND_ONLY_CACHE_KIB } from '../db/page-cache';
import { sqliteFailure } from '../db/sqlite-errors';
import { GENESIS_HASH, entryHash } from './chain-hash';

interface AuditRow {
  tenant: string;
  seq: number;
  event_type: string;
  created_at: string;
  correlation_id: string;
  details: string;
  prev_hash: string;
  hash: string;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS audit_entries (
  tenant TEXT NOT NULL,
  seq INTEGER NOT NULL,
  event_type TEXT NOT NULL,
  created_at TEXT NOT NULL,
  correlation_id TEXT NOT NULL,
  details TEXT NOT NULL,
  prev_hash TEXT NOT NULL,
  hash TEXT NOT NULL,
  PRIMARY KEY (tenant, seq)
) WITHOUT ROWID;`;

function parseDetails(text: string): AuditEntry['details'] {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as AuditEntry['details']) : { unreadable: text };
  } catch {
    return { unreadable: text };
  }
}

const toEntry = (row: AuditRow): AuditEntry => ({
  tenant: row.tenant,
  seq: row.seq,
  eventType: row.event_type,
  createdAt: row.created_at,
  correlationId: row.correlation_id,
  details: parseDetails(row.details),
  prevHash: row.prev_hash,
  hash: row.hash,
});

/**
 * The audit chains, one per tenant, in `svc-audit.db`. Appends run in an IMMEDIATE transaction
 * so a CLI command and a running server can write the same tenant's chain without forking it.
 * better-sqlite3 is used directly: the chain is append-only and needs no ORM.
 */
@injectable()
export class SqliteAuditLog implements AuditLog {
  private db?: Database.Database;

  constructor(
    @inject(TOKENS.AuditDbFile) private readonly file: string,
    @inject(TOKENS.Clock) private readonly clock: Clock,
  ) {}

  async append(event: AuditEvent): Promise<AuditEntry> {
    const [entry] = this.appendMany([event]);
    if (!entry) throw new Error('audit append wrote nothing');
    return entry;
  }

  /** Appends events in order, in one IMMEDIATE transaction (the batched path of a server). */
  appendMany(events: readonly AuditEvent[]): AuditEntry[] {
    const db = this.open();
    try {
      // The chain heads are read once per tenant per batch, under the IMMEDIATE lock.
      const write = db.transaction((): AuditEntry[] => {
        const heads = new Map<string, { seq: number; hash: string } | undefined>();
        return events.map((event) => this.appendOne(db, event, heads));
      });
      return write.immediate();
    } catch (err) {
      throw sqliteFailure(this.file, 'audit database', err);
    }
  }

  private appendOne(db: Database.Database, event: AuditEvent, heads: Map<string, { seq: number; hash: string } | undefined>): AuditEntry {
    const last = heads.has(event.tenant)
      ? heads.get(event.tenant)
      : (this.statement(db, 'last', 'SELECT seq, hash FROM audit_entries WHERE tenant = ? ORDER BY seq DESC LIMIT 1').get(event.tenant) as { seq: number; hash: string } | undefined);
    const partial = {
      tenant: event.tenant,
      seq: (last?.seq ?? 0) + 1,
      eventType: event.eventType,
      createdAt: (event.at ?? this.clock.now()).toISOString(),
      correlationId: event.correlationId,
      details: { ...(event.details ?? {}) },
      prevHash: last?.hash ?? GENESIS_HASH,
    };
    const entry: AuditEntry = { ...partial, hash: entryHash(partial) };
    this.statement(
      db,
      'insert',
      'INSERT INTO audit_entries (tenant, seq, event_type, created_at, correlation_id, details, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    ).run(entry.tenant, entry.seq, entry.eventType, entry.createdAt, entry.correlationId, JSON.stringify(entry.details), entry.prevHash, entry.hash);
    heads.set(entry.tenant, { seq: entry.seq, hash: entry.hash });
    return entry;
  }

  private readonly statements = new Map<string, Database.Statement>();

  /** Prepared once per connection: a batch of thousands of entries must not re-parse SQL per row. */
  private statement(db: Database.Database, name: string, sql: string): Database.Statement {
    let stmt = this.statements.get(name);
    if (!stmt) {
      stmt = db.prepare(sql);
      this.statements.set(name, stmt);
    }
    return stmt;
  }

  async recent(tenant: string, limit: number): Promise<AuditEntry[]> {
    const rows = this.read(() => this.open().prepare('SELECT * FROM audit_entries WHERE tenant = ? ORDER BY seq DESC LIMIT ?').all(tenant, limit) as AuditRow[]);
    return rows.map(toEntry);
  }

  async verify(tenant: string): Promise<ChainVerdict> {
    const faults: ChainFault[] = [];
    let checked = 0;
    let expectedPrev = GENESIS_HASH;
    let expectedSeq = 1;
    this.read(() => {
      const rows = this.open().prepare('SELECT * FROM audit_entries WHERE tenant = ? ORDER BY seq ASC').iterate(tenant) as IterableIterator<AuditRow>;
      for (const row of rows) {
        checked += 1;
        const entry = toEntry(row);
        if (entry.seq !== expectedSeq) faults.push({ seq: entry.seq, problem: `sequence gap: expected seq ${expectedSeq}` });
        if (entry.prevHash !== expectedPrev) faults.push({ seq: entry.seq, problem: 'prev_hash does not match the hash of the entry before it' });
        if (entryHash(entry) !== entry.hash) faults.push({ seq: entry.seq, problem: 'hash does not match the entry (its content was changed)' });
        expectedPrev = entry.hash;
        expectedSeq = entry.seq + 1;
      }
    });
    return { checked, faults };
  }

  close(): void {
    this.statements.clear();
    this.db?.close();
    this.db = undefined;
  }

  private read<T>(work: () => T): T {
    try {
      return work();
    } catch (err) {
      throw sqliteFailure(this.file, 'audit database', err);
    }
  }

  private open(): Database.Database {
    if (this.db) return this.db;
    try {
      ensureParentDir(this.file);
      const Sqlite = require('better-sqlite3') as typeof Database;
      const db = new Sqlite(this.file, { timeout: busyTimeoutMs() });
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = FULL');
      db.pragma(`cache_size = ${APPEND_ONLY_CACHE_KIB}`);
      db.exec(SCHEMA);
      this.db = db;
      return db;
    } catch (err) {
      throw sqliteFailure(this.file, 'audit database', err);
    }
  }
}
