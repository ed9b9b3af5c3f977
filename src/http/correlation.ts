import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { Context, Next } from 'koa';

const USABLE = /^[\x21-\x7e]{1,128}$/;

function usable(value: string | string[] | undefined): value is string {
  return typeof value === 'string' && value !== '' && USABLE.test(value);
}

/** Adopts X-Correlation-ID, else X-Request-ID, else a new UUID. */
export function correlationIdOf(headers: IncomingHttpHeaders): string {
  const correlation = headers['x-correlation-id'];
  if (usable(correlation)) return correlation;
  const request = headers['x-request-id'];
  if (usable(request)) return request;
  return randomUUID();
}

/** Adopts X-Correlation-ID, else X-Request-ID, else a new UUID; every response carries it. */
export function correlationId(ctx: Context): string {
  return correlationIdOf(ctx.req.headers);
}

export interface SvcState {
  correlationId: string;
}

export async function correlationMiddleware(ctx: Context, next: Next): Promise<void> {
  const id = correlationId(ctx);
  (ctx.state as SvcState).correlationId = id;
  ctx.set('X-Correlation-ID', id);
  await next();
}
