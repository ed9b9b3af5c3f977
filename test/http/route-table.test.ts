/**
 * routeTable dispatches to the routes declared on a @koa/router Router without the router's
 * per-request composition. It must be indistinguishable from the router: the same route, the
 * same ctx.params (decoding, '+', bad escapes), and the router's own 404/405/501/OPTIONS answers
 * for everything no route takes. Both run behind real HTTP servers on 127.0.0.1.
 */
import Router from '@koa/router';
import { expect } from 'chai';
import Koa from 'koa';
import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import { routeTable } from '../../src/http/route-table';

function declare(): Router {
  const router = new Router();
  const echo = (route: string) => (ctx: Router.RouterContext) => {
    ctx.body = { route, params: ctx.params, matched: ctx._matchedRoute };
  };
  router.get('/health', echo('health'));
  router.post('/flows/:tenant/:name/run', echo('run'));
  router.post('/flows/:tenant/:name/enqueue', echo('enqueue'));
  router.get('/flows/:tenant/:name', echo('info'));
  router.get('/flows/:tenant/:name/wsdl', echo('wsdl'));
  router.post('/connector/events/:tenant/:source', echo('event'));
  return router;
}

function serve(useTable: boolean): Promise<{ server: Server; url: string }> {
  const app = new Koa();
  const router = declare();
  app.use(useTable ? routeTable(router) : router.routes());
  app.use(router.allowedMethods());
  const server = createServer(app.callback());
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })));
}

const REQUESTS: ReadonlyArray<[string, string]> = [
  ['GET', '/health'],
  ['HEAD', '/health'],
  ['POST', '/flows/acme/orders/run'],
  ['POST', '/flows/acme/orders/run/'],
  ['POST', '/flows/ac%20me/or+ders/run'],
  ['POST', '/flows/acme/%E0%A4%A/run'],
  ['POST', '/flows/acme/%2e%2e%2fx/run'],
  ['POST', '/flows/acme/orders/enqueue'],
  ['GET', '/flows/acme/orders'],
  ['GET', '/flows/acme/orders/wsdl'],
  ['HEAD', '/flows/acme/orders/wsdl'],
  ['POST', '/connector/events/acme/shop.v1'],
  ['PUT', '/flows/acme/orders/run'],
  ['GET', '/flows/acme/orders/run'],
  ['OPTIONS', '/flows/acme/orders/run'],
  ['PATCH', '/flows/acme/orders'],
  ['POST', '/flows/acme'],
  ['POST', '/FLOWS/acme/orders/run'],
  ['GET', '/nowhere'],
  ['PROPFIND', '/health'],
];

async function answer(url: string, method: string, path: string): Promise<{ status: number; allow: string | null; body: string }> {
  const res = await fetch(url + path, { method });
  return { status: res.status, allow: res.headers.get('allow'), body: await res.text() };
}

describe('routeTable: dispatch over a @koa/router route table', () => {
  let table: { server: Server; url: string };
  let router: { server: Server; url: string };

  before(async () => {
    table = await serve(true);
    router = await serve(false);
  });
  after(() => {
    table.server.close();
    router.server.close();
  });

  it('answers every request exactly as the router itself does', async () => {
    for (const [method, path] of REQUESTS) {
      expect(await answer(table.url, method, path), `${method} ${path}`).to.deep.equal(await answer(router.url, method, path));
    }
  });

  it('decodes parameters as the router does: escapes, + as a space, a bad escape kept as sent', async () => {
    const res = await fetch(`${table.url}/flows/ac%20me/or+ders/run`, { method: 'POST' });
    expect(await res.json()).to.deep.equal({ route: 'run', params: { tenant: 'ac me', name: 'or ders' }, matched: '/flows/:tenant/:name/run' });
    const bad = await fetch(`${table.url}/flows/acme/%E0%A4%A/run`, { method: 'POST' });
    expect(((await bad.json()) as { params: unknown }).params).to.deep.equal({ tenant: 'acme', name: '%E0%A4%A' });
  });

  it('refuses at start a route it could not call directly', () => {
    const router = new Router();
    router.get('/two', (_ctx, next) => next(), (ctx) => {
      ctx.body = 'two';
    });
    expect(() => routeTable(router)).to.throw(/\/two must have exactly one handler/);
  });
});
