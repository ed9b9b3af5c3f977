import Router from '@koa/router';
import Koa, { type Context, type Middleware, type Next } from 'koa';
import type { CommandBus, QueryBus } from '../infra/bus/bus';
import type { Logger } from '../infra/logging/logger';
import { correlationIdOf, type SvcState } from './correlation';
import { sendError } from './error-body';
import { flowRoutes } from './routes/flow-routes';
import { routeTable } from './route-table';

/**
 * The Koa application: correlation ids, one error shape, and the routes over the buses.
 * Two middlewares in all (this one and the router): every layer costs a closure call and a
 * promise per request.
 */
export function buildHttpApp(commands: CommandBus, queries: QueryBus, logger: Logger, bodyTimeoutMs: number): Koa {
  const app = new Koa();
  app.silent = true;
  const failed = (ctx: Context, err: unknown): void => {
    logger.log('error', 'request failed', {
      correlation_id: (ctx.state as SvcState).correlationId,
      method: ctx.method,
      path: ctx.path,
      error: err instanceof Error ? err.message : String(err),
    });
    sendError(ctx, 500, 'internal', 'internal error; the log has details under this X-Correlation-ID');
  };
  const settle = (ctx: Context): void => {
    if (ctx.status === 404 && ctx.body === undefined) sendError(ctx, 404, 'not_found', 'no such route');
    if (ctx.status === 405 && (ctx.body === undefined || typeof ctx.body === 'string')) sendError(ctx, 405, 'method_not_allowed', `${ctx.method} is not allowed here`, { Allow: ctx.response.get('Allow') });
  };
  // One router declares every route; routeTable dispatches to them (see there).
  const router = new Router();
  // OPTIONS, 405 and 501 answers; they only concern requests no route answered, so they run
  // inside the first layer for those alone instead of as a layer of every request.
  // (typed for the router's context; it reads only ctx.matched, ctx.method and ctx.status)
  const allowedMethods = router.allowedMethods() as unknown as Middleware;
  const nothing = (): Promise<void> => Promise.resolve();

  // Correlation id and the one error shape in a single layer.
  app.use(async (ctx: Context, next: Next) => {
    const id = correlationIdOf(ctx.req.headers);
    (ctx.state as SvcState).correlationId = id;
    ctx.res.setHeader('X-Correlation-ID', id);
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) await allowedMethods(ctx, nothing);
    } catch (err) {
      failed(ctx, err);
    }
    settle(ctx);
  });

  router.get('/health', (ctx) => {
    ctx.status = 200;
    ctx.body = '';
    ctx.remove('Content-Type');
  });
  flowRoutes(router, commands, queries, bodyTimeoutMs);
  app.use(routeTable(router));
  return app;
}
