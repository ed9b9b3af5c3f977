import Database from 'better-sqlite3';
import { expect } from 'chai';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { keyValueFrom, svc, useTempHome } from '../support/cli';

describe('svc keys (real binary)', () => {
  const env = useTempHome();
  beforeEach(() => {
    const { home } = env;
    expect(svc(['tenant', 'create', '--id', 'acme', '--display-name', 'Acme'], { home }).status).to.equal(0);
  });

  it('prints every field, the key once and the usage line; stores only a SHA-256 hash', () => {
    const { home } = env;
    const r = svc(['keys', 'create', '--tenant', 'acme', '--label', 'shop', '--scopes', 'orders:write,orders:read', '--flows', 'order-intake', '--rate-limit', '10'], { home });
    expect(r.status, r.stderr).to.equal(0);
    const key = keyValueFrom(r.stdout);
    expect(key).to.match(/^svck_[A-Za-z0-9_-]{43}$/);
    expect(r.stdout).to.match(/^id:\s+1$/m);
    expect(r.stdout).to.match(/^tenant:\s+acme$/m);
    expect(r.stdout).to.match(/^label:\s+shop$/m);
    expect(r.stdout).to.match(/^scopes:\s+orders:write,orders:read$/m);
    expect(r.stdout).to.match(/^flows:\s+order-intake$/m);
    expect(r.stdout).to.match(/^rate limit:\s+10 req\/s, burst 20$/m);
    expect(r.stdout).to.contain(`Authorization: Bearer ${key}`);
    const db = new Database(join(home, '.svc', 'registry.db'), { readonly: true });
    const row = db.prepare('SELECT * FROM api_keys').get() as Record<string, unknown>;
    db.close();
    expect(JSON.stringify(row)).not.to.contain(key);
    expect(row.key_hash).to.equal(createHash('sha256').update(key).digest('hex'));
  });

  it('defaults: all scopes, all flows, unlimited rate, never expires', () => {
    const { home } = env;
    const r = svc(['keys', 'create', '--tenant', 'acme', '--label', 'ci'], { home });
    expect(r.stdout).to.match(/^scopes:\s+\*$/m);
    expect(r.stdout).to.match(/^flows:\s+\(all flows\)$/m);
    expect(r.stdout).to.match(/^rate limit:\s+unlimited$/m);
    expect(r.stdout).to.match(/^expires_at:\s+never$/m);
  });

  it('makes a key two keys apart: each value is new', () => {
    const { home } = env;
    const a = keyValueFrom(svc(['keys', 'create', '--tenant', 'acme', '--label', 'a'], { home }).stdout);
    const b = keyValueFrom(svc(['keys', 'create', '--tenant', 'acme', '--label', 'b'], { home }).stdout);
    expect(a).not.to.equal(b);
  });

  it('accepts YYYY-MM-DD as the whole UTC day and a Z instant; refuses offsets, past and malformed dates (exit 2)', () => {
    const { home } = env;
    const day = svc(['keys', 'create', '--tenant', 'acme', '--label', 'd', '--expires-at', '2099-12-31'], { home });
    expect(day.status, day.stderr).to.equal(0);
    expect(day.stdout).to.match(/^expires_at:\s+2100-01-01T00:00:00Z \(valid through 2099-12-31, UTC\)$/m);
    const instant = svc(['keys', 'create', '--tenant', 'acme', '--label', 'i', '--expires-at', '2099-06-01T12:30:00Z'], { home });
    expect(instant.status).to.equal(0);
    expect(instant.stdout).to.match(/^expires_at:\s+2099-06-01T12:30:00Z$/m);
    for (const [value, message] of [
      ['2099-06-01T12:30:00+02:00', 'has a timezone offset'],
      ['2099-06-01T12:30:00-0500', 'has a timezone offset'],
      ['2020-01-01', 'is already past'],
      ['2099-02-30', 'is not a calendar date'],
      ['tomorrow', 'is not a date'],
      ['2099-06-01 12:30', 'is not a date'],
    ] as const) {
      const r = svc(['keys', 'create', '--tenant', 'acme', '--label', 'x', '--expires-at', value], { home });
      expect(r.status, value).to.equal(2);
      expect(r.stderr, value).to.contain(`error: --expires-at '${value}' ${message}`);
    }
    expect(svc(['keys', 'list', '--tenant', 'acme'], { home }).stdout.trim().split('\n')).to.have.length(3);
  });

  it('refuses an unregistered tenant, naming tenant create (exit 1)', () => {
    const { home } = env;
    const r = svc(['keys', 'create', '--tenant', 'ghost', '--label', 'x'], { home });
    expect(r.status).to.equal(1);
    expect(r.stderr).to.contain("error: tenant 'ghost' is not registered");
    expect(r.stderr).to.contain('svc tenant create');
  });

  it('refuses a malformed rate limit (exit 2)', () => {
    const { home } = env;
    for (const v of ['0', '-1', 'fast']) {
      const r = svc(['keys', 'create', '--tenant', 'acme', '--label', 'x', '--rate-limit', v], { home });
      expect(r.status, v).to.equal(2);
      expect(r.stderr).to.contain(`error: --rate-limit '${v}' is not a positive number`);
    }
  });

  it('lists id, label, status, flows, scopes, created_at; expired is computed from the clock', () => {
    const { home } = env;
    svc(['keys', 'create', '--tenant', 'acme', '--label', 'live', '--flows', 'a-very-long-flow-name-one,a-very-long-flow-name-two'], { home });
    svc(['keys', 'create', '--tenant', 'acme', '--label', 'old'], { home });
    // Age key 2 by moving its expiry into the past behind the CLI's back.
    const db = new Database(join(home, '.svc', 'registry.db'));
    db.prepare("UPDATE api_keys SET expires_at = '2001-01-01T00:00:00.000Z' WHERE id = 2").run();
    db.close();
    svc(['keys', 'create', '--tenant', 'acme', '--label', 'gone'], { home });
    expect(svc(['keys', 'revoke', '--id', '3'], { home }).status).to.equal(0);
    const r = svc(['keys', 'list', '--tenant', 'acme'], { home });
    expect(r.status).to.equal(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).to.match(/^id\s+label\s+status\s+flows\s+scopes\s+created_at$/);
    expect(lines[1]).to.match(/^1\s+live\s+active\s+a-very-long-flow-name-one,a-ver…\s+\*\s+\S+Z$/);
    expect(lines[2]).to.match(/^2\s+old\s+expired\s/);
    expect(lines[3]).to.match(/^3\s+gone\s+revoked\s/);
    expect(r.stdout).not.to.contain('svck_');
  });

  it('keys list for an unknown tenant fails (exit 1); an empty list says so', () => {
    const { home } = env;
    expect(svc(['keys', 'list', '--tenant', 'ghost'], { home }).status).to.equal(1);
    const empty = svc(['keys', 'list', '--tenant', 'acme'], { home });
    expect(empty.status).to.equal(0);
    expect(empty.stdout).to.contain('No API keys for tenant acme.');
  });

  it('revoke: exit 0 once, then exit 1 when already revoked or missing', () => {
    const { home } = env;
    svc(['keys', 'create', '--tenant', 'acme', '--label', 'x'], { home });
    const first = svc(['keys', 'revoke', '--id', '1'], { home });
    expect(first.status).to.equal(0);
    expect(first.stdout).to.contain('revoked key 1');
    const again = svc(['keys', 'revoke', '--id', '1'], { home });
    expect(again.status).to.equal(1);
    expect(again.stderr).to.contain('error: API key 1 is already revoked');
    const missing = svc(['keys', 'revoke', '--id', '42'], { home });
    expect(missing.status).to.equal(1);
    expect(missing.stderr).to.contain('error: API key 42 does not exist');
    const notANumber = svc(['keys', 'revoke', '--id', 'abc'], { home });
    expect(notANumber.status).to.equal(2);
  });

  it('records key.created and key.revoked on the tenant chain, never the key value', () => {
    const { home } = env;
    const key = keyValueFrom(svc(['keys', 'create', '--tenant', 'acme', '--label', 'x'], { home }).stdout);
    svc(['keys', 'revoke', '--id', '1'], { home });
    const audit = svc(['audit', '--tenant', 'acme', '--verify'], { home });
    expect(audit.stdout).to.match(/^2\s+key\.revoked\s/m);
    expect(audit.stdout).to.match(/^1\s+key\.created\s/m);
    expect(audit.stdout).to.contain('chain integrity: OK (2 entries checked)');
    const db = new Database(join(home, '.svc', 'svc-audit.db'), { readonly: true });
    const dump = JSON.stringify(db.prepare('SELECT * FROM audit_entries').all());
    db.close();
    expect(dump).not.to.contain(key);
  });
});
