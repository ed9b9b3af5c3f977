import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import { join } from 'node:path';
import { AppendLog, rewriteAtomically } from './append-log';
import { DeadLetter, lineageKey, readDeadLetterLog, toDeadLetter } from './dead-letter-log';
import { FlowLockBusy, unavailable } from './errors';
import { QueueFileOps, realFileOps } from './file-ops';
import { acquireFlowLock, acquireFlowLockSync, LockOptions } from './flow-lock';
import { GroupCommit } from './group-commit';
import { HeldMessage, MessageIndex } from './message-index';
import { FlowPaths, flowPaths, TMP_INFIX } from './paths';
import { decodeMainRecord, encodeRecord, looksLikeReplay, MainRecord, ORIGINAL_LINEAGE, QueueEvent } from './record-codec';

export interface QueuedMessage {
  id: number;
  tenant: string;
  flow: string;
  body: unknown;
  correlationId: string;
  enqueuedAt: string;
  /** The attempt this delivery is, from 1. */
  attempt: number;
  /** Epoch ms. */
  notBefore: number;
  lastError: string | null;
  event: QueueEvent | null;
}

export type LogFieldValue = string | number | boolean | null | undefined;

export interface QueueLogger {
  log(level: 'info' | 'warn' | 'error', message: string, fields: Record<string, LogFieldValue>): void;
}

export interface FlowQueueOptions {
  /** Seam for the durable write path (tests inject ENOSPC / EIO / torn writes). */
  fileOps?: QueueFileOps;
  /** Bounded wait on the flow lock (open, drain). */
  lock?: LockOptions;
  /** drain() rewrites the main log only once it is at least this big (bytes); default 64 KiB. */
  compactMinBytes?: number;
  /** Clock for enqueuedAt/failedAt; default Date.now. */
  now?: () => number;
}

const DEFAULT_COMPACT_MIN_BYTES = 64 * 1024;

type ReplayRecord = Extract<MainRecord, { t: 'rep' }>;

/**
 * The durable queue of one tenant/flow, server side. See docs in index.ts for the file
 * formats and guarantees. Only one server process may hold a FlowQueue for a folder; CLI
 * processes (dead-letters.ts) may append at the same time.
 */
export class FlowQueue {
  private readonly main: AppendLog;
  private readonly dlq: AppendLog;
  private readonly mainWriter: GroupCommit;
  private readonly dlqWriter: GroupCommit;
  private readonly index = new MessageIndex();
  private readonly ops = new Set<Promise<unknown>>();
  private readonly now: () => number;
  private readonly compactMinBytes: number;
  private nextId = 1;
  /** Main log: bytes already read (everything before is applied or known to be ours). */
  private readOffset = 0;
  /** Dead-letter log size when last checked for handled rows (-1: never). */
  private dlqCheckedSize = -1;
  private mainHasCorrupt = false;
  private dlqHasCorrupt = false;
  private closed = false;

  private constructor(
    readonly tenant: string,
    readonly flow: string,
    private readonly paths: FlowPaths,
    private readonly logger: QueueLogger,
    private readonly options: FlowQueueOptions,
  ) {
    const fileOps = options.fileOps ?? realFileOps;
    this.now = options.now ?? Date.now;
    this.compactMinBytes = options.compactMinBytes ?? DEFAULT_COMPACT_MIN_BYTES;
    this.dlq = new AppendLog(paths.deadLetters, fileOps);
    try {
      this.main = new AppendLog(paths.main, fileOps);
    } catch (err) {
      this.dlq.close();
      throw err;
    }
    this.mainWriter = new GroupCommit((data) => this.main.writeBatch(data));
    this.dlqWriter = new GroupCommit((data) => this.dlq.writeBatch(data));
  }

  /**
   * Creates the folder, reads both logs under the flow lock and rebuilds pending/retry state.
   * A torn tail is reported once and truncated; a corrupt record is reported (once per open)
   * and skipped. Throws QueueUnavailable when the folder or files cannot be opened.
   */
  static open(queuesDir: string, tenant: string, flow: string, logger: QueueLogger, options: FlowQueueOptions = {}): FlowQueue {
    const paths = flowPaths(queuesDir, tenant, flow);
    try {
      fs.mkdirSync(paths.dir, { recursive: true });
    } catch (err) {
      throw unavailable(err, paths.dir, 'mkdir');
    }
    const lock = acquireFlowLockSync(paths.lock, options.lock);
    let queue: FlowQueue | undefined;
    try {
      removeLeftovers(paths.dir);
      queue = new FlowQueue(tenant, flow, paths, logger, options);
      queue.load();
      return queue;
    } catch (err) {
      queue?.main.close();
      queue?.dlq.close();
      throw err;
    } finally {
      lock.release();
    }
  }

  get pending(): number {
    return this.index.pending;
  }

  get inFlight(): number {
    return this.index.inFlight;
  }

  /** Group-commit counters of the main log: how many write+fdatasync batches carried how many records. */
  get commitStats(): { batches: number; records: number } {
    return { batches: this.mainWriter.batches, records: this.mainWriter.records };
  }

  /**
   * Resolves once the message is on disk (write + fdatasync, shared with every enqueue
   * queued meanwhile). Rejects QueueUnavailable; the message is then not held. The body must
   * be JSON-serialisable and is not copied: do not mutate it afterwards.
   */
  enqueue(body: unknown, correlationId: string, event: QueueEvent | null = null): Promise<QueuedMessage> {
    return this.track(async () => {
      // The id is spent even if the write fails: a failed fdatasync may still leave the
      // record on disk, and ids are never reused.
      const id = this.nextId++;
      const at = new Date(this.now()).toISOString();
      const text = encodeRecord({ t: 'enq', id, at, c: correlationId, e: event ?? null, b: body === undefined ? null : body });
      await this.mainWriter.append(text);
      const msg: HeldMessage = {
        id,
        gen: ORIGINAL_LINEAGE,
        body: body === undefined ? null : body,
        correlationId,
        enqueuedAt: at,
        event: event ?? null,
        attempt: 1,
        notBefore: Date.parse(at),
        lastError: null,
        inFlight: false,
        version: 0,
      };
      this.index.put(msg);
      return this.snapshot(msg);
    });
  }

  /** Applies replays appended by another process (the CLI). An fstat when nothing changed. */
  refresh(): void {
    if (this.closed) return;
    let size: number;
    try {
      size = this.main.size();
    } catch (err) {
      this.logger.log('error', 'queue log unreadable', { tenant: this.tenant, flow: this.flow, error: (err as Error).message });
      return;
    }
    if (size === this.readOffset) return;
    if (size < this.readOffset) {
      this.logger.log('error', 'queue log shrank under the server; re-reading from its end', {
        tenant: this.tenant,
        flow: this.flow,
        file: this.main.path,
        offset: size,
      });
      this.readOffset = size;
      return;
    }
    this.readOffset = this.main.scan(this.readOffset, size, (line, offset) => {
      if (!looksLikeReplay(line)) return; // the server's own records: already applied
      const d = decodeMainRecord(line);
      if (!d.ok) {
        this.reportCorrupt(this.main.path, offset, d.reason);
        return;
      }
      if (d.record.t === 'rep') this.applyReplay(d.record);
    });
  }

  take(now: number): QueuedMessage | undefined {
    if (this.closed) return undefined;
    const msg = this.index.take(now);
    return msg ? this.snapshot(msg) : undefined;
  }

  nextDueAt(): number | undefined {
    return this.index.nextDueAt();
  }

  ack(id: number): Promise<void> {
    return this.track(async () => {
      const msg = this.requireInFlight(id, 'ack');
      await this.mainWriter.append(encodeRecord({ t: 'ack', id }));
      this.index.remove(msg);
    });
  }

  retry(id: number, nextAttempt: number, notBefore: number, lastError: string): Promise<void> {
    return this.track(async () => {
      const msg = this.requireInFlight(id, 'retry');
      await this.mainWriter.append(encodeRecord({ t: 'retry', id, a: nextAttempt, nb: notBefore, err: lastError }));
      this.index.reschedule(msg, nextAttempt, notBefore, lastError);
    });
  }

  /**
   * Durable in the dead-letter log first (rejects QueueUnavailable if that fails; the message
   * stays in flight), then marked dead in the main log. If only the second write fails, the
   * entry is safe and the next open reconciles the main log from the dead-letter log.
   */
  deadLetter(id: number, attempts: number, lastError: string): Promise<DeadLetter> {
    return this.track(async () => {
      const msg = this.requireInFlight(id, 'deadLetter');
      const key = randomBytes(6).toString('hex');
      const failedAt = new Date(this.now()).toISOString();
      await this.dlqWriter.append(
        encodeRecord({
          t: 'dl',
          id,
          g: msg.gen,
          k: key,
          at: msg.enqueuedAt,
          fa: failedAt,
          n: attempts,
          err: lastError,
          c: msg.correlationId,
          e: msg.event,
          b: msg.body,
        }),
      );
      try {
        await this.mainWriter.append(encodeRecord({ t: 'dead', id, g: msg.gen, k: key }));
      } catch (err) {
        this.logger.log('warn', 'dead letter stored; its removal mark in the main queue log failed (reconciled at next open)', {
          tenant: this.tenant,
          flow: this.flow,
          id,
          error: (err as Error).message,
        });
      }
      // A CLI replay of this very entry may already have replaced the message: keep that one.
      this.index.remove(msg);
      return toDeadLetter(this.tenant, this.flow, {
        t: 'dl',
        id,
        g: msg.gen,
        k: key,
        at: msg.enqueuedAt,
        fa: failedAt,
        n: attempts,
        err: lastError,
        c: msg.correlationId,
        e: msg.event,
        b: msg.body,
      });
    });
  }

  release(id: number): void {
    const msg = this.index.get(id);
    if (msg) this.index.release(msg);
  }

  /**
   * When nothing is pending or in flight: rewrites the dead-letter log without handled rows
   * (if the CLI handled any) and the main log down to its next id (once it holds at least
   * `compactMinBytes`). Runs between group-commit batches, under the flow lock. A lock still
   * busy after the bounded wait skips this drain (logged); the next drain tries again.
   */
  async drain(): Promise<void> {
    if (this.closed || this.pending > 0 || this.inFlight > 0) return;
    if (!this.compactionWanted()) return;
    await this.track(() => this.mainWriter.exclusive(() => this.dlqWriter.exclusive(() => this.compactUnderLock())));
  }

  /** Waits for every operation and write under way, then closes the files. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    while (this.ops.size > 0) await Promise.allSettled([...this.ops]);
    await this.mainWriter.idle();
    await this.dlqWriter.idle();
    this.main.close();
    this.dlq.close();
  }

  // ---------------------------------------------------------------------------------------

  private track<T>(op: () => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new Error(`queue ${this.tenant}/${this.flow} is closed`));
    const p = op();
    this.ops.add(p);
    const done = (): void => {
      this.ops.delete(p);
    };
    p.then(done, done);
    return p;
  }

  private requireInFlight(id: number, what: string): HeldMessage {
    const msg = this.index.get(id);
    if (!msg || !msg.inFlight) throw new Error(`${what}: message ${id} of ${this.tenant}/${this.flow} is not in flight`);
    return msg;
  }

  private snapshot(msg: HeldMessage): QueuedMessage {
    return {
      id: msg.id,
      tenant: this.tenant,
      flow: this.flow,
      body: msg.body,
      correlationId: msg.correlationId,
      enqueuedAt: msg.enqueuedAt,
      attempt: msg.attempt,
      notBefore: msg.notBefore,
      lastError: msg.lastError,
      event: msg.event,
    };
  }

  private reportCorrupt(file: string, offset: number, reason: string): void {
    this.logger.log('error', 'queue record unreadable; skipped', { tenant: this.tenant, flow: this.flow, file, offset, reason });
  }

  private reportTorn(file: string, offset: number, bytes: number): void {
    this.logger.log('error', 'queue log ends in a torn record; truncated', { tenant: this.tenant, flow: this.flow, file, offset, bytes });
  }

  /** Under the lock, at open. */
  private load(): void {
    const dlqSize = this.dlq.size();
    const dead = readDeadLetterLog(this.dlq.descriptor, dlqSize, (offset, reason) =>
      this.reportCorrupt(this.dlq.path, offset, reason),
    );
    if (dead.consumed < dlqSize) {
      this.reportTorn(this.dlq.path, dead.consumed, dlqSize - dead.consumed);
      this.dlq.truncateTo(dead.consumed);
    }
    this.dlqHasCorrupt = dead.corrupt > 0;
    this.nextId = Math.max(this.nextId, dead.maxId + 1);

    const size = this.main.size();
    let corrupt = 0;
    const end = this.main.scan(0, size, (line, offset) => {
      if (line.length === 0) return;
      const d = decodeMainRecord(line);
      if (!d.ok) {
        corrupt += 1;
        this.reportCorrupt(this.main.path, offset, d.reason);
        return;
      }
      this.applyLoaded(d.record);
    });
    if (end < size) {
      this.reportTorn(this.main.path, end, size - end);
      this.main.truncateTo(end);
    }
    this.readOffset = end;
    this.mainHasCorrupt = corrupt > 0;

    // A crash between the dead-letter write and the main log's `dead` mark leaves the message
    // pending here: its lineage is in the dead-letter log, so it is not delivered again.
    for (const msg of [...this.index.all()]) {
      if (dead.lineages.has(lineageKey(msg.id, msg.gen))) this.index.remove(msg);
    }
  }

  private applyLoaded(r: MainRecord): void {
    switch (r.t) {
      case 'base':
        this.nextId = Math.max(this.nextId, r.next);
        return;
      case 'enq':
        this.nextId = Math.max(this.nextId, r.id + 1);
        this.index.put({
          id: r.id,
          gen: ORIGINAL_LINEAGE,
          body: r.b,
          correlationId: r.c,
          enqueuedAt: r.at,
          event: r.e,
          attempt: 1,
          notBefore: Date.parse(r.at) || 0,
          lastError: null,
          inFlight: false,
          version: 0,
        });
        return;
      case 'rep':
        this.applyReplay(r);
        return;
      case 'retry': {
        const msg = this.index.get(r.id);
        if (msg) this.index.reschedule(msg, r.a, r.nb, r.err);
        return;
      }
      case 'ack': {
        const msg = this.index.get(r.id);
        if (msg) this.index.remove(msg);
        return;
      }
      case 'dead': {
        const msg = this.index.get(r.id);
        if (msg && msg.gen === r.g) this.index.remove(msg);
        return;
      }
    }
  }

  /**
   * A replay of entry `from` (which dead-lettered lineage `of`). If that lineage is still held
   * (its `dead` mark not yet seen, or the dead-lettering still under way), the replay replaces
   * it; if another lineage of the same message is held, the message is already queued and the
   * duplicate is absorbed.
   */
  private applyReplay(r: ReplayRecord): void {
    this.nextId = Math.max(this.nextId, r.id + 1);
    const held = this.index.get(r.id);
    if (held && held.gen !== r.of) return;
    this.index.put({
      id: r.id,
      gen: r.from,
      body: r.b,
      correlationId: r.c,
      enqueuedAt: r.at,
      event: r.e,
      attempt: 1,
      notBefore: r.nb,
      lastError: null,
      inFlight: false,
      version: 0,
    });
  }

  private compactionWanted(): boolean {
    try {
      return (
        this.mainHasCorrupt || this.dlqHasCorrupt || this.mainOversized() || this.dlq.size() !== this.dlqCheckedSize
      );
    } catch {
      return false;
    }
  }

  private baseLine(): string {
    return encodeRecord({ t: 'base', next: this.nextId });
  }

  /** The main log holds more than its compacted form and has reached `compactMinBytes`. */
  private mainOversized(): boolean {
    return this.main.size() > Math.max(this.compactMinBytes, Buffer.byteLength(this.baseLine()));
  }

  private async compactUnderLock(): Promise<void> {
    let lock;
    try {
      lock = await acquireFlowLock(this.paths.lock, this.options.lock);
    } catch (err) {
      if (!(err instanceof FlowLockBusy)) throw err;
      this.logger.log('warn', 'queue compaction skipped: flow lock busy', { tenant: this.tenant, flow: this.flow, error: err.message });
      return;
    }
    try {
      this.refresh();
      if (this.pending > 0 || this.inFlight > 0) return;

      const dlqSize = this.dlq.size();
      if (this.dlqHasCorrupt || dlqSize !== this.dlqCheckedSize) {
        const dead = readDeadLetterLog(this.dlq.descriptor, dlqSize);
        if (dead.consumed < dlqSize) this.reportTorn(this.dlq.path, dead.consumed, dlqSize - dead.consumed);
        if (dead.handled > 0 || dead.corrupt > 0 || dead.consumed < dlqSize) {
          let text = '';
          for (const entry of dead.pending.values()) text += encodeRecord(entry);
          rewriteAtomically(this.dlq.path, Buffer.from(text, 'utf8'));
          this.dlq.reopen();
        }
        this.dlqHasCorrupt = false;
        this.dlqCheckedSize = this.dlq.size();
      }

      if (this.mainHasCorrupt || this.mainOversized()) {
        rewriteAtomically(this.main.path, Buffer.from(this.baseLine(), 'utf8'));
        this.main.reopen();
        this.readOffset = this.main.size();
        this.mainHasCorrupt = false;
      }
    } finally {
      lock.release();
    }
  }
}

/** Temp files of a rewrite that crashed before its rename. */
function removeLeftovers(dir: string): void {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch (err) {
    throw unavailable(err, dir, 'readdir');
  }
  for (const name of names) {
    if (name.includes(TMP_INFIX)) {
      try {
        fs.unlinkSync(join(dir, name));
      } catch {
        // not ours to worry about
      }
    }
  }
}
