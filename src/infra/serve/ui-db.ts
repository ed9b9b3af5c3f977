import type Database from 'better-sqlite3';
import { busyTimeoutMs } from '../db/busy-timeout';
import { sqliteFailure } from '../db/sqlite-errors';

/** Creates svc-ui.db beside the registry (the management UI's users and sessions live there). */
export function openUiDb(file: string): void {
  try {
    const Sqlite = require('better-sqlite3') as typeof Database;
    const db = new Sqlite(file, { timeout: busyTimeoutMs() });
    db.pragma('journal_mode = WAL');
    db.close();
  } catch (err) {
    throw sqliteFailure(file, 'UI database', err);
  }
}
