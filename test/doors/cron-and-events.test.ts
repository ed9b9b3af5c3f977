import { expect } from 'chai';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { keyValueFrom, svc, svcAsync, useTempHome } from '../support/cli';
import { startServe } from '../support/serve';
import { Upstream } from '../engine/support/upstream';

const until = async (what: string, check: () => boolean, ms = 15_000): Promise<void> => {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
};

const write = (home: string, name: string, text: string): string => {
  const f = join(home, `${name}.flow.md`);
  writeFileSync(f, text);
  return f;
};

const SEND = (path: string): string => `\`\`\`yaml step
id: send
type: http
method: POST
url: \${config.UPSTREAM}${path}
body: { door: "\${door}", body: "\${body}", event: "\${event}", message: "\${message}" }
\`\`\`
`;

describe('the cron door, connector events and the enqueue step (real server)', function () {
  this.timeout(60_000);
  const env = useTempHome();

  it('runs a scheduled flow on its ticks with the schedule body; a tick finding the previous run still going is skipped and logged; a redeploy reschedules', async () => {
    let delayMs = 0;
    const upstream = await Upstream.start(async (_req, res) => {
      if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
    const { home } = env;
    svc(['tenant', 'create', '--id', 'acme', '--display-name', 'Acme'], { home });
    const tick = (body: string, cron: string): string => `---\ntenant: acme\nflow: ticker\nconfig: [UPSTREAM]\nschedule: { cron: "${cron}", timezone: Europe/Berlin, body: ${body} }\n---\n\n${SEND('/tick')}`;
    expect(svc(['deploy', write(home, 'ticker', tick('{ report: daily }', '* * * * * *')), '-v', '1'], { home }).status).to.equal(0);
    const server = await startServe(home, [], { SVC_CONFIG_UPSTREAM: upstream.base });
    try {
      await until('two ticks', () => upstream.requests.length >= 2);
      const first = JSON.parse(upstream.requests[0]?.body ?? '{}') as { door: string; body: unknown };
      expect(first.door).to.equal('cron');
      expect(first.body).to.deep.equal({ report: 'daily' });
      delayMs = 2500;
      const before = upstream.requests.length;
      await until('a skipped tick', () => server.logRecords().some((r) => String(r.message).includes('cron tick skipped')), 10_000);
      delayMs = 0;
      expect(upstream.requests.length - before).to.be.lessThan(3);
      // Redeploy on an (effectively) never-firing schedule: ticks stop without a restart.
      expect((await svcAsync(['deploy', write(home, 'ticker', tick('{}', '0 0 1 1 *')), '-v', '2'], { home })).status).to.equal(0);
      await new Promise((r) => setTimeout(r, 1500));
      const settled = upstream.requests.length;
      await new Promise((r) => setTimeout(r, 2500));
      expect(upstream.requests.length).to.equal(settled);
    } finally {
      await server.stop();
      await upstream.close();
    }
  });

  it('a connector event fans out through the queue to the subscribed flows the key may call', async () => {
    const upstream = await Upstream.start((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
    const { home } = env;
    svc(['tenant', 'create', '--id', 'acme', '--display-name', 'Acme'], { home });
    const sub = (name: string, events: string): string => `---\ntenant: acme\nflow: ${name}\nconfig: [UPSTREAM]\nevents: ${events}\n---\n\n${SEND(`/${name}`)}`;
    for (const [name, events] of [
      ['on-order', '[{ source: shop, type: order.created }]'],
      ['on-anything', '[{ source: shop, type: "*" }]'],
      ['on-other', '[{ source: crm, type: order.created }]'],
      ['forbidden', '[{ source: shop, type: "*" }]'],
    ] as const) {
      expect(svc(['deploy', write(home, name, sub(name, events)), '-v', '1'], { home }).status).to.equal(0);
    }
    const key = keyValueFrom(svc(['keys', 'create', '--tenant', 'acme', '--label', 'k', '--flows', 'on-order,on-anything,on-other'], { home }).stdout);
    const server = await startServe(home, [], { SVC_CONFIG_UPSTREAM: upstream.base });
    try {
      const res = await fetch(`${server.url}/connector/events/acme/shop`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'x-svc-event-type': 'order.created' },
        body: JSON.stringify({ order_id: 'A-1' }),
      });
      expect(res.status).to.equal(202);
      const json = (await res.json()) as { event_id: string; delivered_to: string[] };
      expect(json.delivered_to.sort()).to.deep.equal(['on-anything', 'on-order']);
      await until('two deliveries', () => upstream.requests.length === 2);
      const got = upstream.requests.map((r) => ({ path: r.url, ...(JSON.parse(r.body) as { door: string; event: { source: string; type: string; id: string } }) }));
      for (const g of got) {
        expect(g.door).to.equal('event');
        expect(g.event).to.deep.equal({ source: 'shop', type: 'order.created', id: json.event_id });
      }
      const typeFromBody = await fetch(`${server.url}/connector/events/acme/shop`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ type: 'order.paid' }) });
      expect(((await typeFromBody.json()) as { delivered_to: string[] }).delivered_to).to.deep.equal(['on-anything']);
      expect((await fetch(`${server.url}/connector/events/acme/shop`, { method: 'POST', body: '{}' })).status).to.equal(401);
    } finally {
      await server.stop();
      await upstream.close();
    }
  });

  it('the enqueue step hands a message to another flow of the tenant', async () => {
    const upstream = await Upstream.start((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
    const { home } = env;
    svc(['tenant', 'create', '--id', 'acme', '--display-name', 'Acme'], { home });
    const sink = `---\ntenant: acme\nflow: sink\nconfig: [UPSTREAM]\n---\n\n${SEND('/sink')}`;
    const source = '---\ntenant: acme\nflow: source\n---\n\n```yaml step\nid: hand_over\ntype: enqueue\nflow: sink\nbody: { from: source, n: "${body.n}" }\n```\n';
    expect(svc(['deploy', write(home, 'sink', sink), '-v', '1'], { home }).status).to.equal(0);
    expect(svc(['deploy', write(home, 'source', source), '-v', '1'], { home }).status).to.equal(0);
    const key = keyValueFrom(svc(['keys', 'create', '--tenant', 'acme', '--label', 'k'], { home }).stdout);
    const server = await startServe(home, [], { SVC_CONFIG_UPSTREAM: upstream.base });
    try {
      const res = await fetch(`${server.url}/flows/acme/source/run`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: '{"n": 5}' });
      expect(res.status).to.equal(200);
      expect(((await res.json()) as { message_id: string }).message_id).to.match(/^\d+$/);
      await until('sink delivery', () => upstream.requests.length === 1);
      const got = JSON.parse(upstream.requests[0]?.body ?? '{}') as { door: string; body: unknown };
      expect(got.door).to.equal('enqueue');
      expect(got.body).to.deep.equal({ from: 'source', n: 5 });
    } finally {
      await server.stop();
      await upstream.close();
    }
  });
});
