import type { Context } from 'koa';

/** Headers a flow must never see: its caller's credentials. */
const HIDDEN = new Set(['authorization', 'x-svc-signature', 'cookie', 'proxy-authorization']);

/** Lower-cased request headers for the flow's `headers`, credentials removed. */
export function flowHeaders(ctx: Context): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(ctx.headers)) {
    if (HIDDEN.has(name) || value === undefined) continue;
    out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

export function flowQuery(ctx: Context): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(ctx.query)) if (value !== undefined) out[name] = value;
  return out;
}

/** The announced body length, or undefined for chunked bodies. */
export function contentLength(ctx: Context): number | undefined {
  const raw = ctx.get('content-length');
  if (raw === '') return undefined;
  const n = Number(raw);
  return Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

/** Scheme the client used: X-Forwarded-Proto from the TLS-terminating proxy, else http. */
export function requestScheme(ctx: Context): 'http' | 'https' {
  const forwarded = ctx.get('x-forwarded-proto').split(',')[0]?.trim().toLowerCase();
  return forwarded === 'https' ? 'https' : 'http';
}
