import 'reflect-metadata';
import { expect } from 'chai';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { keyValueFrom, svc, useTempHome } from '../support/cli';
import { STATE_KEY_ENV } from '../support/serve';
import { startServer } from '../../src/infra/serve/start-server';
import { createStderrLogger } from '../../src/infra/logging/logger';

const flow = (name: string, steps: string, front = ''): string => `---\ntenant: acme\nflow: ${name}\n${front}---\n\n${steps}`;
const step = (yaml: string): string => `\`\`\`yaml step\n${yaml}\n\`\`\`\n\n`;

describe('call_flow to a deployed flow (in-process server, real HTTP)', function () {
  this.timeout(60_000);
  const env = useTempHome();

  it('runs the latest version of the callee with its own config; a loop ends with flow_error', async () => {
    const { home } = env;
    svc(['tenant', 'create', '--id', 'acme', '--display-name', 'Acme'], { home });
    const files: Array<[string, string]> = [
      ['pricing', flow('pricing', step('id: price\ntype: transform\nvalue: { net: "${body.amount}", vat: "${$round(body.amount * 0.2, 2)}", region: "${config.REGION}" }'), 'config: [REGION]\n')],
      ['checkout', flow('checkout', step('id: priced\ntype: call_flow\nflow: pricing\ninput: { amount: "${body.total}" }') + step('id: out\ntype: transform\nvalue: { gross: "${steps.priced.net + steps.priced.vat}", region: "${steps.priced.region}" }'))],
      ['ping', flow('ping', step('id: p\ntype: call_flow\nflow: pong'))],
      ['pong', flow('pong', step('id: p\ntype: call_flow\nflow: ping'))],
    ];
    for (const [name, text] of files) {
      const f = join(home, `${name}.flow.md`);
      writeFileSync(f, text);
      const r = svc(['deploy', f, '-v', '1'], { home });
      expect(r.status, r.stderr).to.equal(0);
    }
    const key = keyValueFrom(svc(['keys', 'create', '--tenant', 'acme', '--label', 'k'], { home }).stdout);
    const server = await startServer({ host: '127.0.0.1', port: 0, db: join(home, '.svc', 'registry.db'), auth: true, logger: createStderrLogger('error'), env: { ...STATE_KEY_ENV, SVC_CONFIG_REGION: 'eu' } });
    const post = async (name: string, body: unknown) => {
      const res = await fetch(`${server.url}/flows/acme/${name}/run`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    try {
      const ok = await post('checkout', { total: 100 });
      expect(ok).to.deep.equal({ status: 200, body: { gross: 120, region: 'eu' } });
      const loop = await post('ping', {});
      expect(loop.status).to.equal(500);
      expect(JSON.stringify(loop.body)).to.contain('nests deeper than 8 flows');
    } finally {
      await server.close();
    }
  });
});
