import Database from 'better-sqlite3';
import { expect } from 'chai';
import { createHmac } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { keyValueFrom, svc, svcAsync, useTempHome } from '../support/cli';
import { startServe, type ServeProcess } from '../support/serve';

const ORDERS = `---
tenant: acme
flow: orders
description: Shape an order
required_scope: orders:write
config: [SHOP_NAME]
input:
  type: object
  required: [order_id]
  properties:
    order_id: { type: string }
---

# Orders

\`\`\`yaml step
id: shape
type: transform
value:
  id: \${body.order_id}
  shop: \${config.SHOP_NAME}
  correlation: \${correlation_id}
\`\`\`
`;

const SMALL = `---
tenant: acme
flow: small
max_message_bytes: 64
---

\`\`\`yaml step
id: echo
type: transform
value: \${body}
\`\`\`
`;

const BETA = `---
tenant: beta
flow: ping
---

\`\`\`yaml step
id: pong
type: respond
status: 201
headers: { X-Pong: "yes" }
body: { pong: true }
\`\`\`
`;

interface Reply {
  status: number;
  headers: Headers;
  text: string;
}

async function call(url: string, init: RequestInit & { key?: string } = {}): Promise<Reply> {
  const headers = new Headers(init.headers);
  if (init.key) headers.set('authorization', `Bearer ${init.key}`);
  if (init.body !== undefined && !headers.has('content-type')) headers.set('content-type', 'application/json');
  const res = await fetch(url, { ...init, headers });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

describe('svc serve: HTTP doors and the gate (real server on 127.0.0.1)', function () {
  this.timeout(60_000);
  const env = useTempHome();
  let server: ServeProcess;
  let acmeKey: string;
  let narrowKey: string;
  let betaKey: string;

  beforeEach(async () => {
    const { home } = env;
    const w = (name: string, text: string): string => {
      const f = join(home, name);
      writeFileSync(f, text);
      return f;
    };
    svc(['tenant', 'create', '--id', 'acme', '--display-name', 'Acme'], { home });
    svc(['tenant', 'create', '--id', 'beta', '--display-name', 'Beta'], { home });
    for (const [file, version] of [
      [w('orders.flow.md', ORDERS), '1.0.0'],
      [w('small.flow.md', SMALL), '1.0.0'],
      [w('beta.flow.md', BETA), '1.0.0'],
    ] as const) {
      const r = svc(['deploy', file, '-v', version], { home });
      expect(r.status, r.stderr).to.equal(0);
    }
    acmeKey = keyValueFrom(svc(['keys', 'create', '--tenant', 'acme', '--label', 'all'], { home }).stdout);
    narrowKey = keyValueFrom(svc(['keys', 'create', '--tenant', 'acme', '--label', 'narrow', '--scopes', 'orders:read', '--flows', 'small', '--rate-limit', '1'], { home }).stdout);
    betaKey = keyValueFrom(svc(['keys', 'create', '--tenant', 'beta', '--label', 'b'], { home }).stdout);
    server = await startServe(home, [], { SVC_CONFIG_SHOP_NAME: 'Acme Shop' });
  });

  afterEach(async () => {
    if (server.child.exitCode === null) await server.stop();
  });

  it('prints the banner with paths and both security lines; /health is public with no body', async () => {
    const out = server.stdout();
    for (const label of ['registry db:', 'ui db:', 'audit db:', 'log db:', 'queue dir:']) expect(out).to.contain(label);
    expect(out).to.contain('webhook signature verification: disabled');
    expect(out).to.contain('API key authentication: enabled');
    const health = await call(`${server.url}/health`);
    expect(health.status).to.equal(200);
    expect(health.text).to.equal('');
    expect(health.headers.get('x-correlation-id')).to.match(/^[0-9a-f-]{36}$/);
  });

  it('runs a flow with a valid key: 200, the output, X-Svc-Flow-Version and the adopted correlation id', async () => {
    const r = await call(`${server.url}/flows/acme/orders/run`, { method: 'POST', key: acmeKey, body: JSON.stringify({ order_id: 'A-1' }), headers: { 'X-Request-ID': 'req-42' } });
    expect(r.status, r.text).to.equal(200);
    expect(JSON.parse(r.text)).to.deep.equal({ id: 'A-1', shop: 'Acme Shop', correlation: 'req-42' });
    expect(r.headers.get('x-svc-flow-version')).to.equal('1.0.0');
    expect(r.headers.get('x-correlation-id')).to.equal('req-42');
    const both = await call(`${server.url}/flows/acme/orders/run`, { method: 'POST', key: acmeKey, body: '{"order_id":"x"}', headers: { 'X-Request-ID': 'r', 'X-Correlation-ID': 'c' } });
    expect(both.headers.get('x-correlation-id')).to.equal('c');
  });

  it('a respond step sets status, headers and body', async () => {
    const r = await call(`${server.url}/flows/beta/ping/run`, { method: 'POST', key: betaKey });
    expect(r.status).to.equal(201);
    expect(r.headers.get('x-pong')).to.equal('yes');
    expect(JSON.parse(r.text)).to.deep.equal({ pong: true });
  });

  it('401 for a missing key, a non-Bearer header, an unknown key', async () => {
    const url = `${server.url}/flows/acme/orders/run`;
    for (const headers of [{} as Record<string, string>, { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` }, { authorization: 'Bearer svck_nope' }, { authorization: 'Bearer' }]) {
      const r = await call(url, { method: 'POST', headers, body: '{"order_id":"1"}' });
      expect(r.status, JSON.stringify(headers)).to.equal(401);
      expect(JSON.parse(r.text).error.code).to.equal('unauthorized');
    }
  });

  it('an anonymous caller announcing a huge body gets 401, not 413, and the body is not read', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(`${server.url}/flows/acme/small/run`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(50 * 1024 * 1024) } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.write('{"a":');
    });
    expect(status).to.equal(401);
  });

  it('404 for an unknown flow, an unregistered tenant, a disabled tenant and odd paths: byte-for-byte the same body', async () => {
    const bodies = new Set<string>();
    const unknown = await call(`${server.url}/flows/acme/nope/run`, { method: 'POST', key: acmeKey, body: '{}' });
    expect(unknown.status).to.equal(404);
    bodies.add(unknown.text);
    svc(['tenant', 'disable', '--id', 'acme'], { home: env.home });
    const disabled = await call(`${server.url}/flows/acme/orders/run`, { method: 'POST', key: acmeKey, body: '{"order_id":"1"}' });
    expect(disabled.status).to.equal(404);
    bodies.add(disabled.text);
    for (const path of ['/flows/ACME/orders/run', '/flows/acme/..%2F..%2Fetc/run', '/flows/%00/x/run', '/flows/ghost/orders/run']) {
      const r = await call(`${server.url}${path}`, { method: 'POST', key: betaKey, body: '{}' });
      expect(r.status, path).to.equal(404);
      if (path.startsWith('/flows/ghost')) bodies.add(r.text);
    }
    expect([...bodies]).to.deep.equal(['{"error":{"code":"not_found","message":"no such flow"}}']);
    svc(['tenant', 'enable', '--id', 'acme'], { home: env.home });
    const back = await call(`${server.url}/flows/acme/orders/run`, { method: 'POST', key: acmeKey, body: '{"order_id":"1"}' });
    expect(back.status).to.equal(200);
  });

  it('a key of another tenant gets the same 404', async () => {
    const r = await call(`${server.url}/flows/acme/orders/run`, { method: 'POST', key: betaKey, body: '{"order_id":"1"}' });
    expect(r.status).to.equal(404);
    expect(r.text).to.equal('{"error":{"code":"not_found","message":"no such flow"}}');
  });

  it('revoking a key takes effect at the next request, without a restart', async () => {
    const url = `${server.url}/flows/acme/orders/run`;
    expect((await call(url, { method: 'POST', key: acmeKey, body: '{"order_id":"1"}' })).status).to.equal(200);
    const r = await svcAsync(['keys', 'revoke', '--id', '1'], { home: env.home });
    expect(r.status, r.stderr).to.equal(0);
    const after = await call(url, { method: 'POST', key: acmeKey, body: '{"order_id":"1"}' });
    expect(after.status).to.equal(401);
    expect(JSON.parse(after.text).error.message).to.contain('revoked');
  });

  it('an expired key is refused with 401', async () => {
    const db = new Database(join(env.home, '.svc', 'registry.db'));
    db.prepare("UPDATE api_keys SET expires_at = '2001-01-01T00:00:00.000Z' WHERE id = 1").run();
    db.close();
    const r = await call(`${server.url}/flows/acme/orders/run`, { method: 'POST', key: acmeKey, body: '{"order_id":"1"}' });
    expect(r.status).to.equal(401);
    expect(JSON.parse(r.text).error.message).to.contain('expired');
  });

  it('403 for a missing scope and for a flow outside the allowlist; both audited as access.denied', async () => {
    const scope = await call(`${server.url}/flows/acme/orders/run`, { method: 'POST', key: narrowKey, body: '{"order_id":"1"}' });
    expect(scope.status).to.equal(403);
    expect(JSON.parse(scope.text).error).to.deep.include({ code: 'forbidden' });
    expect(JSON.parse(scope.text).error.message).to.contain("scope 'orders:write'");
    expect(await server.stop()).to.equal(0);
    const audit = svc(['audit', '--tenant', 'acme', '--verify'], { home: env.home });
    expect(audit.stdout).to.match(/access\.denied/);
    expect(audit.stdout).to.contain('chain integrity: OK');
    const denied = server.logRecords().filter((r) => r.event === 'access_denied');
    expect(denied.map((d) => d.reason)).to.include('scope_missing');
    expect(denied.every((d) => typeof d.correlation_id === 'string')).to.equal(true);
  });

  it('429 with Retry-After once the key outruns its bucket (capacity 2x rate); refusals spend tokens', async () => {
    const url = `${server.url}/flows/acme/small/run`;
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await call(url, { method: 'POST', key: narrowKey, body: '{}' })).status);
    expect(statuses.slice(0, 2)).to.deep.equal([200, 200]);
    const limited = await call(url, { method: 'POST', key: narrowKey, body: '{}' });
    expect(limited.status).to.equal(429);
    expect(Number(limited.headers.get('retry-after'))).to.be.at.least(1);
    expect(JSON.parse(limited.text).error.code).to.equal('rate_limited');
  });

  it('413 from Content-Length before reading, and while reading a chunked body', async () => {
    const url = `${server.url}/flows/acme/small/run`;
    const big = JSON.stringify({ pad: 'x'.repeat(200) });
    const announced = await call(url, { method: 'POST', key: acmeKey, body: big });
    expect(announced.status).to.equal(413);
    expect(JSON.parse(announced.text).error.code).to.equal('payload_too_large');
    const chunked = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${acmeKey}`, 'transfer-encoding': 'chunked' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      for (let i = 0; i < 10; i++) req.write('{"pad":"' + 'y'.repeat(40) + '"}');
      req.end();
    });
    expect(chunked).to.equal(413);
    const fits = await call(url, { method: 'POST', key: acmeKey, body: '{"a":1}' });
    expect(fits.status).to.equal(200);
  });

  it('400 for malformed JSON and for input that fails the schema; 415 for a wrong content type', async () => {
    const url = `${server.url}/flows/acme/orders/run`;
    const bad = await call(url, { method: 'POST', key: acmeKey, body: '{"order_id":' });
    expect(bad.status).to.equal(400);
    expect(JSON.parse(bad.text).error.code).to.equal('invalid_input');
    const schema = await call(url, { method: 'POST', key: acmeKey, body: '{"order":1}' });
    expect(schema.status).to.equal(400);
    expect(JSON.parse(schema.text).error.code).to.equal('invalid_input');
    const type = await call(url, { method: 'POST', key: acmeKey, body: 'order_id=1', headers: { 'content-type': 'text/plain' } });
    expect(type.status).to.equal(415);
  });

  it('deploying a new version takes effect at the next request', async () => {
    const url = `${server.url}/flows/beta/ping/run`;
    expect((await call(url, { method: 'POST', key: betaKey })).headers.get('x-svc-flow-version')).to.equal('1.0.0');
    const file = join(env.home, 'beta2.flow.md');
    writeFileSync(file, BETA.replace('status: 201', 'status: 202'));
    expect((await svcAsync(['deploy', file, '-v', '2.0.0'], { home: env.home })).status).to.equal(0);
    const r = await call(url, { method: 'POST', key: betaKey });
    expect(r.status).to.equal(202);
    expect(r.headers.get('x-svc-flow-version')).to.equal('2.0.0');
  });

  it('GET /flows/{t}/{n} describes the flow behind the same gate', async () => {
    const r = await call(`${server.url}/flows/acme/orders`, { key: acmeKey });
    expect(r.status).to.equal(200);
    const info = JSON.parse(r.text) as Record<string, unknown>;
    expect(info).to.include({ tenant: 'acme', name: 'orders', version: '1.0.0', description: 'Shape an order', required_scope: 'orders:write' });
    expect(info.hash).to.match(/^[0-9a-f]{64}$/);
    expect(info.config).to.deep.equal(['SHOP_NAME']);
    expect(info.steps).to.deep.equal([{ id: 'shape', type: 'transform' }]);
    expect(info.doors).to.deep.equal(['run', 'enqueue']);
    expect((await call(`${server.url}/flows/acme/orders`)).status).to.equal(401);
  });

  it('the WSDL is public, addressed from the request Host; a disabled tenant gets the unknown-flow 404', async () => {
    const r = await call(`${server.url}/flows/acme/orders/wsdl`);
    expect(r.status).to.equal(200);
    expect(r.headers.get('content-type')).to.match(/xml/);
    expect(r.text).to.contain(`${server.url}/flows/acme/orders/run`);
    svc(['tenant', 'disable', '--id', 'acme'], { home: env.home });
    const gone = await call(`${server.url}/flows/acme/orders/wsdl`);
    expect(gone.status).to.equal(404);
    expect(gone.text).to.equal('{"error":{"code":"not_found","message":"no such flow"}}');
  });

  it('keeps serving after 2,000 requests with random keys; nothing secret reaches the log', async () => {
    const url = `${server.url}/flows/acme/orders/run`;
    let unauthorized = 0;
    for (let batch = 0; batch < 40; batch++) {
      const replies = await Promise.all(
        Array.from({ length: 50 }, () => call(url, { method: 'POST', key: `svck_${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}`, body: '{"order_id":"1"}' })),
      );
      unauthorized += replies.filter((r) => r.status === 401).length;
    }
    expect(unauthorized).to.equal(2000);
    expect((await call(url, { method: 'POST', key: acmeKey, body: '{"order_id":"1"}' })).status).to.equal(200);
    expect(server.stderr()).not.to.contain(acmeKey);
    expect(server.stderr()).not.to.contain('svck_');
  });

  it('a slow sender is cut off by the request timeout; the server keeps serving', async () => {
    await server.stop();
    server = await startServe(env.home, [], { SVC_CONFIG_SHOP_NAME: 'x', SVC_REQUEST_TIMEOUT_MS: '1500' });
    const port = new URL(server.url).port;
    const outcome = await new Promise<string>((resolve) => {
      const socket = connect(Number(port), '127.0.0.1');
      let answer = '';
      socket.setEncoding('utf8');
      socket.on('data', (d: string) => (answer += d));
      socket.on('close', () => resolve(answer));
      socket.write(`POST /flows/acme/small/run HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${acmeKey}\r\nContent-Type: application/json\r\nContent-Length: 40\r\n\r\n{"a":`);
      const trickle = setInterval(() => socket.write(' '), 400);
      socket.on('close', () => clearInterval(trickle));
      setTimeout(() => socket.destroy(), 8000);
    });
    expect(outcome).to.match(/^HTTP\/1\.1 408/);
    expect((await call(`${server.url}/health`)).status).to.equal(200);
  });

  it('stops gracefully on SIGTERM (exit 0) and has written run records to svc-log.db', async () => {
    await call(`${server.url}/flows/acme/orders/run`, { method: 'POST', key: acmeKey, body: '{"order_id":"1"}', headers: { 'X-Correlation-ID': 'rec-1' } });
    expect(await server.stop()).to.equal(0);
    const db = new Database(join(env.home, '.svc', 'svc-log.db'), { readonly: true });
    const run = db.prepare("SELECT * FROM runs WHERE correlation_id = 'rec-1'").get() as Record<string, unknown>;
    db.close();
    expect(run).to.include({ tenant: 'acme', flow: 'orders', version: '1.0.0', door: 'run', status: 200 });
  });
});

describe('svc serve: signatures', function () {
  this.timeout(60_000);
  const env = useTempHome();

  it('--secret demands X-Svc-Signature: sha256=<hex HMAC> over the raw body', async () => {
    const { home } = env;
    svc(['tenant', 'create', '--id', 'beta', '--display-name', 'Beta'], { home });
    const f = join(home, 'beta.flow.md');
    writeFileSync(f, BETA);
    svc(['deploy', f, '-v', '1'], { home });
    const key = keyValueFrom(svc(['keys', 'create', '--tenant', 'beta', '--label', 'b'], { home }).stdout);
    const server = await startServe(home, ['--secret', 's3cret']);
    try {
      expect(server.stdout()).to.contain('webhook signature verification: enabled');
      const url = `${server.url}/flows/beta/ping/run`;
      const body = '{"hello":"world"}';
      const sig = `sha256=${createHmac('sha256', 's3cret').update(body).digest('hex')}`;
      expect((await call(url, { method: 'POST', key, body })).status).to.equal(401);
      expect((await call(url, { method: 'POST', key, body, headers: { 'x-svc-signature': 'sha256=' + '0'.repeat(64) } })).status).to.equal(401);
      expect((await call(url, { method: 'POST', key, body: body + ' ', headers: { 'x-svc-signature': sig } })).status).to.equal(401);
      expect((await call(url, { method: 'POST', key, body, headers: { 'x-svc-signature': sig } })).status).to.equal(201);
    } finally {
      await server.stop();
    }
  });
});
