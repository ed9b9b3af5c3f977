import { expect } from 'chai';
import { svc, useTempHome } from '../support/cli';

describe('svc tenant (real binary)', () => {
  const env = useTempHome();

  it('creates a tenant under ~/.svc and lists it with the documented columns', () => {
    const { home } = env;
    const created = svc(['tenant', 'create', '--id', 'acme', '--display-name', 'Acme Corp'], { home });
    expect(created.status, created.stderr).to.equal(0);
    expect(created.stdout).to.contain('created tenant acme');
    const listed = svc(['tenant', 'list'], { home });
    expect(listed.status).to.equal(0);
    const [header, row] = listed.stdout.trim().split('\n');
    expect(header).to.match(/^id\s+display name\s+status\s+auth methods\s+created_at$/);
    expect(row).to.match(/^acme\s+Acme Corp\s+active\s+api_key\s+\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
  });

  it('refuses any auth method but api_key (exit 1) and stores nothing', () => {
    const { home } = env;
    const r = svc(['tenant', 'create', '--id', 'acme', '--display-name', 'A', '--auth-methods', 'api_key,oidc'], { home });
    expect(r.status).to.equal(1);
    expect(r.stderr).to.match(/^error: auth method 'oidc' cannot be performed by svc; only api_key is supported$/m);
    expect(r.stdout).to.equal('');
    expect(svc(['tenant', 'list'], { home }).stdout).to.contain('No tenants registered.');
  });

  it('refuses a duplicate id with a clear error (exit 1)', () => {
    const { home } = env;
    expect(svc(['tenant', 'create', '--id', 'acme', '--display-name', 'A'], { home }).status).to.equal(0);
    const r = svc(['tenant', 'create', '--id', 'acme', '--display-name', 'B'], { home });
    expect(r.status).to.equal(1);
    expect(r.stderr).to.contain("error: tenant 'acme' already exists");
  });

  it('refuses an id that cannot appear in a URL (exit 2)', () => {
    const { home } = env;
    const r = svc(['tenant', 'create', '--id', 'Acme/../x', '--display-name', 'A'], { home });
    expect(r.status).to.equal(2);
    expect(r.stderr).to.contain("error: tenant id 'Acme/../x' is not valid");
  });

  it('disable records tenant.disabled; enable records tenant.enabled; repeating either records nothing', () => {
    const { home } = env;
    svc(['tenant', 'create', '--id', 'acme', '--display-name', 'A'], { home });
    const d1 = svc(['tenant', 'disable', '--id', 'acme'], { home });
    expect(d1.status).to.equal(0);
    expect(d1.stdout).to.contain('disabled tenant acme');
    const d2 = svc(['tenant', 'disable', '--id', 'acme'], { home });
    expect(d2.status).to.equal(0);
    expect(d2.stdout).to.contain('already disabled');
    expect(svc(['tenant', 'list'], { home }).stdout).to.match(/acme\s+A\s+disabled/);
    expect(svc(['tenant', 'enable', '--id', 'acme'], { home }).status).to.equal(0);
    const e2 = svc(['tenant', 'enable', '--id', 'acme'], { home });
    expect(e2.status).to.equal(0);
    expect(e2.stdout).to.contain('already active');
    const audit = svc(['audit', '--tenant', 'acme'], { home });
    const events = audit.stdout.trim().split('\n').slice(1).map((l) => l.split(/\s+/)[1]);
    expect(events).to.deep.equal(['tenant.enabled', 'tenant.disabled']);
  });

  it('names an unknown tenant on disable/enable (exit 1)', () => {
    const { home } = env;
    for (const verb of ['disable', 'enable']) {
      const r = svc(['tenant', verb, '--id', 'ghost'], { home });
      expect(r.status).to.equal(1);
      expect(r.stderr).to.contain("error: tenant 'ghost' is not registered");
      expect(r.stderr).to.contain('hint: register it with: svc tenant create --id ghost');
    }
  });

  it('reports a missing required flag and an unknown flag as usage errors (exit 2), no stack', () => {
    const { home } = env;
    const missing = svc(['tenant', 'create', '--id', 'acme'], { home });
    expect(missing.status).to.equal(2);
    expect(missing.stderr).to.match(/^error: Missing required flag display-name$/m);
    const unknown = svc(['tenant', 'list', '--bogus'], { home });
    expect(unknown.status).to.equal(2);
    expect(unknown.stderr).to.match(/^error: Nonexistent flag: --bogus$/m);
    expect(missing.stderr + unknown.stderr).not.to.match(/\bat .*\.js:\d+/);
  });

  it('honours --db and creates the folder it names', () => {
    const { home } = env;
    const db = `${home}/elsewhere/deep/reg.db`;
    expect(svc(['tenant', 'create', '--id', 'acme', '--display-name', 'A', '--db', db], { home }).status).to.equal(0);
    expect(svc(['tenant', 'list', '--db', db], { home }).stdout).to.contain('acme');
    expect(svc(['tenant', 'list'], { home }).stdout).to.contain('No tenants registered.');
  });
});
