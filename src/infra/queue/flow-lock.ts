import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import { hostname } from 'node:os';
import { FlowLockBusy, unavailable } from './errors';

/**
 * The per-flow lock file, taken by everything that rewrites a log (compaction, torn-tail
 * truncation, the server's open) and by every CLI mutation. Created with `wx` (exclusive),
 * holding `{pid, host, at, token}`. A lock whose pid is dead (on this host) is stale and is
 * taken over; otherwise the wait is bounded and ends in FlowLockBusy naming the holder.
 */

export interface LockOptions {
  /** Bounded wait; default 10 s. */
  timeoutMs?: number;
  /** Poll interval while waiting; default 10 ms. */
  pollMs?: number;
}

interface LockInfo {
  pid: number;
  host: string;
  at: string;
  token: string;
}

/** A lock file with no readable content is stale after this long (its creator died mid-create). */
const UNREADABLE_STALE_MS = 2000;
const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_POLL_MS = 10;

/** Tokens of locks this process holds (a lock naming our own pid but not listed here is stale). */
const heldTokens = new Set<string>();

export class FlowLock {
  private released = false;

  constructor(
    readonly path: string,
    readonly token: string,
  ) {}

  release(): void {
    if (this.released) return;
    this.released = true;
    heldTokens.delete(this.token);
    // Remove it only while it is still ours (never someone else's after a takeover).
    const info = readInfo(this.path);
    if (info && info.token === this.token) {
      try {
        fs.unlinkSync(this.path);
      } catch {
        // already removed
      }
    }
  }
}

function readInfo(path: string): LockInfo | null {
  let text: string;
  try {
    text = fs.readFileSync(path, 'utf8');
  } catch {
    return null;
  }
  try {
    const v = JSON.parse(text) as Partial<LockInfo>;
    if (typeof v.pid === 'number' && typeof v.token === 'string' && typeof v.host === 'string' && typeof v.at === 'string') {
      return { pid: v.pid, host: v.host, at: v.at, token: v.token };
    }
  } catch {
    // fall through
  }
  return null;
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

type Attempt = { lock: FlowLock } | { holder: string };

function tryAcquire(path: string): Attempt {
  const token = randomBytes(8).toString('hex');
  const info: LockInfo = { pid: process.pid, host: hostname(), at: new Date().toISOString(), token };
  let fd: number;
  try {
    fd = fs.openSync(path, 'wx', 0o644);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw unavailable(err, path, 'create lock');
    return inspectExisting(path);
  }
  try {
    fs.writeSync(fd, JSON.stringify(info));
  } finally {
    fs.closeSync(fd);
  }
  heldTokens.add(token);
  return { lock: new FlowLock(path, token) };
}

/** Decides whether an existing lock is live; takes a stale one away (then the caller retries). */
function inspectExisting(path: string): Attempt {
  const info = readInfo(path);
  if (info) {
    const ours = info.pid === process.pid && heldTokens.has(info.token);
    const live = info.host !== hostname() || ours || (info.pid !== process.pid && pidAlive(info.pid));
    if (live) return { holder: `pid ${info.pid} on ${info.host} since ${info.at}` };
    takeOver(path, (moved) => moved !== null && moved.token === info.token);
    return { holder: `stale lock of pid ${info.pid}` };
  }
  let mtimeMs: number;
  try {
    mtimeMs = fs.statSync(path).mtimeMs;
  } catch {
    return { holder: 'a lock that just went away' };
  }
  if (Date.now() - mtimeMs < UNREADABLE_STALE_MS) return { holder: 'a process still writing the lock file' };
  takeOver(path, (moved) => moved === null);
  return { holder: 'an unreadable stale lock' };
}

/**
 * Moves the lock aside with rename() (atomic), then checks that what moved is the stale lock
 * judged a moment ago; if another process had replaced it meanwhile, puts it back.
 */
function takeOver(path: string, isTheStaleOne: (moved: LockInfo | null) => boolean): void {
  const aside = `${path}.stale-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    fs.renameSync(path, aside);
  } catch {
    return; // gone already: the caller retries the exclusive create
  }
  const moved = readInfo(aside);
  if (!isTheStaleOne(moved)) {
    try {
      fs.linkSync(aside, path); // fails if the slot was taken again meanwhile
    } catch {
      // the slot is taken; the live holder keeps running on its own lock
    }
  }
  try {
    fs.unlinkSync(aside);
  } catch {
    // nothing to clean
  }
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));

/** Blocking acquire (the server's synchronous open). */
export function acquireFlowLockSync(path: string, options: LockOptions = {}): FlowLock {
  const timeout = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const poll = options.pollMs ?? DEFAULT_POLL_MS;
  const started = Date.now();
  for (;;) {
    const attempt = tryAcquire(path);
    if ('lock' in attempt) return attempt.lock;
    const waited = Date.now() - started;
    if (waited >= timeout) throw new FlowLockBusy(path, attempt.holder, waited);
    Atomics.wait(sleeper, 0, 0, poll);
  }
}

/** Non-blocking acquire for async callers (CLI mutations, compaction). */
export async function acquireFlowLock(path: string, options: LockOptions = {}): Promise<FlowLock> {
  const timeout = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const poll = options.pollMs ?? DEFAULT_POLL_MS;
  const started = Date.now();
  for (;;) {
    const attempt = tryAcquire(path);
    if ('lock' in attempt) return attempt.lock;
    const waited = Date.now() - started;
    if (waited >= timeout) throw new FlowLockBusy(path, attempt.holder, waited);
    await new Promise((resolve) => setTimeout(resolve, poll));
  }
}
