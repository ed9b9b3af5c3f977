import type Router from '@koa/router';
import type { Middleware, Next } from 'koa';

interface Route {
  readonly regexp: RegExp;
  readonly methods: ReadonlySet<string>;
  readonly names: readonly string[];
  readonly path: string;
  readonly handler: Router.Middleware;
}

/** @koa/router's reading of a path segment: `+` is a space, and a bad escape stays as sent. */
function decodeParam(text: string): string {
  if (!text.includes('%') && !text.includes('+')) return text;
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/**
 * Dispatches to the routes declared on a @koa/router Router with one regular-expression match
 * per route tried. The router's own dispatch composes the matched layers into a new middleware
 * chain, reads the Host header and decodes every parameter on every request: about 3 us and
 * 3 KB of garbage per /run request (bench/README.md). Each route here has exactly one handler,
 * so it is called directly with `ctx.params` set as the router would set them.
 *
 * A request no route answers goes to the router itself, which sets `ctx.matched` for its
 * `allowedMethods()` (405, 501, OPTIONS).
 */
export function routeTable(router: Router): Middleware {
  const routes: Route[] = router.stack.map((layer) => {
    const handler = layer.stack[0];
    if (layer.stack.length !== 1 || handler === undefined || typeof layer.path !== 'string') {
      throw new Error(`route ${String(layer.path)} must have exactly one handler and a string path`);
    }
    return { regexp: layer.regexp, methods: new Set(layer.methods), names: layer.paramNames.map((p) => String(p.name)), path: layer.path, handler };
  });
  const fallback = router.routes();
  const dispatch = (ctx: Router.RouterContext, next: Next): Promise<void> => {
    const path = ctx.path;
    const method = ctx.method;
    for (const route of routes) {
      if (!route.methods.has(method)) continue;
      const match = route.regexp.exec(path);
      if (match === null) continue;
      const params: Record<string, string> = {};
      for (let i = 0; i < route.names.length; i++) {
        const captured = match[i + 1];
        if (captured !== undefined && captured.length > 0) params[route.names[i] as string] = decodeParam(captured);
      }
      ctx.params = params;
      ctx.router = router;
      ctx._matchedRoute = route.path;
      return route.handler(ctx, next) as Promise<void>;
    }
    return fallback(ctx, next) as Promise<void>;
  };
  // (typed for the router's context: Koa hands every middleware the same object)
  return dispatch as unknown as Middleware;
}
