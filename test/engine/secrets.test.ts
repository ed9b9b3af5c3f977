/** Secret values never reach a RunResult or a log record, whatever path they take. */
import { expect } from 'chai';
import type { RunResult } from '../../src/engine';
import { compile, Harness } from './support/harness';
import { closedPort, json, Upstream } from './support/upstream';

const SECRET = 's3cr3t-K3y/with+chars';

describe('engine: secrets stay secret', () => {
  let h: Harness;
  let up: Upstream;
  beforeEach(async () => {
    h = new Harness();
    up = await Upstream.start((req, res) => json(res, 500, { echo: req.headers['x-api-key'], url: req.url }));
  });
  afterEach(async () => {
    await h.close();
    await up.close();
  });

  const leaks = (r: RunResult): string[] => {
    const texts = [JSON.stringify(r), ...h.logs.map((l) => JSON.stringify(l))];
    return texts.filter((t) => t.includes(SECRET) || t.includes(encodeURIComponent(SECRET)));
  };

  it('a secret in a header and the URL of a failing http step is in neither the result nor the logs', async () => {
    const ir = compile({
      fm: 'config: [API]\nsecrets: [API_KEY]',
      steps: [
        `id: call
type: http
url: \${config.API}/v1?key=\${secrets.API_KEY}
headers: { X-Api-Key: "\${secrets.API_KEY}" }
retry: { attempts: 2, backoff_ms: 1 }`,
      ],
    });
    const r = await h.run(ir, { config: { API: up.base }, secrets: { API_KEY: SECRET }, headers: {} });
    expect(up.requests[0]?.headers['x-api-key']).to.equal(SECRET); // it was really sent
    expect(r.status).to.equal(502);
    expect(leaks(r)).to.deep.equal([]);
  });

  it('a secret inside a URL that is not a URL, and in an expression error, is redacted', async () => {
    const ir = compile({
      fm: 'secrets: [API_KEY]',
      steps: [`id: call\ntype: http\nurl: "no-scheme/\${secrets.API_KEY}"\non_error: continue`, `id: num\ntype: transform\nvalue: \${$number(secrets.API_KEY)}`],
    });
    const r = await h.run(ir, { secrets: { API_KEY: SECRET } });
    expect(r.status).to.equal(500);
    expect(r.error?.step).to.equal('num');
    expect(r.error?.message).to.contain('[redacted]');
    expect(leaks(r)).to.deep.equal([]);
    expect(h.logs.some((l) => l.message.includes("step 'call' failed, continuing") && l.message.includes('[redacted]'))).to.equal(true);
  });

  it('a secret value that reaches a log message through the body is redacted', async () => {
    const ir = compile({ steps: [`id: note\ntype: log\nmessage: got \${body.token}`] });
    const r = await h.run(ir, { body: { token: SECRET }, secrets: { OTHER: SECRET } });
    expect(h.logs[0]?.message).to.equal('got [redacted]');
    expect(leaks(r)).to.deep.equal([]);
  });

  it('a connection error with a secret in the query does not leak it', async () => {
    const port = await closedPort();
    const ir = compile({ fm: 'secrets: [API_KEY]', steps: [`id: call\ntype: http\nurl: http://127.0.0.1:${port}/\nquery: { key: "\${secrets.API_KEY}" }`] });
    const r = await h.run(ir, { secrets: { API_KEY: SECRET } });
    expect(r.status).to.equal(502);
    expect(leaks(r)).to.deep.equal([]);
  });
});
