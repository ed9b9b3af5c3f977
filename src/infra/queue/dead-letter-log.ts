import { scanLines } from './line-scanner';
import { DeadLetterRecord, decodeDeadLetterRecord, QueueEvent } from './record-codec';

export type DeadLetterEntryRecord = Extract<DeadLetterRecord, { t: 'dl' }>;

/** A message that used up every attempt (SPEC: dead-letter entry), as the API hands it out. */
export interface DeadLetter {
  id: number;
  tenant: string;
  flow: string;
  enqueuedAt: string;
  failedAt: string;
  attempts: number;
  lastError: string;
  correlationId: string;
  body: unknown;
  event: QueueEvent | null;
}

export interface DeadLetterLogState {
  /** Entries not yet replayed or discarded, by key, in log order. */
  readonly pending: Map<string, DeadLetterEntryRecord>;
  /** Rows a compaction would drop (handled markers and the entries they close). */
  readonly handled: number;
  readonly corrupt: number;
  /** `id \0 lineage` of every entry in the log, handled or not. */
  readonly lineages: Set<string>;
  readonly maxId: number;
  /** Offset just past the last complete line. */
  readonly consumed: number;
}

export function lineageKey(id: number, gen: string): string {
  return `${id}\u0000${gen}`;
}

/** Reads a dead-letter log (`[0, size)` of `fd`); corrupt lines go to `onCorrupt` and are skipped. */
export function readDeadLetterLog(fd: number, size: number, onCorrupt?: (offset: number, reason: string) => void): DeadLetterLogState {
  const pending = new Map<string, DeadLetterEntryRecord>();
  const lineages = new Set<string>();
  let handled = 0;
  let corrupt = 0;
  let maxId = 0;
  const consumed = scanLines(fd, 0, size, (line, offset) => {
    if (line.length === 0) return;
    const d = decodeDeadLetterRecord(line);
    if (!d.ok) {
      corrupt += 1;
      onCorrupt?.(offset, d.reason);
      return;
    }
    const r = d.record;
    if (r.id > maxId) maxId = r.id;
    if (r.t === 'dl') {
      pending.set(r.k, r);
      lineages.add(lineageKey(r.id, r.g));
    } else {
      handled += 1;
      if (pending.delete(r.k)) handled += 1;
    }
  });
  return { pending, handled, corrupt, lineages, maxId, consumed };
}

export function toDeadLetter(tenant: string, flow: string, r: DeadLetterEntryRecord): DeadLetter {
  return {
    id: r.id,
    tenant,
    flow,
    enqueuedAt: r.at,
    failedAt: r.fa,
    attempts: r.n,
    lastError: r.err,
    correlationId: r.c,
    body: r.b,
    event: r.e,
  };
}
