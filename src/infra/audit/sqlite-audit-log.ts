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

/** Rows per multi-row INSERT of a batch. */
const INSERT_CHUNK = 32;

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
      const write = db.transaction((): AuditEntry[] => {
        const entries = this.chain(db, events);
        this.insert(db, entries);
        return entries;
      });
      return write.immediate();
    } catch (err) {
      throw sqliteFailure(this.file, 'audit database', err);
    }
  }

  /** The entries for `events`, each linked to the one before it in its tenant's chain. */
  private chain(db: Database.Database, events: readonly AuditEvent[]): AuditEntry[] {
    // The chain heads are read once per tenant per batch, under the IMMEDIATE lock.
    const heads = new Map<string, { seq: number; hash: string } | undefined>();
    const last = this.statement(db, 'last', 'SELECT seq, hash FROM audit_entries WHERE tenant = ? ORDER BY seq DESC LIMIT 1');
    // Entries of one batch mostly share their millisecond: format each distinct one once.
    let lastMs = Number.NaN;
    let lastIso = '';
    const entries = new Array<AuditEntry>(events.length);
    for (let i = 0; i < events.length; i++) {
      const event = events[i] as AuditEvent;
      const head = heads.has(event.tenant) ? heads.get(event.tenant) : (last.get(event.tenant) as { seq: number; hash: string } | undefined);
      const at = event.at ?? this.clock.now();
      const ms = at.getTime();
      if (ms !== lastMs) {
        lastMs = ms;
        lastIso = at.toISOString();
      }
      const linked = {
        tenant: event.tenant,
        seq: (head?.seq ?? 0) + 1,
        eventType: event.eventType,
        createdAt: lastIso,
        correlationId: event.correlationId,
        details: { ...(event.details ?? {}) },
        prevHash: head?.hash ?? GENESIS_HASH,
      };
      const entry: AuditEntry = Object.assign(linked, { hash: entryHash(linked) });
      entries[i] = entry;
      heads.set(entry.tenant, { seq: entry.seq, hash: entry.hash });
    }
    return entries;
  }

  /** INSERT_CHUNK rows per statement: a batch costs one call into SQLite per chunk, not per row. */
  private insert(db: Database.Database, entries: readonly AuditEntry[]): void {
    const columns = '(tenant, seq, event_type, created_at, correlation_id, details, prev_hash, hash)';
    const one = this.statement(db, 'insert', `INSERT INTO audit_entries ${columns} VALUES (?, ?, ?, ?, ?, ?, ?, ?)`);
    let i = 0;
    if (entries.length >= INSERT_CHUNK) {
      const many = this.statement(db, 'insert-chunk', `INSERT INTO audit_entries ${columns} VALUES ${Array.from({ length: INSERT_CHUNK }, () => '(?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`);
      const params = new Array<unknown>(INSERT_CHUNK * 8);
      for (; i + INSERT_CHUNK <= entries.length; i += INSERT_CHUNK) {
        for (let j = 0; j < INSERT_CHUNK; j++) {
          const e = entries[i + j] as AuditEntry;
          const o = j * 8;
          params[o] = e.tenant;
          params[o + 1] = e.seq;
          params[o + 2] = e.eventType;
          params[o + 3] = e.createdAt;
          params[o + 4] = e.correlationId;
          params[o + 5] = JSON.stringify(e.details);
          params[o + 6] = e.prevHash;
          params[o + 7] = e.hash;
        }
        many.run(params);
      }
    }
    for (; i < entries.length; i++) {
      const e = entries[i] as AuditEntry;
      one.run(e.tenant, e.seq, e.eventType, e.createdAt, e.correlationId, JSON.stringify(e.details), e.prevHash, e.hash);
    }
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
