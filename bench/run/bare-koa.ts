/**
 * The baseline of the /run benchmark: a bare Koa server doing the same transform in plain
 * JavaScript, with no gate. Prints its URL on stdout. Run: node dist/bench/run/bare-koa.js
 */
import Koa from 'koa';
import type { AddressInfo } from 'node:net';

interface Order {
  order_id: string;
  currency: string;
  customer: { name: string; email: string; city: string };
  shipping: { method: string };
  items: Array<{ sku: string; price: number; qty: number }>;
}

function transform(o: Order): Record<string, unknown> {
  return {
    id: o.order_id,
    customer: o.customer.name.toUpperCase(),
    email: o.customer.email.toLowerCase(),
    city: o.customer.city
      .split(' ')
      .map((w) => w.slice(0, 1).toUpperCase() + w.slice(1).toLowerCase())
      .join(' '),
    lines: o.items.length,
    units: o.items.reduce((s, i) => s + i.qty, 0),
    total: Math.round(o.items.reduce((s, i) => s + i.price * i.qty, 0) * 100) / 100,
    skus: o.items.map((i) => i.sku).join(','),
    express: o.shipping.method === 'express',
    currency: o.currency.toUpperCase(),
  };
}

const app = new Koa();
app.use(async (ctx) => {
  const chunks: Buffer[] = [];
  for await (const chunk of ctx.req) chunks.push(chunk as Buffer);
  const order = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Order;
  ctx.type = 'application/json';
  ctx.body = JSON.stringify(transform(order));
});
const server = app.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
