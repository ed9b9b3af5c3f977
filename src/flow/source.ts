import * as fs from 'fs';

/** Flow files larger than this are refused before they are read. */
export const MAX_FLOW_FILE_BYTES = 5 * 1024 * 1024;

export type SourceResult = { ok: true; text: string } | { ok: false; line: number; message: string };

/**
 * Reads a flow (or library) file as UTF-8 text. Refuses directories, huge files, binary
 * content and invalid UTF-8 with a message; never throws. Line endings are normalised to LF
 * and a byte order mark is dropped.
 */
export function readFlowSource(path: string): SourceResult {
  let size: number;
  try {
    const st = fs.statSync(path);
    if (st.isDirectory()) {
      return { ok: false, line: 1, message: 'is a directory, not a flow file (give the path of a .flow.md file)' };
    }
    if (!st.isFile()) return { ok: false, line: 1, message: 'is not a regular file' };
    size = st.size;
  } catch (e) {
    return { ok: false, line: 1, message: describeFsError(e) };
  }
  if (size > MAX_FLOW_FILE_BYTES) {
    return {
      ok: false,
      line: 1,
      message: `file is too large (${size} bytes; a flow file may have at most ${MAX_FLOW_FILE_BYTES} bytes = 5 MiB)`,
    };
  }
  let buf: Buffer;
  try {
    buf = fs.readFileSync(path);
  } catch (e) {
    return { ok: false, line: 1, message: describeFsError(e) };
  }
  if (buf.length > MAX_FLOW_FILE_BYTES) {
    return { ok: false, line: 1, message: `file is too large (more than ${MAX_FLOW_FILE_BYTES} bytes = 5 MiB)` };
  }
  const nul = buf.indexOf(0);
  if (nul >= 0) {
    return { ok: false, line: lineAtByte(buf, nul), message: `not a text file: NUL byte at offset ${nul}` };
  }
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(buf);
  } catch {
    const bad = firstInvalidUtf8(buf);
    return { ok: false, line: lineAtByte(buf, bad), message: `not a UTF-8 text file: invalid byte sequence at offset ${bad}` };
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  text = text.replace(/\r\n?/g, '\n');
  return { ok: true, text };
}

function describeFsError(e: unknown): string {
  const code = typeof e === 'object' && e !== null && 'code' in e ? String((e as { code: unknown }).code) : '';
  switch (code) {
    case 'ENOENT':
      return 'no such file';
    case 'ENOTDIR':
      return 'no such file (a part of the path is not a directory)';
    case 'EACCES':
    case 'EPERM':
      return 'cannot read the file: permission denied';
    case 'EISDIR':
      return 'is a directory, not a flow file (give the path of a .flow.md file)';
    case 'ELOOP':
      return 'cannot read the file: too many symbolic links';
    default:
      return `cannot read the file${code ? ` (${code})` : ''}`;
  }
}

function lineAtByte(buf: Buffer, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < buf.length; i++) if (buf[i] === 0x0a) line++;
  return line;
}

/** Offset of the first byte that does not start or continue a valid UTF-8 sequence. */
function firstInvalidUtf8(buf: Buffer): number {
  let i = 0;
  while (i < buf.length) {
    const b = buf[i] ?? 0;
    let n = 0;
    if (b < 0x80) n = 0;
    else if (b >= 0xc2 && b <= 0xdf) n = 1;
    else if (b >= 0xe0 && b <= 0xef) n = 2;
    else if (b >= 0xf0 && b <= 0xf4) n = 3;
    else return i;
    if (n > 0) {
      try {
        new TextDecoder('utf-8', { fatal: true }).decode(buf.subarray(i, i + n + 1));
      } catch {
        return i;
      }
    }
    i += n + 1;
  }
  return Math.max(0, buf.length - 1);
}
