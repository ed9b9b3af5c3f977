import Router from '@koa/router';
import Koa from 'koa';
import type { CommandBus, QueryBus } from '../infra/bus/bus';
import type { Logger } from '../infra/logging/logger';
import { correlationMiddleware, type SvcState } from './correlation';
import { sendError } from './error-body';
import { flowRoutes } from './routes/flow-routes';

/** The Koa application: correlation ids, one error shape, and the routes over the buses. */
export function buildHttpApp(commands: CommandBus, queries: QueryBus, logger: Logger, bodyTimeoutMs: number): Koa {
  const app = new Koa();
  app.silent = true;
  app.use(correlationMiddleware);
  app.use(async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      logger.log('error', 'request failed', {
        correlation_id: (ctx.state as SvcState).correlationId,
        method: ctx.method,
        path: ctx.path,
        error: err instanceof Error ? err.message : String(err),
      });
      sendError(ctx, 500, 'internal', 'internal error; the log has details under this X-Correlation-ID');
    }
    if (ctx.status === 404 && ctx.body === undefined) sendError(ctx, 404, 'not_found', 'no such route');
    if (ctx.status === 405 && (ctx.body === undefined || typeof ctx.body === 'string')) sendError(ctx, 405, 'method_not_allowed', `${ctx.method} is not allowed here`, { Allow: ctx.response.get('Allow') });
  });

  const health = new Router();
  health.get('/health', (ctx) => {
    ctx.status = 200;
    ctx.body = '';
    ctx.remove('Content-Type');
  });
  const flows = flowRoutes(commands, queries, bodyTimeoutMs);
  app.use(health.routes());
  app.use(flows.routes());
  app.use(flows.allowedMethods());
  return app;
}
