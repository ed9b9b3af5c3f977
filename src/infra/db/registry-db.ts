import { inject, injectable } from 'inversify';
import type { MikroORM } from '@mikro-orm/better-sqlite';
import type { SqlEntityManager } from '@mikro-orm/knex';
import { SvcError } from '../../domain/errors';
import { TOKENS } from '../tokens';
import { ensureParentDir, type StatePaths } from '../state-paths';
import { busyTimeoutMs } from './busy-timeout';
import { sqliteFailure } from './sqlite-errors';

/**
 * Bumped whenever entities.ts changes. A file with a lower `PRAGMA user_version` is brought up
 * to date with a safe (additive) schema update on open; its rows are kept. A file with a higher
 * one was written by a newer svc and is refused.
 */
export const SCHEMA_VERSION = 2;

interface RawConnection {
  pragma(sql: string): unknown;
}

/** The registry (SQLite through MikroORM), opened lazily on first use and shared by repositories. */
@injectable()
export class RegistryDb {
  private opening?: Promise<MikroORM>;

  constructor(@inject(TOKENS.StatePaths) private readonly paths: StatePaths) {}

  get file(): string {
    return this.paths.registry;
  }

  /** A fresh EntityManager: one unit of work per handler call, never a shared global one. */
  async em(): Promise<SqlEntityManager> {
    const orm = await this.orm();
    return orm.em.fork() as SqlEntityManager;
  }

  orm(): Promise<MikroORM> {
    this.opening ??= this.open().catch((err: unknown) => {
      this.opening = undefined;
      throw err instanceof SvcError ? err : sqliteFailure(this.file, 'registry', err);
    });
    return this.opening;
  }

  async close(): Promise<void> {
    if (!this.opening) return;
    const orm = await this.opening.catch(() => undefined);
    this.opening = undefined;
    await orm?.close(true);
  }

  private async open(): Promise<MikroORM> {
    ensureParentDir(this.file);
    const [{ MikroORM: Orm }, { REGISTRY_ENTITIES }] = await Promise.all([
      import('@mikro-orm/better-sqlite'),
      import('./entities'),
    ]);
    const orm = await Orm.init({
      dbName: this.file,
      entities: REGISTRY_ENTITIES,
      debug: false,
      allowGlobalContext: false,
      discovery: { warnWhenNoEntities: false },
      pool: {
        min: 1,
        max: 1,
        afterCreate: (conn: RawConnection, done: (err: Error | null, conn: RawConnection) => void) => {
          try {
            conn.pragma(`busy_timeout = ${busyTimeoutMs()}`);
            conn.pragma('journal_mode = WAL');
            conn.pragma('synchronous = FULL');
            done(null, conn);
          } catch (err) {
            done(err as Error, conn);
          }
        },
      },
    });
    try {
      await this.migrate(orm);
    } catch (err) {
      await orm.close(true);
      throw err;
    }
    return orm;
  }

  private async migrate(orm: MikroORM): Promise<void> {
    const conn = orm.em.getConnection();
    const version = await this.userVersion(orm);
    if (version === SCHEMA_VERSION) return;
    if (version > SCHEMA_VERSION) {
      throw new SvcError('storage', `registry ${this.file} has schema version ${version}, newer than this svc understands (${SCHEMA_VERSION})`, 'upgrade svc, or point --db at another registry');
    }
    try {
      await orm.schema.updateSchema({ safe: true });
    } catch (err) {
      // Another process may have created the schema at the same moment: accept its work.
      if ((await this.userVersion(orm)) === SCHEMA_VERSION) return;
      throw err;
    }
    await conn.execute(`pragma user_version = ${SCHEMA_VERSION}`);
  }

  private async userVersion(orm: MikroORM): Promise<number> {
    const rows = await orm.em.getConnection().execute<Array<{ user_version: number }>>('pragma user_version');
    return rows[0]?.user_version ?? 0;
  }
}
