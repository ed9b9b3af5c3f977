import type Database from 'better-sqlite3';
import type { FlowIR } from '../../flow';
import { checkIrVersion } from '../../flow/ir';
import { sqliteFailure } from '../db/sqlite-errors';
import { busyTimeoutMs } from '../db/busy-timeout';
import type { CachedFlow, CachedKey, CachedTenant, RegistrySnapshot } from '../../domain/registry-snapshot';

interface KeyRow {
  id: number;
  tenant_id: string;
  key_hash: string;
  scopes: string;
  flows: string | null;
  expires_at: string | null;
  rate_limit: number | null;
  status: string;
}
interface HeadRow {
  tenant_id: string;
  name: string;
  version: string;
  hash: string;
  deployed_at: string;
}

export interface CacheStats {
  /** data_version look-ups: one per request, no registry read. */
  checks: number;
  /** Full reloads: one at start and one per commit by another process. */
  reloads: number;
  /** Flow artifacts parsed and prepared (once per hash). */
  prepared: number;
}

function jsonList(text: string | null): string[] | null {
  if (text === null) return null;
  const value: unknown = JSON.parse(text);
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : null;
}

class Snapshot<P> implements RegistrySnapshot<P> {
  constructor(
    private readonly tenants: ReadonlyMap<string, CachedTenant>,
    private readonly keys: ReadonlyMap<string, CachedKey>,
    private readonly flowMap: ReadonlyMap<string, CachedFlow<P>>,
    readonly broken: readonly string[],
  ) {}
  tenant(id: string): CachedTenant | undefined {
    return this.tenants.get(id);
  }
  keyByHash(hashHex: string): CachedKey | undefined {
    return this.keys.get(hashHex);
  }
  flow(tenant: string, name: string): CachedFlow<P> | undefined {
    return this.flowMap.get(`${tenant}\u0000${name}`);
  }
  flows(): Iterable<CachedFlow<P>> {
    return this.flowMap.values();
  }
}

/**
 * The registry as the request path sees it: tenants, keys and the latest flows in memory.
 * Each `current()` asks SQLite's `PRAGMA data_version` (no table read, no I/O beyond the WAL
 * index) whether another connection committed; only then is the picture reloaded. So a
 * `keys revoke`, `tenant disable` or `deploy` from the CLI takes effect at the next request.
 */
export class RegistryCache<P> {
  readonly stats: CacheStats = { checks: 0, reloads: 0, prepared: 0 };
  private readonly db: Database.Database;
  private readonly versionStmt: Database.Statement;
  private lastVersion = -1;
  private checkedThisTurn = false;
  private readonly endTurn = (): void => {
    this.checkedThisTurn = false;
  };
  private snapshot!: RegistrySnapshot<P>;
  private readonly preparedByHash = new Map<string, { ir: FlowIR; prepared: P }>();

  constructor(
    private readonly file: string,
    private readonly prepare: (ir: FlowIR) => P,
    private readonly onReload?: (snapshot: RegistrySnapshot<P>) => void,
  ) {
    try {
      const Sqlite = require('better-sqlite3') as typeof Database;
      this.db = new Sqlite(file, { fileMustExist: true, timeout: busyTimeoutMs() });
      this.versionStmt = this.db.prepare('PRAGMA data_version').pluck();
    } catch (err) {
      throw sqliteFailure(file, 'registry', err);
    }
    this.current();
  }

  current(): RegistrySnapshot<P> {
    // One look per turn of the event loop: requests parsed in the same turn arrived together,
    // and each look costs SQLite a shared lock and a stat (three system calls).
    if (this.checkedThisTurn) return this.snapshot;
    this.checkedThisTurn = true;
    setImmediate(this.endTurn);
    this.stats.checks += 1;
    const version = this.versionStmt.get() as number;
    if (version !== this.lastVersion) {
      this.snapshot = this.load();
      this.lastVersion = version;
      this.stats.reloads += 1;
      this.onReload?.(this.snapshot);
    }
    return this.snapshot;
  }

  close(): void {
    this.db.close();
  }

  private load(): RegistrySnapshot<P> {
    try {
      return this.db.transaction(() => this.read())();
    } catch (err) {
      throw sqliteFailure(this.file, 'registry', err);
    }
  }

  private read(): RegistrySnapshot<P> {
    const tenants = new Map<string, CachedTenant>();
    for (const row of this.db.prepare('SELECT id, status FROM tenants').all() as Array<{ id: string; status: string }>) {
      tenants.set(row.id, { id: row.id, status: row.status === 'disabled' ? 'disabled' : 'active' });
    }
    const keys = new Map<string, CachedKey>();
    for (const row of this.db.prepare('SELECT id, tenant_id, key_hash, scopes, flows, expires_at, rate_limit, status FROM api_keys').all() as KeyRow[]) {
      const scopes = jsonList(row.scopes) ?? [];
      const flows = jsonList(row.flows);
      keys.set(row.key_hash, {
        id: row.id,
        tenant: row.tenant_id,
        keyHash: Buffer.from(row.key_hash, 'hex'),
        scopes: scopes.includes('*') ? null : new Set(scopes),
        flows: flows === null ? null : new Set(flows),
        expiresAt: row.expires_at === null ? null : Date.parse(row.expires_at),
        rateLimit: row.rate_limit,
        revoked: row.status === 'revoked',
      });
    }
    const flows = new Map<string, CachedFlow<P>>();
    const broken: string[] = [];
    const heads = this.db
      .prepare(
        `SELECT h.tenant_id, h.name, a.version, a.hash, a.deployed_at
           FROM flow_heads h JOIN flow_artifacts a
             ON a.tenant_id = h.tenant_id AND a.name = h.name AND a.version = h.latest_version`,
      )
      .all() as HeadRow[];
    const irStmt = this.db.prepare('SELECT ir FROM flow_artifacts WHERE tenant_id = ? AND name = ? AND version = ?').pluck();
    const live = new Set<string>();
    for (const head of heads) {
      live.add(head.hash);
      let entry = this.preparedByHash.get(head.hash);
      if (!entry) {
        try {
          const ir = JSON.parse(irStmt.get(head.tenant_id, head.name, head.version) as string) as FlowIR;
          checkIrVersion(ir);
          entry = { ir, prepared: this.prepare(ir) };
          this.preparedByHash.set(head.hash, entry);
          this.stats.prepared += 1;
        } catch (err) {
          broken.push(`${head.tenant_id}/${head.name}@${head.version}: ${(err as Error).message}`);
          continue;
        }
      }
      flows.set(`${head.tenant_id}\u0000${head.name}`, {
        tenant: head.tenant_id,
        name: head.name,
        version: head.version,
        hash: head.hash,
        deployedAt: head.deployed_at,
        ir: entry.ir,
        prepared: entry.prepared,
      });
    }
    for (const hash of this.preparedByHash.keys()) if (!live.has(hash)) this.preparedByHash.delete(hash);
    return new Snapshot(tenants, keys, flows, broken);
  }
}
