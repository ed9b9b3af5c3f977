/** Real HTTP upstreams for engine tests: a server on 127.0.0.1, port 0, recording every request. */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  remotePort: number | undefined;
}

export type UpstreamHandler = (req: RecordedRequest, res: http.ServerResponse, index: number) => void | Promise<void>;

export class Upstream {
  readonly requests: RecordedRequest[] = [];
  /** TCP connections accepted (keep-alive reuse keeps this low). */
  connections = 0;

  private constructor(private readonly server: http.Server) {}

  static async start(handler: UpstreamHandler): Promise<Upstream> {
    const server = http.createServer();
    const up = new Upstream(server);
    server.on('connection', () => {
      up.connections++;
    });
    server.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const rec: RecordedRequest = {
          method: req.method ?? '',
          url: req.url ?? '',
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          remotePort: req.socket.remotePort,
        };
        up.requests.push(rec);
        Promise.resolve(handler(rec, res, up.requests.length - 1)).catch(() => res.destroy());
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return up;
  }

  get base(): string {
    const { port } = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

export function json(res: http.ServerResponse, status: number, body: unknown, headers: http.OutgoingHttpHeaders = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** A port nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const s = http.createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

export const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
