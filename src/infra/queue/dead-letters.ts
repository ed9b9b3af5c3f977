import * as fs from 'node:fs';
import { join } from 'node:path';
import { AppendLog } from './append-log';
import { DeadLetter, DeadLetterEntryRecord, readDeadLetterLog, toDeadLetter } from './dead-letter-log';
import { DeadLetterNotFound, errnoOf, unavailable } from './errors';
import { realFileOps } from './file-ops';
import { acquireFlowLock, LockOptions } from './flow-lock';
import { DEAD_LETTER_LOG, flowPaths, FlowPaths } from './paths';
import { decodeMainRecord, encodeRecord, looksLikeReplay } from './record-codec';

/**
 * The CLI side (`svc dlq`): no server needed, safe while one runs. Listing only reads;
 * replay and discard hold the flow lock for their whole duration and append one record each
 * (O_APPEND, one write, fdatasync), so they never collide with the server's compaction.
 */

export interface DeadLetterFilter {
  tenant?: string;
  flow?: string;
}

export interface DeadLetterCliOptions {
  lock?: LockOptions;
}

function byteOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function subdirs(dir: string): string[] {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch (err) {
    if (errnoOf(err) === 'ENOENT' || errnoOf(err) === 'ENOTDIR') return [];
    throw unavailable(err, dir, 'readdir');
  }
  return entries
    .filter((e) => e.isDirectory() && !e.name.startsWith('.'))
    .map((e) => e.name)
    .sort(byteOrder);
}

/** Entries of one dead-letter log not yet handled; an absent file has none. */
function readPending(path: string): Map<string, DeadLetterEntryRecord> {
  let fd: number;
  try {
    fd = fs.openSync(path, 'r');
  } catch (err) {
    if (errnoOf(err) === 'ENOENT') return new Map();
    throw unavailable(err, path, 'open');
  }
  try {
    // A line still being written by another process is incomplete and simply not read yet.
    return readDeadLetterLog(fd, fs.fstatSync(fd).size).pending;
  } catch (err) {
    throw unavailable(err, path, 'read');
  } finally {
    fs.closeSync(fd);
  }
}

/** Pending entries across all flows (or the filtered ones), ordered by tenant, flow, id. */
export function listDeadLetters(queuesDir: string, filter: DeadLetterFilter = {}): DeadLetter[] {
  const out: DeadLetter[] = [];
  for (const tenant of subdirs(queuesDir)) {
    if (filter.tenant !== undefined && tenant !== filter.tenant) continue;
    for (const flow of subdirs(join(queuesDir, tenant))) {
      if (filter.flow !== undefined && flow !== filter.flow) continue;
      const entries = [...readPending(join(queuesDir, tenant, flow, DEAD_LETTER_LOG)).values()];
      entries.sort((a, b) => a.id - b.id);
      for (const e of entries) out.push(toDeadLetter(tenant, flow, e));
    }
  }
  return out;
}

/**
 * Copies the message back into the main queue with a fresh attempt counter (attempt 1),
 * keeping its original id, then marks the entry handled. Each step is fdatasync'ed in that
 * order: a crash in between leaves the entry listed and the message queued (a later replay
 * of it is recognised and not queued twice while the main log still holds the first).
 */
export async function replayDeadLetter(
  queuesDir: string,
  tenant: string,
  flow: string,
  id: number,
  options: DeadLetterCliOptions = {},
): Promise<DeadLetter> {
  return withEntry(queuesDir, tenant, flow, id, options, (paths, entry) => {
    const main = new AppendLog(paths.main, realFileOps);
    try {
      if (!alreadyReplayed(main, entry.k)) {
        const text = encodeRecord({
          t: 'rep',
          id: entry.id,
          from: entry.k,
          of: entry.g,
          nb: Date.now(),
          at: entry.at,
          c: entry.c,
          e: entry.e,
          b: entry.b,
        });
        main.appendSync(Buffer.from(`\n${text}`, 'utf8'));
      }
    } finally {
      main.close();
    }
    markHandled(paths, entry, 'replay');
  });
}

/** Marks the entry handled without re-enqueuing; the body leaves the disk at the flow's next drain. */
export async function discardDeadLetter(
  queuesDir: string,
  tenant: string,
  flow: string,
  id: number,
  options: DeadLetterCliOptions = {},
): Promise<DeadLetter> {
  return withEntry(queuesDir, tenant, flow, id, options, (paths, entry) => markHandled(paths, entry, 'discard'));
}

async function withEntry(
  queuesDir: string,
  tenant: string,
  flow: string,
  id: number,
  options: DeadLetterCliOptions,
  act: (paths: FlowPaths, entry: DeadLetterEntryRecord) => void,
): Promise<DeadLetter> {
  const paths = flowPaths(queuesDir, tenant, flow);
  if (!Number.isSafeInteger(id) || !fs.existsSync(paths.deadLetters)) throw new DeadLetterNotFound(tenant, flow, id);
  const lock = await acquireFlowLock(paths.lock, options.lock);
  try {
    let entry: DeadLetterEntryRecord | undefined;
    for (const e of readPending(paths.deadLetters).values()) {
      if (e.id === id) {
        entry = e;
        break;
      }
    }
    if (!entry) throw new DeadLetterNotFound(tenant, flow, id);
    act(paths, entry);
    return toDeadLetter(tenant, flow, entry);
  } finally {
    lock.release();
  }
}

function markHandled(paths: FlowPaths, entry: DeadLetterEntryRecord, how: 'replay' | 'discard'): void {
  const log = new AppendLog(paths.deadLetters, realFileOps);
  try {
    const text = encodeRecord({ t: 'handled', id: entry.id, k: entry.k, how, ha: new Date().toISOString() });
    log.appendSync(Buffer.from(`\n${text}`, 'utf8'));
  } finally {
    log.close();
  }
}

/** True when the main log already holds a replay of entry `key` (a replay interrupted before its handled mark). */
function alreadyReplayed(main: AppendLog, key: string): boolean {
  const needle = Buffer.from(`"from":${JSON.stringify(key)}`, 'utf8');
  let found = false;
  main.scan(0, main.size(), (line) => {
    if (found || !looksLikeReplay(line) || line.indexOf(needle) < 0) return;
    const d = decodeMainRecord(line);
    if (d.ok && d.record.t === 'rep' && d.record.from === key) found = true;
  });
  return found;
}
