import * as fs from 'node:fs';

/**
 * The two calls on the durable path, behind a seam so tests can inject ENOSPC, EIO or a torn
 * (partial) write. Everything else uses node:fs directly (tests reach those with real files).
 */
export interface QueueFileOps {
  /** One write() at the end of an O_APPEND descriptor; resolves the byte count written. */
  write(fd: number, data: Buffer): Promise<number>;
  fdatasync(fd: number): Promise<void>;
}

export const realFileOps: QueueFileOps = {
  write: (fd, data) =>
    new Promise((resolve, reject) => {
      fs.write(fd, data, 0, data.length, null, (err, written) => (err ? reject(err) : resolve(written)));
    }),
  fdatasync: (fd) =>
    new Promise((resolve, reject) => {
      fs.fdatasync(fd, (err) => (err ? reject(err) : resolve()));
    }),
};
