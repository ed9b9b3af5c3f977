import Database from 'better-sqlite3';
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT, svc, svcAsync, useTempHome } from '../support/cli';

describe('svc storage safety (real binary, real SQLite files)', () => {
  const env = useTempHome();
  const registry = (): string => join(env.home, '.svc', 'registry.db');

  it('a corrupt registry file gets one clear line and exit 1, and is left as it was', () => {
    const { home } = env;
    const file = join(home, 'garbage.db');
    const garbage = Buffer.alloc(8192, 0x5a);
    writeFileSync(file, garbage);
    const r = svc(['tenant', 'list', '--db', file], { home });
    expect(r.status).to.equal(1);
    expect(r.stderr.trim().split('\n')[0]).to.equal(`error: registry ${file} is not a database file (or is corrupt)`);
    expect(readFileSync(file).equals(garbage)).to.equal(true);
  });

  it('a path that cannot be opened as a file is named in the error', () => {
    const { home } = env;
    const dir = join(home, 'a-directory.db');
    mkdirSync(dir);
    const r = svc(['tenant', 'list', '--db', dir], { home });
    expect(r.status).to.equal(1);
    expect(r.stderr).to.match(/^error: .*a-directory\.db/m);
  });

  it('a registry from an older svc (fewer tables) is brought up to date on open and keeps its rows', () => {
    const { home } = env;
    mkdirSync(join(home, '.svc'));
    const db = new Database(registry());
    db.exec("CREATE TABLE `tenants` (`id` text not null, `display_name` text not null, `status` text not null, `auth_methods` json not null, `created_at` text not null, primary key (`id`))");
    db.prepare('INSERT INTO tenants VALUES (?, ?, ?, ?, ?)').run('old', 'Old Tenant', 'active', '["api_key"]', '2025-01-01T00:00:00Z');
    db.close();
    const listed = svc(['tenant', 'list'], { home });
    expect(listed.status, listed.stderr).to.equal(0);
    expect(listed.stdout).to.match(/^old\s+Old Tenant\s+active\s+api_key\s+2025-01-01T00:00:00Z$/m);
    const key = svc(['keys', 'create', '--tenant', 'old', '--label', 'x'], { home });
    expect(key.status, key.stderr).to.equal(0);
    const check = new Database(registry(), { readonly: true });
    expect(check.pragma('user_version', { simple: true })).to.be.greaterThan(0);
    check.close();
  });

  it('a registry written by a newer svc is refused, not altered', () => {
    const { home } = env;
    mkdirSync(join(home, '.svc'));
    const db = new Database(registry());
    db.pragma('user_version = 999');
    db.close();
    const r = svc(['tenant', 'list'], { home });
    expect(r.status).to.equal(1);
    expect(r.stderr).to.contain('has schema version 999, newer than this svc understands');
  });

  it('waits for another process holding the write lock, then succeeds', async () => {
    const { home } = env;
    svc(['tenant', 'create', '--id', 'acme', '--display-name', 'A'], { home });
    const holder = new Database(registry());
    holder.exec('BEGIN IMMEDIATE');
    const pending = svcAsync(['keys', 'create', '--tenant', 'acme', '--label', 'x'], { home });
    await new Promise((r) => setTimeout(r, 1500));
    holder.exec('COMMIT');
    holder.close();
    const r = await pending;
    expect(r.status, r.stderr).to.equal(0);
  });

  it('a lock held past the busy timeout is one clear error, not SQLITE_BUSY', async () => {
    const { home } = env;
    svc(['tenant', 'create', '--id', 'acme', '--display-name', 'A'], { home });
    const holder = new Database(registry());
    holder.exec('BEGIN IMMEDIATE');
    try {
      const r = await svcAsync(['tenant', 'disable', '--id', 'acme'], { home, env: { SVC_BUSY_TIMEOUT_MS: '300' } });
      expect(r.status).to.equal(1);
      expect(r.stderr).to.contain(`error: registry ${registry()} stayed locked by another process for too long`);
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
    expect(svc(['tenant', 'list'], { home }).stdout).to.match(/acme\s+A\s+active/);
  });

  it('CLI commands run beside a busy writer process lose nothing and never fail with SQLITE_BUSY', async () => {
    const { home } = env;
    svc(['tenant', 'create', '--id', 'acme', '--display-name', 'A'], { home });
    // A second process writes tenants and audit entries through the same app the server uses.
    const writerScript = `
      require('reflect-metadata');
      const { createApp } = require(${JSON.stringify(join(REPO_ROOT, 'dist/src/infra/app'))});
      const { CreateTenant, DisableTenant, EnableTenant } = require(${JSON.stringify(join(REPO_ROOT, 'dist/src/commands/tenant-commands'))});
      (async () => {
        const app = createApp({ registry: ${JSON.stringify(registry())} });
        for (let i = 0; i < 60; i++) {
          await app.commands.execute(new CreateTenant('w' + i, 'W' + i, ['api_key']));
          await app.commands.execute(new DisableTenant('w' + i));
        }
        await app.close();
      })().catch((e) => { console.error(e); process.exit(1); });`;
    const writer = spawn(process.execPath, ['-e', writerScript], { cwd: REPO_ROOT, env: { ...process.env, HOME: home } });
    let writerErr = '';
    writer.stderr.on('data', (d: Buffer) => (writerErr += d.toString()));
    const writerDone = new Promise<number | null>((r) => writer.on('close', r));
    const results = [];
    for (let i = 0; i < 6; i++) results.push(await svcAsync(['keys', 'create', '--tenant', 'acme', '--label', `k${i}`], { home }));
    expect(await writerDone, writerErr).to.equal(0);
    for (const r of results) expect(r.status, r.stderr).to.equal(0);
    const keys = svc(['keys', 'list', '--tenant', 'acme'], { home }).stdout.trim().split('\n');
    expect(keys).to.have.length(7);
    const tenants = svc(['tenant', 'list'], { home }).stdout.trim().split('\n');
    expect(tenants).to.have.length(62);
    const audit = svc(['audit', '--tenant', 'w59', '--verify'], { home });
    expect(audit.stdout).to.contain('chain integrity: OK (1 entries checked)');
    const acme = svc(['audit', '--tenant', 'acme', '--verify'], { home });
    expect(acme.stdout).to.contain('chain integrity: OK (6 entries checked)');
  });
});
