import type { Door } from '../../domain/door';
import type { RunRecord } from '../../domain/run-record';
import type { BatchStore } from '../batch-store';

const INITIAL_ROWS = 1024;
const INITIAL_ID_BYTES = 64 * 1024;
const NO_STRING = -1;

/**
 * Run records waiting for their batch, kept in typed arrays and one byte buffer instead of one
 * object per run. Under load a quarter-second of records would otherwise outlive two young
 * generation collections, be promoted to V8's old generation, and grow it by tens of MiB until
 * a full collection (bench/README.md). Names (tenant, flow, version, door, error code) are
 * interned per batch; correlation ids are copied into the byte buffer as UTF-8.
 */
export class RunRecordColumns implements BatchStore<RunRecord> {
  private rows = 0;
  private startedAt = new Float64Array(INITIAL_ROWS);
  private durationMs = new Float64Array(INITIAL_ROWS);
  private status = new Uint16Array(INITIAL_ROWS);
  /** tenant, flow, version, door, error code: indexes into `names` (or NO_STRING). */
  private nameRefs = new Int32Array(INITIAL_ROWS * 5);
  /** Where each correlation id ends in `ids` (it starts where the previous one ended). */
  private idEnds = new Uint32Array(INITIAL_ROWS);
  private ids = Buffer.allocUnsafeSlow(INITIAL_ID_BYTES);
  private idBytes = 0;
  private names: string[] = [];
  private nameIndex = new Map<string, number>();

  get length(): number {
    return this.rows;
  }

  push(r: RunRecord): void {
    if (this.rows === this.startedAt.length) this.growRows();
    const i = this.rows;
    this.startedAt[i] = r.startedAt;
    this.durationMs[i] = r.durationMs;
    this.status[i] = r.status;
    const refs = i * 5;
    this.nameRefs[refs] = this.intern(r.tenant);
    this.nameRefs[refs + 1] = this.intern(r.flow);
    this.nameRefs[refs + 2] = this.intern(r.version);
    this.nameRefs[refs + 3] = this.intern(r.door);
    this.nameRefs[refs + 4] = r.errorCode === null ? NO_STRING : this.intern(r.errorCode);
    const id = r.correlationId;
    if (this.idBytes + id.length * 3 > this.ids.length) this.growIds(id.length * 3);
    this.idBytes += this.ids.write(id, this.idBytes, 'utf8');
    this.idEnds[i] = this.idBytes;
    this.rows = i + 1;
  }

  take(): RunRecord[] {
    const out = new Array<RunRecord>(this.rows);
    let idStart = 0;
    for (let i = 0; i < this.rows; i++) {
      const refs = i * 5;
      const idEnd = this.idEnds[i] as number;
      const error = this.nameRefs[refs + 4] as number;
      out[i] = {
        startedAt: this.startedAt[i] as number,
        tenant: this.name(refs),
        flow: this.name(refs + 1),
        version: this.name(refs + 2),
        door: this.name(refs + 3) as Door,
        status: this.status[i] as number,
        durationMs: this.durationMs[i] as number,
        correlationId: this.ids.toString('utf8', idStart, idEnd),
        errorCode: error === NO_STRING ? null : (this.names[error] as string),
      };
      idStart = idEnd;
    }
    this.rows = 0;
    this.idBytes = 0;
    this.names = [];
    this.nameIndex = new Map();
    return out;
  }

  private name(ref: number): string {
    return this.names[this.nameRefs[ref] as number] as string;
  }

  private intern(s: string): number {
    let n = this.nameIndex.get(s);
    if (n === undefined) {
      n = this.names.length;
      this.names.push(s);
      this.nameIndex.set(s, n);
    }
    return n;
  }

  private growRows(): void {
    const size = this.startedAt.length * 2;
    const grow = <A extends Float64Array | Uint16Array | Int32Array | Uint32Array>(old: A, make: (n: number) => A, width = 1): A => {
      const next = make(size * width);
      next.set(old);
      return next;
    };
    this.startedAt = grow(this.startedAt, (n) => new Float64Array(n));
    this.durationMs = grow(this.durationMs, (n) => new Float64Array(n));
    this.status = grow(this.status, (n) => new Uint16Array(n));
    this.nameRefs = grow(this.nameRefs, (n) => new Int32Array(n), 5);
    this.idEnds = grow(this.idEnds, (n) => new Uint32Array(n));
  }

  private growIds(atLeast: number): void {
    const next = Buffer.allocUnsafeSlow(Math.max(this.ids.length * 2, this.idBytes + atLeast));
    this.ids.copy(next, 0, 0, this.idBytes);
    this.ids = next;
  }
}
