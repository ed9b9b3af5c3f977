import { expect } from 'chai';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { keyValueFrom, svc, useTempHome } from '../support/cli';
import { startServe, type ServeProcess } from '../support/serve';
import { Upstream } from '../engine/support/upstream';

const FLOW = `---
tenant: acme
flow: forward
config: [UPSTREAM]
concurrency: 4
retry: { max_attempts: 5, backoff_ms: 20, max_backoff_ms: 100 }
---

\`\`\`yaml step
id: send
type: http
method: POST
url: \${config.UPSTREAM}/deliver
body: { id: "\${message.id}", n: "\${body.n}" }
\`\`\`
`;

describe('kill -9 of svc serve under load loses no acknowledged message (real processes)', function () {
  this.timeout(180_000);
  const env = useTempHome();

  it('every message that got a 202 is processed at least once after restarts; the audit chain verifies', async () => {
    const upstream = await Upstream.start((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
    const { home } = env;
    svc(['tenant', 'create', '--id', 'acme', '--display-name', 'Acme'], { home });
    const f = join(home, 'forward.flow.md');
    writeFileSync(f, FLOW);
    expect(svc(['deploy', f, '-v', '1'], { home }).status).to.equal(0);
    const key = keyValueFrom(svc(['keys', 'create', '--tenant', 'acme', '--label', 'k'], { home }).stdout);
    const accepted = new Set<string>();
    let next = 0;
    const total = 400;
    const rounds = 3;
    let server: ServeProcess | undefined;
    try {
      for (let round = 0; round <= rounds; round++) {
        server = await startServe(home, [], { SVC_CONFIG_UPSTREAM: upstream.base });
        const url = `${server.url}/flows/acme/forward/enqueue`;
        const killAt = Date.now() + 200 + Math.floor(Math.random() * 600);
        const producers = Array.from({ length: 8 }, async () => {
          while (next < total && (round === rounds || Date.now() < killAt)) {
            const n = next++;
            try {
              const res = await fetch(url, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ n }) });
              if (res.status === 202) accepted.add(String(n));
              else await res.arrayBuffer();
            } catch {
              // The server died mid-request: no 202, so nothing was promised.
            }
          }
        });
        if (round < rounds) {
          await new Promise((r) => setTimeout(r, killAt - Date.now()));
          server.child.kill('SIGKILL');
          await Promise.all(producers);
          const child = server.child;
          if (child.exitCode === null && child.signalCode === null) await new Promise((r) => child.once('exit', r));
        } else {
          await Promise.all(producers);
        }
      }
      const delivered = (): Set<string> => new Set(upstream.requests.map((r) => String((JSON.parse(r.body) as { n: number }).n)));
      const end = Date.now() + 60_000;
      while (Date.now() < end && [...accepted].some((n) => !delivered().has(n))) await new Promise((r) => setTimeout(r, 100));
      const missing = [...accepted].filter((n) => !delivered().has(n));
      expect(accepted.size).to.be.greaterThan(50);
      expect(missing, `accepted but never delivered: ${missing.join(',')}`).to.deep.equal([]);
      await server?.stop();
      const audit = svc(['audit', '--tenant', 'acme', '--verify', '--limit', '1'], { home });
      expect(audit.status, audit.stdout).to.equal(0);
      expect(audit.stdout).to.contain('chain integrity: OK');
      expect(svc(['dlq', 'list'], { home }).stdout.trim()).to.equal('DLQ is empty.');
    } finally {
      if (server && server.child.exitCode === null) server.child.kill('SIGKILL');
      await upstream.close();
    }
  });
});
