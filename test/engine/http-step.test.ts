/** The http step against real upstreams: request building, answers, expect, garbage, retries, timeouts. */
import { expect } from 'chai';
import { compile, Harness } from './support/harness';
import { closedPort, delay, json, Upstream } from './support/upstream';

describe('engine: http step', () => {
  let h: Harness;
  const ups: Upstream[] = [];
  const upstream = async (handler: Parameters<typeof Upstream.start>[0]): Promise<Upstream> => {
    const u = await Upstream.start(handler);
    ups.push(u);
    return u;
  };
  beforeEach(() => {
    h = new Harness();
  });
  afterEach(async () => {
    await h.close();
    await Promise.all(ups.splice(0).map((u) => u.close()));
  });

  it('sends method, url, query, headers, JSON body and X-Correlation-ID; answers {status, headers, body}', async () => {
    const up = await upstream((_req, res) => json(res, 201, { id: 'erp-9' }, { 'x-upstream': 'yes' }));
    const ir = compile({
      fm: 'config: [BASE]',
      steps: [
        `id: post
type: http
method: POST
url: \${config.BASE}/orders
query: { page: 2, tags: [a, b], skip: null }
headers: { Idempotency-Key: "\${body.order_id}", X-Count: 3 }
body: { ref: "\${body.order_id}", total: "\${body.amount}" }
expect: [200, 201]`,
      ],
    });
    const r = await h.run(ir, { body: { order_id: 'o-1', amount: 12.5 }, config: { BASE: up.base } });
    expect(r.status).to.equal(200);
    expect(r.body).to.deep.include({ status: 201, body: { id: 'erp-9' } });
    expect((r.body as { headers: Record<string, string> }).headers['x-upstream']).to.equal('yes');
    const req = up.requests[0];
    expect(req?.method).to.equal('POST');
    expect(req?.url).to.equal('/orders?page=2&tags=a&tags=b');
    expect(req?.headers['idempotency-key']).to.equal('o-1');
    expect(req?.headers['x-count']).to.equal('3');
    expect(req?.headers['x-correlation-id']).to.equal('corr-123');
    expect(req?.headers['content-type']).to.equal('application/json');
    expect(JSON.parse(req?.body ?? '')).to.deep.equal({ ref: 'o-1', total: 12.5 });
  });

  it('encodes a map as a form with content_type form-urlencoded; non-JSON answers stay text', async () => {
    const up = await upstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('plain answer');
    });
    const ir = compile({
      fm: 'config: [BASE]',
      steps: [`id: form\ntype: http\nmethod: PUT\nurl: \${config.BASE}/f\ncontent_type: application/x-www-form-urlencoded\nbody: { a: "1 2", b: "\${body.x}" }`],
    });
    const r = await h.run(ir, { body: { x: 'é&' }, config: { BASE: up.base } });
    expect(r.body).to.deep.include({ status: 200, body: 'plain answer' });
    expect(up.requests[0]?.headers['content-type']).to.equal('application/x-www-form-urlencoded');
    expect(up.requests[0]?.body).to.equal('a=1+2&b=%C3%A9%26');
  });

  it('a status outside expect gives 502 upstream_error naming step, call and statuses', async () => {
    const up = await upstream((_req, res) => json(res, 404, { error: 'nope' }));
    const ir = compile({ fm: 'config: [BASE]', steps: [`id: get_it\ntype: http\nurl: \${config.BASE}/things/1?secret=x`] });
    const r = await h.run(ir, { config: { BASE: up.base } });
    expect(r.status).to.equal(502);
    expect(r.error).to.deep.include({ code: 'upstream_error', step: 'get_it' });
    expect(r.error?.message).to.contain("step 'get_it'").and.contain(`GET ${up.base}/things/1 answered 404`).and.contain('200-299');
    expect(r.error?.message).not.to.contain('secret=x');
  });

  it('garbage from an upstream that says JSON gives 502 with a clear message', async () => {
    const up = await upstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      res.end('<html>not json</html>');
    });
    const ir = compile({ fm: 'config: [BASE]', steps: [`id: fetch\ntype: http\nurl: \${config.BASE}/x`] });
    const r = await h.run(ir, { config: { BASE: up.base } });
    expect(r.status).to.equal(502);
    expect(r.error?.code).to.equal('upstream_error');
    expect(r.error?.message).to.contain("step 'fetch'").and.contain('not valid JSON');
  });

  it('connection refused gives 502 upstream_error', async () => {
    const port = await closedPort();
    const ir = compile({ steps: [`id: down\ntype: http\nurl: http://127.0.0.1:${port}/x`] });
    const r = await h.run(ir);
    expect(r.status).to.equal(502);
    expect(r.error?.code).to.equal('upstream_error');
    expect(r.error?.message).to.contain("step 'down'").and.contain('connection refused');
  });

  it('retries 5xx with exponential backoff and succeeds', async () => {
    const times: number[] = [];
    const up = await upstream((_req, res, i) => {
      times.push(Date.now());
      if (i < 2) json(res, 503, { busy: true });
      else json(res, 200, { ok: true });
    });
    const ir = compile({ fm: 'config: [BASE]', steps: [`id: flaky\ntype: http\nurl: \${config.BASE}/x\nretry: { attempts: 3, backoff_ms: 40 }`] });
    const r = await h.run(ir, { config: { BASE: up.base } });
    expect(r.status).to.equal(200);
    expect(r.body).to.deep.include({ status: 200, body: { ok: true } });
    expect(up.requests).to.have.length(3);
    expect((times[1] ?? 0) - (times[0] ?? 0)).to.be.at.least(35);
    expect((times[2] ?? 0) - (times[1] ?? 0)).to.be.at.least(75); // 40 ms, then 80 ms
  });

  it('retries 429 and connection errors; gives up after the attempts; no retry for 4xx or without retry', async () => {
    const up = await upstream((req, res) => {
      if (req.url === '/limited') json(res, 429, {});
      else json(res, 400, {});
    });
    const ir = compile({
      fm: 'config: [BASE]',
      steps: [
        `id: limited\ntype: http\nurl: \${config.BASE}/limited\nretry: { attempts: 3, backoff_ms: 1 }\non_error: continue`,
        `id: bad\ntype: http\nurl: \${config.BASE}/bad\nretry: { attempts: 3, backoff_ms: 1 }\non_error: continue`,
        `id: once\ntype: http\nurl: \${config.BASE}/limited\non_error: continue`,
      ],
    });
    const r = await h.run(ir, { config: { BASE: up.base } });
    expect(up.requests.map((q) => q.url)).to.deep.equal(['/limited', '/limited', '/limited', '/bad', '/limited']);
    expect(r.status).to.equal(200);
    expect((r.body as { error: { message: string } }).error.message).to.contain('answered 429');

    const port = await closedPort();
    const down = compile({ steps: [`id: down\ntype: http\nurl: http://127.0.0.1:${port}/\nretry: { attempts: 2, backoff_ms: 1 }`] });
    const d = await h.run(down);
    expect(d.status).to.equal(502);
    expect(d.error?.message).to.contain('after 2 attempts');
  });

  it('a 500 that expect accepts is not retried and not an error', async () => {
    const up = await upstream((_req, res) => json(res, 500, { e: 1 }));
    const ir = compile({ fm: 'config: [BASE]', steps: [`id: x\ntype: http\nurl: \${config.BASE}/\nexpect: 5xx\nretry: { attempts: 3, backoff_ms: 1 }`] });
    const r = await h.run(ir, { config: { BASE: up.base } });
    expect(r.body).to.deep.include({ status: 500 });
    expect(up.requests).to.have.length(1);
  });

  it('an upstream that hangs: the step timeout gives 504 timeout naming the step', async () => {
    const up = await upstream(() => undefined);
    const ir = compile({ fm: 'config: [BASE]', steps: [`id: slow\ntype: http\nurl: \${config.BASE}/\ntimeout_ms: 150`] });
    const started = Date.now();
    const r = await h.run(ir, { config: { BASE: up.base } });
    expect(Date.now() - started).to.be.below(2000);
    expect(r.status).to.equal(504);
    expect(r.error).to.deep.include({ code: 'timeout', step: 'slow' });
    expect(r.error?.message).to.contain("step 'slow'").and.contain('150 ms');
  });

  it("an upstream that hangs: the flow's timeout_ms gives 504 timeout, also through retries", async () => {
    const up = await upstream(() => undefined);
    const ir = compile({
      fm: 'config: [BASE]\ntimeout_ms: 200',
      steps: [`id: first\ntype: transform\nvalue: 1`, `id: slow\ntype: http\nurl: \${config.BASE}/\nretry: { attempts: 5, backoff_ms: 10 }\non_error: continue`, `id: never\ntype: transform\nvalue: 2`],
    });
    const started = Date.now();
    const r = await h.run(ir, { config: { BASE: up.base } });
    expect(Date.now() - started).to.be.below(2000);
    expect(r.status).to.equal(504);
    expect(r.error?.code).to.equal('timeout');
    expect(r.error?.message).to.contain('200 ms').and.contain("step 'slow'");
    expect(r.stepsRun).to.equal(2);
  });

  it('on_error: continue stores {error: {code, message}} and the flow goes on', async () => {
    const up = await upstream(() => undefined);
    const ir = compile({
      fm: 'config: [BASE]',
      steps: [
        `id: slow\ntype: http\nurl: \${config.BASE}/\ntimeout_ms: 100\non_error: continue`,
        `id: after\ntype: transform\nvalue: { code: "\${steps.slow.error.code}", ok: false }`,
      ],
    });
    const r = await h.run(ir, { config: { BASE: up.base } });
    expect(r.status).to.equal(200);
    expect(r.body).to.deep.equal({ code: 'timeout', ok: false });
    expect(h.logs.some((l) => l.level === 'warn' && l.message.includes("step 'slow' failed, continuing"))).to.equal(true);
  });

  it('reuses connections (keep-alive) across steps and runs', async () => {
    const up = await upstream((_req, res) => json(res, 200, {}));
    const ir = compile({ fm: 'config: [BASE]', steps: [`id: a\ntype: http\nurl: \${config.BASE}/a`, `id: b\ntype: http\nurl: \${config.BASE}/b`] });
    for (let i = 0; i < 3; i++) expect((await h.run(ir, { config: { BASE: up.base } })).status).to.equal(200);
    expect(up.requests).to.have.length(6);
    // undici releases a connection just after the body ends, so back-to-back calls may open a second one
    expect(up.connections).to.be.at.most(2);
  });

  it('bad values give 500 flow_error: a url that is not a URL, a header that is a map', async () => {
    const ir1 = compile({ steps: [`id: u\ntype: http\nurl: \${body.u}`] });
    const r1 = await h.run(ir1, { body: { u: 'not a url' } });
    expect(r1.status).to.equal(500);
    expect(r1.error?.message).to.contain("step 'u'").and.contain('not an absolute URL');
    const ir2 = compile({ steps: [`id: hd\ntype: http\nurl: http://127.0.0.1:1/\nheaders: { X-A: "\${body}" }`] });
    const r2 = await h.run(ir2, { body: { a: 1 } });
    expect(r2.status).to.equal(500);
    expect(r2.error?.message).to.contain('headers.X-A must be a string');
  });

  it('an external signal cancels the run', async () => {
    const up = await upstream(() => undefined);
    const ir = compile({ fm: 'config: [BASE]', steps: [`id: slow\ntype: http\nurl: \${config.BASE}/`] });
    const ac = new AbortController();
    const p = h.run(ir, { config: { BASE: up.base } }, ac.signal);
    await delay(50);
    ac.abort();
    const r = await p;
    expect(r.status).to.equal(500);
    expect(r.error?.message).to.contain('cancelled');
  });
});
