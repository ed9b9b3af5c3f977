import { expect } from 'chai';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SVC_BIN, REPO_ROOT, svc, useTempHome } from '../support/cli';

describe('svc process rules (real binary)', () => {
  const env = useTempHome();

  it('--version prints name/version/platform on stdout and touches no storage', () => {
    const { home } = env;
    const { version } = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };
    const r = svc(['--version'], { home });
    expect(r.status).to.equal(0);
    expect(r.stdout).to.equal(`svc/${version} ${process.platform}-${process.arch} node-${process.version}\n`);
    expect(existsSync(join(home, '.svc'))).to.equal(false);
  });

  it('--help lists the implemented topics and the exit codes', () => {
    const { home } = env;
    const r = svc(['--help'], { home });
    expect(r.status).to.equal(0);
    expect(r.stdout).to.match(/^\s+tenant\s/m);
    expect(r.stdout).to.match(/^\s+keys\s/m);
    expect(r.stdout).to.match(/^\s+audit\s/m);
    expect(r.stdout).to.contain('EXIT CODES');
    const sub = svc(['tenant', 'create', '--help'], { home });
    expect(sub.stdout).to.contain('--display-name');
    expect(sub.stdout).to.contain('--auth-methods');
  });

  it('package.json maps the svc bin to bin/svc', () => {
    const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string> };
    expect(join(REPO_ROOT, pkg.bin.svc ?? '')).to.equal(SVC_BIN);
  });

  it('reads .env from the working directory before the command (environment wins)', () => {
    const { home } = env;
    const work = join(home, 'work');
    mkdirSync(work);
    writeFileSync(join(work, '.env'), `HOME=${home}/from-dotenv\n`);
    // HOME is set by the environment, so .env must not override it ...
    svc(['tenant', 'create', '--id', 'acme', '--display-name', 'A'], { home, cwd: work });
    expect(existsSync(join(home, '.svc', 'registry.db'))).to.equal(true);
    // ... but with HOME unset, the value from .env is used.
    const r = svc(['tenant', 'create', '--id', 'beta', '--display-name', 'B'], { home, cwd: work, env: { HOME: undefined } });
    expect(r.status, r.stderr).to.equal(0);
    expect(existsSync(join(home, 'from-dotenv', '.svc', 'registry.db'))).to.equal(true);
  });

  it('results on stdout, diagnostics on stderr', () => {
    const { home } = env;
    const ok = svc(['tenant', 'create', '--id', 'acme', '--display-name', 'A'], { home });
    expect(ok.stdout).to.contain('created tenant acme');
    expect(ok.stderr).to.equal('');
    const bad = svc(['tenant', 'create', '--id', 'acme', '--display-name', 'A'], { home });
    expect(bad.stdout).to.equal('');
    expect(bad.stderr).to.match(/^error: /);
  });

  it('shows a stack trace only with RUST_LOG=debug', () => {
    const { home } = env;
    const corrupt = join(home, 'corrupt.db');
    writeFileSync(corrupt, 'this is not a database, just text that is long enough to have a header'.repeat(20));
    const quiet = svc(['tenant', 'list', '--db', corrupt], { home });
    expect(quiet.status).to.equal(1);
    expect(quiet.stderr).not.to.match(/\n\s+at /);
    const loud = svc(['tenant', 'list', '--db', corrupt], { home, env: { RUST_LOG: 'debug' } });
    expect(loud.status).to.equal(1);
    expect(loud.stderr).to.match(/\n\s+at /);
  });
});
