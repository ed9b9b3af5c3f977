import { expect } from 'chai';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { keyValueFrom, svc, svcAsync, useTempHome } from '../support/cli';
import { startServe, type ServeProcess } from '../support/serve';
import { Upstream } from '../engine/support/upstream';

const until = async (what: string, check: () => boolean | Promise<boolean>, ms = 15_000): Promise<void> => {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
};

const FORWARD = (name: string, extra = ''): string => `---
tenant: acme
flow: ${name}
config: [UPSTREAM]
retry: { max_attempts: 3, backoff_ms: 20, max_backoff_ms: 40 }
${extra}---

\`\`\`yaml step
id: send
type: http
method: POST
url: \${config.UPSTREAM}/deliver
body: { id: "\${message.id}", attempt: "\${message.attempt}", door: "\${door}", payload: "\${body}" }
\`\`\`
`;

describe('the queue door: /enqueue, workers, retries, dead letters (real server)', function () {
  this.timeout(90_000);
  const env = useTempHome();
  let upstream: Upstream;
  let status = 200;
  let server: ServeProcess;
  let key: string;

  beforeEach(async () => {
    status = 200;
    upstream = await Upstream.start((_req, res) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end('{}');
    });
    const { home } = env;
    svc(['tenant', 'create', '--id', 'acme', '--display-name', 'Acme'], { home });
    const f = join(home, 'forward.flow.md');
    writeFileSync(f, FORWARD('forward', 'input: { type: object, required: [n], properties: { n: { type: integer } } }\n'));
    expect(svc(['deploy', f, '-v', '1'], { home }).status).to.equal(0);
    key = keyValueFrom(svc(['keys', 'create', '--tenant', 'acme', '--label', 'k'], { home }).stdout);
    server = await startServe(home, [], { SVC_CONFIG_UPSTREAM: upstream.base });
  });
  afterEach(async () => {
    if (server.child.exitCode === null) await server.stop();
    await upstream.close();
  });

  const enqueue = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${server.url}/flows/acme/forward/enqueue`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

  it('answers 202 {message_id, correlation_id} and a worker delivers it once, attempt 1, door enqueue', async () => {
    const res = await enqueue({ n: 1 }, { 'X-Correlation-ID': 'q-1' });
    expect(res.status).to.equal(202);
    const json = (await res.json()) as { message_id: string; correlation_id: string };
    expect(json.correlation_id).to.equal('q-1');
    expect(json.message_id).to.match(/^\d+$/);
    await until('delivery', () => upstream.requests.length === 1);
    const sent = JSON.parse(upstream.requests[0]?.body ?? '{}') as Record<string, unknown>;
    expect(sent).to.deep.include({ id: json.message_id, attempt: 1, door: 'enqueue' });
    expect(upstream.requests[0]?.headers['x-correlation-id']).to.equal('q-1');
    expect(await server.stop()).to.equal(0);
    const audit = svc(['audit', '--tenant', 'acme', '--verify'], { home: env.home });
    expect(audit.stdout).to.match(/queue\.message\.enqueued\s+\S+\s+q-1/);
    expect(audit.stdout).to.match(/queue\.message\.processed\s+\S+\s+q-1/);
    expect(audit.stdout).to.contain('chain integrity: OK');
  });

  it('passes the same gate as /run: 401, 404, and 400 for input that fails the schema (nothing enqueued)', async () => {
    expect((await fetch(`${server.url}/flows/acme/forward/enqueue`, { method: 'POST', body: '{}' })).status).to.equal(401);
    expect((await fetch(`${server.url}/flows/acme/nope/enqueue`, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: '{}' })).status).to.equal(404);
    const bad = await enqueue({ n: 'one' });
    expect(bad.status).to.equal(400);
    expect(((await bad.json()) as { error: { code: string } }).error.code).to.equal('invalid_input');
    await new Promise((r) => setTimeout(r, 300));
    expect(upstream.requests).to.have.length(0);
  });

  it('a flow that always fails ends in the DLQ after exactly max_attempts attempts; replay delivers it again with a fresh counter', async () => {
    status = 500;
    const res = await enqueue({ n: 7 });
    const { message_id } = (await res.json()) as { message_id: string };
    await until('dead letter', () => svc(['dlq', 'list'], { home: env.home }).stdout.includes('1 pending'));
    expect(upstream.requests.map((r) => (JSON.parse(r.body) as { attempt: number }).attempt)).to.deep.equal([1, 2, 3]);
    const list = svc(['dlq', 'list'], { home: env.home }).stdout;
    expect(list).to.match(new RegExp(`^${message_id}\\s+acme\\s+forward\\s+\\S+\\s+\\S+\\s+3\\s+502 upstream_error`, 'm'));
    status = 200;
    const replay = await svcAsync(['dlq', 'replay', '--tenant', 'acme', '--flow', 'forward', '--id', message_id], { home: env.home });
    expect(replay.stdout.trim()).to.equal(`replayed id=${message_id} tenant=acme flow=forward`);
    await until('replayed delivery', () => upstream.requests.length === 4);
    expect((JSON.parse(upstream.requests[3]?.body ?? '{}') as { attempt: number }).attempt).to.equal(1);
    expect(svc(['dlq', 'list'], { home: env.home }).stdout.trim()).to.equal('DLQ is empty.');
  });

  it('an unwritable queue answers 503, never 202', async () => {
    await server.stop();
    const { home } = env;
    const { mkdirSync, writeFileSync: write } = await import('node:fs');
    mkdirSync(join(home, '.svc', 'queues', 'acme'), { recursive: true });
    const { rmSync } = await import('node:fs');
    rmSync(join(home, '.svc', 'queues', 'acme', 'forward'), { recursive: true, force: true });
    write(join(home, '.svc', 'queues', 'acme', 'forward'), 'not a directory');
    server = await startServe(home, [], { SVC_CONFIG_UPSTREAM: upstream.base });
    const res = await enqueue({ n: 1 });
    expect(res.status).to.equal(503);
    expect(((await res.json()) as { error: { code: string } }).error.code).to.equal('queue_unavailable');
  });

  it('graceful stop: SIGTERM finishes deliveries in flight and exits 0; nothing is lost across a restart', async () => {
    for (let i = 0; i < 20; i++) expect((await enqueue({ n: i })).status).to.equal(202);
    expect(await server.stop()).to.equal(0);
    server = await startServe(env.home, [], { SVC_CONFIG_UPSTREAM: upstream.base });
    await until('all 20 delivered', () => new Set(upstream.requests.map((r) => (JSON.parse(r.body) as { id: string }).id)).size === 20);
  });
});
