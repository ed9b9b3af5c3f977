import type { Context } from 'koa';

/** Error bodies: `{"error": {"code", "message"}}`; no correlation id in the body (it is a header). */
export function sendError(ctx: Context, status: number, code: string, message: string, headers: Record<string, string> = {}): void {
  ctx.status = status;
  for (const [k, v] of Object.entries(headers)) ctx.set(k, v);
  ctx.type = 'application/json';
  ctx.body = JSON.stringify({ error: { code, message } });
}
