import { expect } from 'chai';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { svc, useTempHome } from '../support/cli';
import { serveUntilExit, startServe, STATE_KEY_ENV } from '../support/serve';

const NEEDS_CONFIG = `---
tenant: acme
flow: needs-config
config: [ERP_URL]
secrets: [ERP_TOKEN]
---

\`\`\`yaml step
id: t
type: transform
value: { url: "\${config.ERP_URL}" }
\`\`\`
`;

describe('svc serve start-up rules (real binary)', function () {
  this.timeout(60_000);
  const env = useTempHome();

  beforeEach(() => {
    const { home } = env;
    svc(['tenant', 'create', '--id', 'acme', '--display-name', 'Acme'], { home });
    const f = join(home, 'needs-config.flow.md');
    writeFileSync(f, NEEDS_CONFIG);
    expect(svc(['deploy', f, '-v', '1.0.0'], { home }).status).to.equal(0);
  });

  it('refuses to start without the state key', async () => {
    const r = await serveUntilExit(env.home, [], { SVC_CONFIG_ERP_URL: 'x', SVC_SECRET_ERP_TOKEN: 'y' });
    expect(r.status).to.equal(1);
    expect(r.stderr).to.contain('SVC_SECRET_SVC_STATE_KEY is not set');
    expect(r.stdout).not.to.contain('listening');
  });

  it('refuses to start when a config variable is unset, naming tenant, flow, key, variable and svc config check', async () => {
    const r = await serveUntilExit(env.home, [], { ...STATE_KEY_ENV, SVC_SECRET_ERP_TOKEN: 'y' });
    expect(r.status).to.equal(1);
    expect(r.stderr).to.contain('tenant acme, flow needs-config (version 1.0.0): config key ERP_URL needs the variable SVC_CONFIG_ERP_URL, which is not set');
    expect(r.stderr).to.contain('svc config check');
    expect(r.stderr).not.to.match(/\n\s+at /);
  });

  it('refuses to start when a declared secret is unset', async () => {
    const r = await serveUntilExit(env.home, [], { ...STATE_KEY_ENV, SVC_CONFIG_ERP_URL: 'x' });
    expect(r.status).to.equal(1);
    expect(r.stderr).to.contain('secret ERP_TOKEN needs the variable SVC_SECRET_ERP_TOKEN');
  });

  it('a variable set but empty counts as set', async () => {
    const server = await startServe(env.home, [], { SVC_CONFIG_ERP_URL: '', SVC_SECRET_ERP_TOKEN: '' });
    expect(await server.stop()).to.equal(0);
  });

  it('--no-auth says so in the banner and warns at boot; flows answer without a key', async () => {
    const server = await startServe(env.home, ['--no-auth'], { SVC_CONFIG_ERP_URL: 'http://erp', SVC_SECRET_ERP_TOKEN: 't' });
    try {
      expect(server.stdout()).to.contain('API key authentication: DISABLED (--no-auth)');
      expect(server.logRecords().some((r) => r.level === 'warn' && String(r.message).includes('--no-auth'))).to.equal(true);
      const res = await fetch(`${server.url}/flows/acme/needs-config/run`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(res.status).to.equal(200);
      expect(await res.json()).to.deep.equal({ url: 'http://erp' });
    } finally {
      await server.stop();
    }
  });

  it('refuses a port already in use with one clear line', async () => {
    const first = await startServe(env.home, [], { SVC_CONFIG_ERP_URL: '', SVC_SECRET_ERP_TOKEN: '' });
    try {
      const port = new URL(first.url).port;
      const r = await serveUntilExit(env.home, ['--port', port], { ...STATE_KEY_ENV, SVC_CONFIG_ERP_URL: '', SVC_SECRET_ERP_TOKEN: '' });
      expect(r.status).to.equal(1);
      expect(r.stderr).to.contain(`cannot listen on 127.0.0.1:${port}: the address is already in use`);
    } finally {
      await first.stop();
    }
  });
});
