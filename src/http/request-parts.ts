import type { Context } from 'koa';

/** Headers a flow must never see: its caller's credentials. */
const HIDDEN = new Set(['authorization', 'x-svc-signature', 'cookie', 'proxy-authorization']);

/** Lower-cased request headers for the flow's `headers`, credentials removed. */
export function flowHeaders(ctx: Context): Record<string, string> {
  const headers = ctx.req.headers;
  const out: Record<string, string> = {};
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined || HIDDEN.has(name)) continue;
    out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

export function flowQuery(ctx: Context): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  if (ctx.querystring === '') return out;
  const query = ctx.query;
  for (const name in query) {
    const value = query[name];
    if (value !== undefined) out[name] = value;
  }
  return out;
}

/** The announced body length, or undefined for chunked bodies. */
export function contentLength(ctx: Context): number | undefined {
  const raw = ctx.req.headers['content-length'];
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  return Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

/** Scheme the client used: X-Forwarded-Proto from the TLS-terminating proxy, else http. */
export function requestScheme(ctx: Context): 'http' | 'https' {
  const forwarded = ctx.get('x-forwarded-proto').split(',')[0]?.trim().toLowerCase();
  return forwarded === 'https' ? 'https' : 'http';
}
