import { randomUUID } from 'node:crypto';
import type { Context, Next } from 'koa';

const USABLE = /^[\x21-\x7e]{1,128}$/;

/** Adopts X-Correlation-ID, else X-Request-ID, else a new UUID; every response carries it. */
export function correlationId(ctx: Context): string {
  for (const name of ['x-correlation-id', 'x-request-id']) {
    const value = ctx.get(name);
    if (value && USABLE.test(value)) return value;
  }
  return randomUUID();
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
