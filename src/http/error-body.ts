import type { Context } from 'koa';

/** Error bodies: `{"error": {"code", "message"}}`; no correlation id in the body (it is a header). */
export function sendError(ctx: Context, status: number, code: string, message: string, headers: Record<string, string> = {}): void {
  ctx.status = status;
  for (const k in headers) ctx.set(k, headers[k] as string);
  ctx.set('Content-Type', 'application/json; charset=utf-8');
  ctx.body = JSON.stringify({ error: { code, message } });
}
