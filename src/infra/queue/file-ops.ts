import * as fs from 'node:fs';

/**
 * The calls on the durable path, behind a seam so tests can inject ENOSPC, EIO or a torn
 * (partial) write. Everything else uses node:fs directly (tests reach those with real files).
 */
export interface QueueFileOps {
  /**
   * The log files are opened O_DSYNC: each write() returns once its data is on disk (a write
   * and an fdatasync in one system call, so one trip through libuv's thread pool per batch
   * instead of two), and `fdatasync` is not called after it.
   */
  readonly syncedWrites: boolean;
  /** One write() at the end of an O_APPEND descriptor; resolves the byte count written. */
  write(fd: number, data: Buffer): Promise<number>;
  fdatasync(fd: number): Promise<void>;
}

export const realFileOps: QueueFileOps = {
  syncedWrites: fs.constants.O_DSYNC !== undefined,
  write: (fd, data) =>
    new Promise((resolve, reject) => {
      fs.write(fd, data, 0, data.length, null, (err, written) => (err ? reject(err) : resolve(written)));
    }),
  fdatasync: (fd) =>
    new Promise((resolve, reject) => {
      fs.fdatasync(fd, (err) => (err ? reject(err) : resolve()));
    }),
};
