/**
 * The real HTTP egress on undici: one keep-alive Agent (connection reuse across runs), and one
 * more Agent per flow that uses TLS client material, built from the flow's certificate, key and
 * CA files, read once per prepared flow.
 */
import { readFile } from 'node:fs/promises';
import type { Agent, Dispatcher } from 'undici';

type Undici = typeof import('undici');
let undiciModule: Undici | undefined;
/** undici is loaded by the first outbound call: a server whose flows make none never pays for it. */
function undici(): Undici {
  return (undiciModule ??= require('undici') as Undici);
}
import { EgressError, type EgressRequest, type EgressResponse, type HttpEgress, type TlsClientFiles } from './http-egress';

export interface UndiciEgressOptions {
  /** Idle keep-alive time of pooled connections (default 10 s). */
  keepAliveTimeoutMs?: number;
  /** Connection limit per origin (default: none). */
  connectionsPerOrigin?: number;
  /** Largest answer body accepted (default 16 MiB). */
  maxResponseBytes?: number;
  /** Time to establish a connection (default 10 s). */
  connectTimeoutMs?: number;
}

const DEFAULT_MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

const CONNECTION_CODES: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset by the upstream',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'connection timed out',
  EPIPE: 'connection closed by the upstream',
  UND_ERR_CONNECT_TIMEOUT: 'connect timeout',
  UND_ERR_SOCKET: 'connection closed by the upstream',
  UND_ERR_CLOSED: 'connection closed',
  UND_ERR_HEADERS_TIMEOUT: 'no answer headers in time',
  UND_ERR_BODY_TIMEOUT: 'answer body stalled',
  UND_ERR_RES_CONTENT_LENGTH_MISMATCH: 'answer shorter or longer than its content-length',
  HPE_INVALID_CONSTANT: 'the answer is not HTTP',
};

function errorCode(e: unknown): string | undefined {
  let cur: unknown = e;
  for (let depth = 0; depth < 4 && typeof cur === 'object' && cur !== null; depth++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    cur = (cur as { cause?: unknown }).cause;
  }
  return undefined;
}

function toEgressError(e: unknown, signal: AbortSignal | undefined): EgressError {
  if (e instanceof EgressError) return e;
  if (signal?.aborted === true) return new EgressError('aborted', 'the request was aborted');
  const code = errorCode(e);
  const message = e instanceof Error ? e.message : String(e);
  if (code === 'UND_ERR_INVALID_ARG' || code === 'ERR_INVALID_URL' || code === 'ERR_INVALID_CHAR') {
    return new EgressError('invalid_request', message);
  }
  if (code === 'UND_ERR_ABORTED') return new EgressError('aborted', 'the request was aborted');
  const known = code === undefined ? undefined : CONNECTION_CODES[code];
  if (known !== undefined) return new EgressError('connection', `${known} (${code})`);
  if (code !== undefined && /CERT|TLS|SSL|SELF_SIGNED|UNABLE_TO/.test(code)) return new EgressError('connection', `TLS handshake failed: ${message} (${code})`);
  return new EgressError('connection', code === undefined ? message : `${message} (${code})`);
}

function flattenHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(h)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

async function readFileOrNull(path: string | null, what: string): Promise<Buffer | undefined> {
  if (path === null) return undefined;
  try {
    return await readFile(path);
  } catch (e) {
    throw new EgressError('tls_material', `cannot read the TLS ${what} '${path}' (${errorCode(e) ?? 'error'})`);
  }
}

export class UndiciEgress implements HttpEgress {
  private sharedAgent: Agent | undefined;
  private readonly tlsAgents = new WeakMap<TlsClientFiles, Promise<Agent>>();
  private readonly openAgents = new Set<Agent>();
  private readonly maxResponseBytes: number;
  private readonly agentOptions: Agent.Options;

  constructor(options: UndiciEgressOptions = {}) {
    this.maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    this.agentOptions = {
      keepAliveTimeout: options.keepAliveTimeoutMs ?? 10_000,
      keepAliveMaxTimeout: 600_000,
      connectTimeout: options.connectTimeoutMs ?? 10_000,
      ...(options.connectionsPerOrigin === undefined ? {} : { connections: options.connectionsPerOrigin }),
    };
  }

  /** The keep-alive Agent shared by calls without TLS client material, made on first use. */
  private get agent(): Agent {
    if (this.sharedAgent === undefined) {
      this.sharedAgent = new (undici().Agent)(this.agentOptions);
      this.openAgents.add(this.sharedAgent);
    }
    return this.sharedAgent;
  }

  async request(req: EgressRequest): Promise<EgressResponse> {
    const dispatcher = req.tls === undefined ? this.agent : await this.tlsAgent(req.tls);
    let res: Dispatcher.ResponseData;
    try {
      res = await undici().request(req.url, {
        dispatcher,
        method: req.method as Dispatcher.HttpMethod,
        headers: req.headers,
        body: req.body ?? null,
        signal: req.signal ?? null,
        maxRedirections: 0,
      });
    } catch (e) {
      throw toEgressError(e, req.signal);
    }
    try {
      const body = await this.readBody(res.body);
      return { status: res.statusCode, headers: flattenHeaders(res.headers), body };
    } catch (e) {
      throw toEgressError(e, req.signal);
    }
  }

  async close(): Promise<void> {
    const agents = [...this.openAgents];
    this.openAgents.clear();
    await Promise.all(agents.map((a) => a.close().catch(() => undefined)));
  }

  private async readBody(body: Dispatcher.ResponseData['body']): Promise<Buffer> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of body) {
      const buf = chunk as Buffer;
      size += buf.length;
      if (size > this.maxResponseBytes) {
        body.destroy();
        throw new EgressError('response_too_large', `the answer is larger than ${this.maxResponseBytes} bytes`);
      }
      chunks.push(buf);
    }
    return chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size);
  }

  /** The Agent of a flow's TLS material: files read once per TlsClientFiles object. */
  private tlsAgent(files: TlsClientFiles): Promise<Agent> {
    let agent = this.tlsAgents.get(files);
    if (agent === undefined) {
      agent = this.buildTlsAgent(files);
      this.tlsAgents.set(files, agent);
      // a failed read is not cached: the next request tries again (files may be fixed meanwhile)
      agent.catch(() => this.tlsAgents.delete(files));
    }
    return agent;
  }

  private async buildTlsAgent(files: TlsClientFiles): Promise<Agent> {
    const [cert, key, ca] = await Promise.all([
      readFileOrNull(files.certFile, 'client certificate'),
      readFileOrNull(files.keyFile, 'client key'),
      readFileOrNull(files.caFile, 'CA certificate'),
    ]);
    const agent = new (undici().Agent)({
      ...this.agentOptions,
      connect: { ...(cert === undefined ? {} : { cert }), ...(key === undefined ? {} : { key }), ...(ca === undefined ? {} : { ca }) },
    });
    this.openAgents.add(agent);
    return agent;
  }
}

/** The real egress with default options. */
export function createUndiciEgress(options: UndiciEgressOptions = {}): HttpEgress {
  return new UndiciEgress(options);
}
