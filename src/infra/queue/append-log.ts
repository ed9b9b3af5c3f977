import * as fs from 'node:fs';
import { dirname } from 'node:path';
import { QueueUnavailable, unavailable } from './errors';
import { QueueFileOps } from './file-ops';
import { scanLines } from './line-scanner';
import { TMP_INFIX } from './paths';

const OPEN_FLAGS = fs.constants.O_RDWR | fs.constants.O_APPEND | fs.constants.O_CREAT;
const SYNCED_FLAGS = OPEN_FLAGS | (fs.constants.O_DSYNC ?? 0);

/**
 * One append-only log file, held open O_RDWR|O_APPEND (and O_DSYNC with synced writes). Appends
 * are a single write() each, so two processes appending at once never interleave inside a
 * batch; reads use positioned reads on the same descriptor.
 */
export class AppendLog {
  private fd: number;

  constructor(
    readonly path: string,
    private readonly ops: QueueFileOps,
  ) {
    this.fd = AppendLog.openFd(path, ops.syncedWrites);
  }

  static openFd(path: string, synced: boolean): number {
    try {
      const fd = fs.openSync(path, synced ? SYNCED_FLAGS : OPEN_FLAGS, 0o644);
      const st = fs.fstatSync(fd);
      if (st.isFIFO() || st.isSocket()) {
        fs.closeSync(fd);
        throw Object.assign(new Error('not a file'), { code: 'EFTYPE' });
      }
      return fd;
    } catch (err) {
      throw unavailable(err, path, 'open');
    }
  }

  get descriptor(): number {
    return this.fd;
  }

  get isOpen(): boolean {
    return this.fd >= 0;
  }

  size(): number {
    try {
      return fs.fstatSync(this.fd).size;
    } catch (err) {
      throw unavailable(err, this.path, 'fstat');
    }
  }

  /** One write() of the whole batch, durable when it returns (O_DSYNC, or an fdatasync after it). A short write fails the batch. */
  async writeBatch(data: Buffer): Promise<void> {
    const fd = this.fd;
    let written: number;
    try {
      written = await this.ops.write(fd, data);
    } catch (err) {
      throw unavailable(err, this.path, 'write');
    }
    if (written !== data.length) throw new QueueUnavailable(this.path, 'ENOSPC', `short write (${written} of ${data.length} bytes) to`);
    if (this.ops.syncedWrites) return;
    try {
      await this.ops.fdatasync(fd);
    } catch (err) {
      throw unavailable(err, this.path, 'fdatasync');
    }
  }

  /** Synchronous append + fdatasync (the CLI: one record per command). */
  appendSync(data: Buffer): void {
    let written: number;
    try {
      written = fs.writeSync(this.fd, data, 0, data.length, null);
    } catch (err) {
      throw unavailable(err, this.path, 'write');
    }
    if (written !== data.length) throw new QueueUnavailable(this.path, 'ENOSPC', `short write (${written} of ${data.length} bytes) to`);
    if (this.ops.syncedWrites) return;
    try {
      fs.fdatasyncSync(this.fd);
    } catch (err) {
      throw unavailable(err, this.path, 'fdatasync');
    }
  }

  scan(start: number, end: number, onLine: (line: Buffer, offset: number) => void): number {
    try {
      return scanLines(this.fd, start, end, onLine);
    } catch (err) {
      throw unavailable(err, this.path, 'read');
    }
  }

  /** Cuts a torn tail away (caller holds the flow lock). */
  truncateTo(length: number): void {
    try {
      fs.ftruncateSync(this.fd, length);
      fs.fdatasyncSync(this.fd);
    } catch (err) {
      throw unavailable(err, this.path, 'truncate');
    }
  }

  /** After an atomic rewrite replaced the file: hold the new one. */
  reopen(): void {
    this.close();
    this.fd = AppendLog.openFd(this.path, this.ops.syncedWrites);
  }

  close(): void {
    if (this.fd >= 0) {
      try {
        fs.closeSync(this.fd);
      } catch {
        // already gone; nothing left to flush (every batch was fdatasync'ed)
      }
      this.fd = -1;
    }
  }
}

/**
 * Replaces `path` with `content` atomically: temp file, fdatasync, rename, fsync of the folder.
 * A crash leaves either the old file or the new one (and maybe a temp file, removed at open).
 */
export function rewriteAtomically(path: string, content: Buffer): void {
  const tmp = `${path}${TMP_INFIX}${process.pid}`;
  try {
    const fd = fs.openSync(tmp, 'w', 0o644);
    try {
      if (content.length > 0) fs.writeSync(fd, content, 0, content.length, 0);
      fs.fdatasyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, path);
  } catch (err) {
    try {
      fs.unlinkSync(tmp);
    } catch {
      // never created
    }
    throw unavailable(err, path, 'rewrite');
  }
  fsyncDir(dirname(path));
}

export function fsyncDir(dir: string): void {
  try {
    const fd = fs.openSync(dir, 'r');
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  } catch (err) {
    throw unavailable(err, dir, 'fsync');
  }
}
