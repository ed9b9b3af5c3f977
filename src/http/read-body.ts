import type { IncomingMessage } from 'node:http';

export type BodyRead =
  | { ok: true; raw: Buffer }
  | { ok: false; failure: 'too_large'; received: number }
  | { ok: false; failure: 'timeout' }
  | { ok: false; failure: 'broken'; error: string };

/**
 * Reads the raw body, counting bytes as they arrive: a chunked body that passes `ceiling` is
 * refused without buffering the rest, and a sender still not done after `timeoutMs` is cut off.
 */
export function readBody(req: IncomingMessage, ceiling: number, timeoutMs: number, announced?: number): Promise<BodyRead> {
  const whole = bufferedBody(req, ceiling, announced);
  return whole !== undefined ? Promise.resolve(whole) : streamBody(req, ceiling, timeoutMs);
}

const EMPTY = Buffer.alloc(0);

/**
 * A small body usually arrives with the headers: Node's parser has then already buffered all of
 * it before the route runs (all `announced` bytes, or the whole message). Take it in one read,
 * with no timer, no listeners and no promise of our own. undefined: not all there yet, stream it.
 */
export function bufferedBody(req: IncomingMessage, ceiling: number, announced?: number): BodyRead | undefined {
  if (req.readableFlowing === true || req.readableEncoding !== null || req.readableObjectMode) return undefined;
  if (!req.complete && (announced === undefined || req.readableLength !== announced)) return undefined;
  const received = req.readableLength;
  if (received > ceiling) return { ok: false, failure: 'too_large', received };
  const chunk: unknown = req.read();
  if (chunk === null) return received === 0 ? { ok: true, raw: EMPTY } : undefined;
  if (!Buffer.isBuffer(chunk)) return undefined;
  if (chunk.length !== received) {
    req.unshift(chunk); // not the whole body after all: hand it back and stream
    return undefined;
  }
  return { ok: true, raw: chunk };
}

function streamBody(req: IncomingMessage, ceiling: number, timeoutMs: number): Promise<BodyRead> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let done = false;
    const timer = setTimeout(() => {
      req.pause();
      finish({ ok: false, failure: 'timeout' });
    }, timeoutMs);
    const finish = (result: BodyRead): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('aborted', onAborted);
      resolve(result);
    };
    const onData = (chunk: Buffer): void => {
      received += chunk.length;
      if (received > ceiling) {
        req.pause();
        finish({ ok: false, failure: 'too_large', received });
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => finish({ ok: true, raw: chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks) });
    const onError = (err: Error): void => finish({ ok: false, failure: 'broken', error: err.message });
    const onAborted = (): void => finish({ ok: false, failure: 'broken', error: 'the client aborted the request' });
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('aborted', onAborted);
  });
}
