import { readSync } from 'node:fs';

const NL = 0x0a;

/**
 * Reads `[start, end)` of `fd` in chunks and calls `onLine` for every complete line (without
 * its `\n`) with the line's byte offset. Returns the offset just past the last `\n` seen:
 * bytes after it form an incomplete line (a torn tail, or a write still in progress).
 * The line buffer is only valid during the call.
 */
export function scanLines(
  fd: number,
  start: number,
  end: number,
  onLine: (line: Buffer, offset: number) => void,
  chunkSize = 1 << 20,
): number {
  let pos = start;
  let consumed = start;
  let carry: Buffer | null = null;
  let carryOffset = start;
  while (pos < end) {
    const want = Math.min(chunkSize, end - pos);
    const chunk = Buffer.allocUnsafe(want);
    const got = readSync(fd, chunk, 0, want, pos);
    if (got === 0) break;
    let data = chunk.subarray(0, got);
    let dataOffset = pos;
    if (carry) {
      data = Buffer.concat([carry, data]);
      dataOffset = carryOffset;
      carry = null;
    }
    let lineStart = 0;
    for (;;) {
      const nl = data.indexOf(NL, lineStart);
      if (nl < 0) break;
      onLine(data.subarray(lineStart, nl), dataOffset + lineStart);
      lineStart = nl + 1;
    }
    consumed = dataOffset + lineStart;
    if (lineStart < data.length) {
      carry = data.subarray(lineStart);
      carryOffset = dataOffset + lineStart;
    }
    pos += got;
  }
  return consumed;
}
