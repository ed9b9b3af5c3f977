import type Database from 'better-sqlite3';
import type { FlowArtifact, LatestFlows } from '../../domain/flow-artifact';
import { busyTimeoutMs } from './busy-timeout';
import { SCHEMA_VERSION } from './registry-db';
import { sqliteFailure } from './sqlite-errors';

/**
 * The latest version of every deployed flow, read with plain SQLite: `svc serve` needs nothing
 * else from the registry at start-up, so a server whose registry is at the current schema never
 * loads the ORM (about 28 MiB). Returns undefined when the schema needs the ORM's upgrade first.
 */
export function openLatestFlowsReader(file: string): LatestFlows | undefined {
  let db: Database.Database;
  try {
    const Sqlite = require('better-sqlite3') as typeof Database;
    db = new Sqlite(file, { fileMustExist: true, readonly: true, timeout: busyTimeoutMs() });
  } catch {
    return undefined;
  }
  try {
    if (db.pragma('user_version', { simple: true }) !== SCHEMA_VERSION) {
      db.close();
      return undefined;
    }
  } catch (err) {
    db.close();
    throw sqliteFailure(file, 'registry', err);
  }
  return {
    async listLatest(): Promise<FlowArtifact[]> {
      try {
        return db
          .prepare(
            `SELECT a.tenant_id AS tenant, a.name, a.version, a.hash, a.ir, a.deployed_at AS deployedAt
               FROM flow_heads h JOIN flow_artifacts a
                 ON a.tenant_id = h.tenant_id AND a.name = h.name AND a.version = h.latest_version
              ORDER BY a.tenant_id, a.name`,
          )
          .all() as FlowArtifact[];
      } catch (err) {
        throw sqliteFailure(file, 'registry', err);
      } finally {
        db.close();
      }
    },
  };
}
