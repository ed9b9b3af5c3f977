import { crc32 } from './crc32';

/**
 * One record per line: `<crc32 as 8 lowercase hex> <json>\n`, the CRC taken over the JSON's
 * UTF-8 bytes. JSON never contains a raw newline, so `\n` always ends a record. Every write
 * (a batch) also STARTS with `\n`: a fragment left by a torn or failed write then stays on a
 * line of its own (reported and skipped) instead of swallowing the next writer's record.
 * Empty lines carry nothing and are skipped silently.
 */

export interface QueueEvent {
  source: string;
  type: string;
  id: string;
}

/** Main log (`messages.log`). `t` is always the first key (refresh matches `{"t":"rep"` as bytes). */
export type MainRecord =
  /** Written by compaction: ids below `next` are used. */
  | { t: 'base'; next: number }
  /** A message enqueued by the server. Its lineage (`gen`) is `e`. */
  | { t: 'enq'; id: number; at: string; c: string; e: QueueEvent | null; b: unknown }
  /** A dead letter copied back by `dlq replay` (CLI): lineage `from` (the entry's key), replacing lineage `of`. */
  | { t: 'rep'; id: number; from: string; of: string; nb: number; at: string; c: string; e: QueueEvent | null; b: unknown }
  | { t: 'retry'; id: number; a: number; nb: number; err: string }
  | { t: 'ack'; id: number }
  /** Lineage `g` of message `id` went to the dead-letter log as entry `k`. */
  | { t: 'dead'; id: number; g: string; k: string };

/** Dead-letter log (`dead-letters.log`). */
export type DeadLetterRecord =
  | {
      t: 'dl';
      id: number;
      /** lineage of the message that failed; `k` is this entry's unique key */
      g: string;
      k: string;
      at: string;
      fa: string;
      n: number;
      err: string;
      c: string;
      e: QueueEvent | null;
      b: unknown;
    }
  | { t: 'handled'; id: number; k: string; how: 'replay' | 'discard'; ha: string };

export const ORIGINAL_LINEAGE = 'e';

const SPACE = 0x20;
const HEX = /^[0-9a-f]{8}$/;

/** The text of one record line, newline included. Throws TypeError for a body JSON cannot hold. */
export function encodeRecord(record: MainRecord | DeadLetterRecord): string {
  const json = JSON.stringify(record);
  return `${(crc32(json) >>> 0).toString(16).padStart(8, '0')} ${json}\n`;
}

export type Decoded<T> = { ok: true; record: T } | { ok: false; reason: string };

/** Decodes one line (without its `\n`): checks the CRC, then the JSON, then the shape. */
function decodeJson(line: Buffer): Decoded<Record<string, unknown>> {
  if (line.length < 11 || line[8] !== SPACE) return { ok: false, reason: 'not a framed record' };
  const hex = line.toString('latin1', 0, 8);
  if (!HEX.test(hex)) return { ok: false, reason: 'bad checksum field' };
  const body = line.subarray(9);
  if ((crc32(body) >>> 0) !== parseInt(hex, 16)) return { ok: false, reason: 'checksum mismatch' };
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch {
    return { ok: false, reason: 'invalid JSON' };
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return { ok: false, reason: 'not an object' };
  return { ok: true, record: value as Record<string, unknown> };
}

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);
const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isStr = (v: unknown): v is string => typeof v === 'string';

function isEvent(v: unknown): v is QueueEvent | null {
  if (v === null) return true;
  if (!v || typeof v !== 'object') return false;
  const e = v as Record<string, unknown>;
  return isStr(e.source) && isStr(e.type) && isStr(e.id);
}

function isMainRecord(r: Record<string, unknown>): boolean {
  switch (r.t) {
    case 'base':
      return isInt(r.next);
    case 'enq':
      return isInt(r.id) && isStr(r.at) && isStr(r.c) && isEvent(r.e) && 'b' in r;
    case 'rep':
      return isInt(r.id) && isStr(r.from) && isStr(r.of) && isNum(r.nb) && isStr(r.at) && isStr(r.c) && isEvent(r.e) && 'b' in r;
    case 'retry':
      return isInt(r.id) && isInt(r.a) && isNum(r.nb) && isStr(r.err);
    case 'ack':
      return isInt(r.id);
    case 'dead':
      return isInt(r.id) && isStr(r.g) && isStr(r.k);
    default:
      return false;
  }
}

function isDeadLetterRecord(r: Record<string, unknown>): boolean {
  switch (r.t) {
    case 'dl':
      return (
        isInt(r.id) && isStr(r.g) && isStr(r.k) && isStr(r.at) && isStr(r.fa) && isInt(r.n) && isStr(r.err) && isStr(r.c) && isEvent(r.e) && 'b' in r
      );
    case 'handled':
      return isInt(r.id) && isStr(r.k) && (r.how === 'replay' || r.how === 'discard') && isStr(r.ha);
    default:
      return false;
  }
}

export function decodeMainRecord(line: Buffer): Decoded<MainRecord> {
  const d = decodeJson(line);
  if (!d.ok) return d;
  return isMainRecord(d.record) ? { ok: true, record: d.record as unknown as MainRecord } : { ok: false, reason: 'unknown record shape' };
}

export function decodeDeadLetterRecord(line: Buffer): Decoded<DeadLetterRecord> {
  const d = decodeJson(line);
  if (!d.ok) return d;
  return isDeadLetterRecord(d.record)
    ? { ok: true, record: d.record as unknown as DeadLetterRecord }
    : { ok: false, reason: 'unknown record shape' };
}

const REP_PREFIX = Buffer.from('{"t":"rep"', 'latin1');

/** Cheap test (no CRC, no JSON) for the only record kind `refresh()` needs: a CLI replay. */
export function looksLikeReplay(line: Buffer): boolean {
  return line.length > 9 + REP_PREFIX.length && line.subarray(9, 9 + REP_PREFIX.length).equals(REP_PREFIX);
}
