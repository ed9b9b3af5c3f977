import 'reflect-metadata';
import { expect } from 'chai';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { keyValueFrom, svc, svcAsync, useTempHome } from '../support/cli';
import { STATE_KEY_ENV } from '../support/serve';
import { startServer } from '../../src/infra/serve/start-server';
import { createStderrLogger } from '../../src/infra/logging/logger';

const FLOW = `---
tenant: acme
flow: echo
---

\`\`\`yaml step
id: e
type: transform
value: { got: "\${body.n}" }
\`\`\`
`;

describe('the request path reads the registry from memory (in-process server)', function () {
  this.timeout(60_000);
  const env = useTempHome();

  it('makes no registry query per request, and reloads only when another process commits', async () => {
    const { home } = env;
    svc(['tenant', 'create', '--id', 'acme', '--display-name', 'Acme'], { home });
    const f = join(home, 'echo.flow.md');
    writeFileSync(f, FLOW);
    svc(['deploy', f, '-v', '1'], { home });
    const key = keyValueFrom(svc(['keys', 'create', '--tenant', 'acme', '--label', 'k'], { home }).stdout);
    const server = await startServer({ host: '127.0.0.1', port: 0, db: join(home, '.svc', 'registry.db'), auth: true, logger: createStderrLogger('error'), env: { ...STATE_KEY_ENV } });
    try {
      const stats = server.context.cache.stats;
      const reloadsAtStart = stats.reloads;
      for (let i = 0; i < 50; i++) {
        const res = await fetch(`${server.url}/flows/acme/echo/run`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ n: i }) });
        expect(res.status).to.equal(200);
        await res.arrayBuffer();
      }
      expect(stats.reloads, 'no reload without a commit elsewhere').to.equal(reloadsAtStart);
      expect(stats.checks).to.be.at.least(50);
      expect(stats.prepared, 'the flow is prepared once').to.equal(1);
      await svcAsync(['keys', 'revoke', '--id', '1'], { home });
      const res = await fetch(`${server.url}/flows/acme/echo/run`, { method: 'POST', headers: { authorization: `Bearer ${key}` } });
      expect(res.status).to.equal(401);
      expect(stats.reloads).to.equal(reloadsAtStart + 1);
      expect(stats.prepared, 'an unchanged flow is not prepared again').to.equal(1);
    } finally {
      await server.close();
    }
  });
});
