import * as zlib from 'node:zlib';

/** CRC-32 (IEEE 802.3, the zlib polynomial) of UTF-8 text or bytes, as an unsigned integer. */
export type Crc32 = (data: string | Uint8Array) => number;

let table: Uint32Array | undefined;

/** Table-driven fallback for runtimes whose zlib lacks `crc32` (added in Node 20.15). */
function crc32Portable(data: string | Uint8Array): number {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  if (!table) {
    table = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      table[n] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) crc = table[(crc ^ bytes[i]) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

const native = (zlib as { crc32?: (data: string | Uint8Array, value?: number) => number }).crc32;

export const crc32: Crc32 = typeof native === 'function' ? (data) => native(data) >>> 0 : crc32Portable;

/** Exposed for the codec test, which checks both agree. */
export const crc32Fallback: Crc32 = crc32Portable;
