import Database from 'better-sqlite3';
import { expect } from 'chai';
import { join } from 'node:path';
import { svc, useTempHome } from '../support/cli';

describe('svc audit (real binary)', () => {
  const env = useTempHome();
  const auditFile = (): string => join(env.home, '.svc', 'svc-audit.db');
  beforeEach(() => {
    const { home } = env;
    svc(['tenant', 'create', '--id', 'acme', '--display-name', 'Acme'], { home });
    svc(['tenant', 'create', '--id', 'beta', '--display-name', 'Beta'], { home });
    for (let i = 0; i < 3; i++) {
      svc(['tenant', 'disable', '--id', 'acme'], { home });
      svc(['tenant', 'enable', '--id', 'acme'], { home });
    }
    svc(['tenant', 'disable', '--id', 'beta'], { home });
  });

  it('lists seq, event_type, created_at, correlation_id newest first, limited by --limit', () => {
    const { home } = env;
    const r = svc(['audit', '--tenant', 'acme', '--limit', '4'], { home });
    expect(r.status).to.equal(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).to.match(/^seq\s+event_type\s+created_at\s+correlation_id$/);
    expect(lines.slice(1).map((l) => Number(l.split(/\s+/)[0]))).to.deep.equal([6, 5, 4, 3]);
    expect(lines[1]).to.match(/^6\s+tenant\.enabled\s+\d{4}-\d{2}-\d{2}T[\d:.]+Z\s+[0-9a-f-]{36}$/);
    const short = svc(['audit', '--tenant', 'acme', '-l', '1'], { home });
    expect(short.stdout.trim().split('\n')).to.have.length(2);
  });

  it('defaults to 20 entries', () => {
    const { home } = env;
    for (let i = 0; i < 8; i++) {
      svc(['tenant', 'disable', '--id', 'acme'], { home });
      svc(['tenant', 'enable', '--id', 'acme'], { home });
    }
    const r = svc(['audit', '--tenant', 'acme'], { home });
    expect(r.stdout.trim().split('\n')).to.have.length(21);
  });

  it('keeps one chain per tenant, each starting at seq 1', () => {
    const { home } = env;
    const r = svc(['audit', '--tenant', 'beta', '--verify'], { home });
    expect(r.stdout).to.match(/^1\s+tenant\.disabled\s/m);
    expect(r.stdout).to.contain('chain integrity: OK (1 entries checked)');
  });

  it('verifies an intact chain', () => {
    const { home } = env;
    const r = svc(['audit', '--tenant', 'acme', '--verify'], { home });
    expect(r.status).to.equal(0);
    expect(r.stdout).to.contain('chain integrity: OK (6 entries checked)');
  });

  it('an edited entry breaks the chain: the offending seq is printed and the exit is 1', () => {
    const { home } = env;
    const db = new Database(auditFile());
    db.prepare("UPDATE audit_entries SET event_type = 'tenant.enabled' WHERE tenant = 'acme' AND seq = 3").run();
    db.close();
    const r = svc(['audit', '--tenant', 'acme', '--verify'], { home });
    expect(r.status).to.equal(1);
    expect(r.stdout).to.contain('chain integrity: BROKEN (1 of 6 entries fail)');
    expect(r.stdout).to.match(/^ {2}seq 3: hash does not match the entry/m);
    expect(r.stderr).to.contain('error: the audit chain of tenant acme is broken at seq 3');
    expect(svc(['audit', '--tenant', 'beta', '--verify'], { home }).status).to.equal(0);
  });

  it('a re-hashed forgery is caught at the next link; a deleted entry leaves a gap', () => {
    const { home } = env;
    const db = new Database(auditFile());
    db.prepare("UPDATE audit_entries SET hash = ? WHERE tenant = 'acme' AND seq = 2").run('f'.repeat(64));
    db.prepare("DELETE FROM audit_entries WHERE tenant = 'acme' AND seq = 5").run();
    db.close();
    const r = svc(['audit', '--tenant', 'acme', '--verify'], { home });
    expect(r.status).to.equal(1);
    expect(r.stdout).to.match(/seq 2: hash does not match/);
    expect(r.stdout).to.match(/seq 3: prev_hash does not match/);
    expect(r.stdout).to.match(/seq 6: sequence gap: expected seq 5/);
  });

  it('--db names the audit database itself', () => {
    const { home } = env;
    const r = svc(['audit', '--tenant', 'acme', '--db', auditFile(), '--verify'], { home });
    expect(r.stdout).to.contain('chain integrity: OK (6 entries checked)');
    const other = svc(['audit', '--tenant', 'acme', '--db', join(home, 'other', 'a.db'), '--verify'], { home });
    expect(other.status).to.equal(0);
    expect(other.stdout).to.contain('No audit entries for tenant acme.');
    expect(other.stdout).to.contain('chain integrity: OK (0 entries checked)');
  });

  it('refuses a bad --limit (exit 2)', () => {
    const { home } = env;
    expect(svc(['audit', '--tenant', 'acme', '--limit', '0'], { home }).status).to.equal(2);
    expect(svc(['audit', '--tenant', 'acme', '--limit', 'many'], { home }).status).to.equal(2);
  });
});
