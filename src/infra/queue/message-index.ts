import { MinHeap } from './min-heap';
import { QueueEvent } from './record-codec';

/** A message the queue holds (pending or in flight). Acked ones are dropped. */
export interface HeldMessage {
  readonly id: number;
  /** Lineage: `e` for the original enqueue, else the key of the dead-letter entry it was replayed from. */
  readonly gen: string;
  readonly body: unknown;
  readonly correlationId: string;
  readonly enqueuedAt: string;
  readonly event: QueueEvent | null;
  attempt: number;
  notBefore: number;
  lastError: string | null;
  inFlight: boolean;
  /** Bumped on every state change; heap entries with an older version are ignored. */
  version: number;
}

interface Entry {
  msg: HeldMessage;
  version: number;
}

/**
 * Pending and in-flight messages of one flow. `take` is FIFO by id among the messages due:
 * a heap by (notBefore, id) holds those waiting; due ones move to a heap by id. Entries are
 * invalidated lazily by the message's version.
 */
export class MessageIndex {
  private readonly byId = new Map<number, HeldMessage>();
  private readonly waiting = new MinHeap<Entry>((a, b) =>
    a.msg.notBefore !== b.msg.notBefore ? a.msg.notBefore < b.msg.notBefore : a.msg.id < b.msg.id,
  );
  private readonly due = new MinHeap<Entry>((a, b) => a.msg.id < b.msg.id);
  private inFlightCount = 0;

  get pending(): number {
    return this.byId.size - this.inFlightCount;
  }

  get inFlight(): number {
    return this.inFlightCount;
  }

  get(id: number): HeldMessage | undefined {
    return this.byId.get(id);
  }

  all(): IterableIterator<HeldMessage> {
    return this.byId.values();
  }

  /** Adds (or replaces, by id) a message as pending. */
  put(msg: HeldMessage): void {
    const old = this.byId.get(msg.id);
    if (old) this.remove(old);
    msg.inFlight = false;
    this.byId.set(msg.id, msg);
    this.schedule(msg);
  }

  remove(msg: HeldMessage): void {
    if (this.byId.get(msg.id) !== msg) return;
    this.byId.delete(msg.id);
    if (msg.inFlight) this.inFlightCount -= 1;
    msg.inFlight = false;
    msg.version += 1;
  }

  /** Changes due time/attempt of a held message and makes it pending again. */
  reschedule(msg: HeldMessage, attempt: number, notBefore: number, lastError: string | null): void {
    if (this.byId.get(msg.id) !== msg) return;
    if (msg.inFlight) this.inFlightCount -= 1;
    msg.inFlight = false;
    msg.attempt = attempt;
    msg.notBefore = notBefore;
    msg.lastError = lastError;
    this.schedule(msg);
  }

  release(msg: HeldMessage): void {
    if (this.byId.get(msg.id) !== msg || !msg.inFlight) return;
    this.inFlightCount -= 1;
    msg.inFlight = false;
    this.schedule(msg);
  }

  take(now: number): HeldMessage | undefined {
    for (let top = this.waiting.peek(); top && (!this.valid(top) || top.msg.notBefore <= now); top = this.waiting.peek()) {
      this.waiting.pop();
      if (this.valid(top)) this.due.push(top);
    }
    for (let e = this.due.pop(); e; e = this.due.pop()) {
      if (!this.valid(e)) continue;
      e.msg.inFlight = true;
      e.msg.version += 1;
      this.inFlightCount += 1;
      return e.msg;
    }
    return undefined;
  }

  nextDueAt(): number | undefined {
    let best: number | undefined;
    for (const e of this.due.values()) if (this.valid(e) && (best === undefined || e.msg.notBefore < best)) best = e.msg.notBefore;
    while (this.waiting.size > 0 && !this.valid(this.waiting.peek() as Entry)) this.waiting.pop();
    const w = this.waiting.peek();
    if (w && (best === undefined || w.msg.notBefore < best)) best = w.msg.notBefore;
    return best;
  }

  private schedule(msg: HeldMessage): void {
    msg.version += 1;
    this.waiting.push({ msg, version: msg.version });
  }

  private valid(e: Entry): boolean {
    return e.msg.version === e.version && !e.msg.inFlight && this.byId.get(e.msg.id) === e.msg;
  }
}
