import Database from 'better-sqlite3';
import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT, svc, useTempHome } from '../support/cli';

const EXAMPLES = join(REPO_ROOT, 'examples');
const LIBS = join(EXAMPLES, 'libs');
const ORDER_INTAKE = join(EXAMPLES, 'order-intake.flow.md');

const SIMPLE = `---
tenant: acme
flow: hello
config: [GREETING]
---

# Hello

\`\`\`yaml step
id: greet
type: transform
value: { message: "\${config.GREETING} \${body.name}" }
\`\`\`
`;

describe('svc validate / compile / deploy / config check (real binary)', () => {
  const env = useTempHome();
  const write = (name: string, text: string): string => {
    const file = join(env.home, name);
    writeFileSync(file, text);
    return file;
  };

  describe('validate', () => {
    it('prints ok, the flow name, the tenant and the step count for every example', () => {
      for (const f of readdirSync(EXAMPLES).filter((n) => n.endsWith('.flow.md'))) {
        const r = svc(['validate', join(EXAMPLES, f), '--libs', LIBS], { home: env.home });
        expect(r.status, r.stderr).to.equal(0);
        expect(r.stdout).to.match(new RegExp(`^ok ${join(EXAMPLES, f).replace(/[.]/g, '\\.')} \\(flow [a-z0-9-]+, tenant acme, \\d+ steps?\\)$`, 'm'));
      }
    });

    it('touches no storage', () => {
      svc(['validate', ORDER_INTAKE], { home: env.home });
      svc(['compile', ORDER_INTAKE], { home: env.home });
      expect(existsSync(join(env.home, '.svc'))).to.equal(false);
    });

    it('reports every error as file:line: message and exits 1', () => {
      const file = write(
        'bad.flow.md',
        `---\ntenant: acme\nflow: bad\nbogus: 1\n---\n\n\`\`\`yaml step\nid: a\ntype: transform\nvalue: \${steps.later.body}\n\`\`\`\n\n\`\`\`yaml step\nid: a\ntype: nope\n\`\`\`\n`,
      );
      const r = svc(['validate', file], { home: env.home });
      expect(r.status).to.equal(1);
      expect(r.stdout).to.equal('');
      const lines = r.stderr.trim().split('\n');
      expect(lines.filter((l) => l.startsWith(`${file}:`)).length).to.be.at.least(3);
      expect(r.stderr).to.contain(`${file}:4:`);
      expect(r.stderr).to.match(/bogus/);
      expect(r.stderr).to.match(/later/);
      expect(lines[lines.length - 1]).to.match(/^error: .*bad\.flow\.md has \d+ problems$/);
    });

    it('an unreadable path, an empty file and binary garbage are clear errors, not crashes', () => {
      for (const [file, what] of [
        [join(env.home, 'missing.flow.md'), 'missing'],
        [write('empty.flow.md', ''), 'empty'],
        [write('garbage.flow.md', Buffer.from([0, 1, 2, 255, 254, 10, 0, 7]).toString('latin1')), 'garbage'],
        [env.home, 'directory'],
      ] as const) {
        const r = svc(['validate', file], { home: env.home });
        expect(r.status, what).to.equal(1);
        expect(r.stderr, what).to.match(/:\d+: /);
        expect(r.stderr, what).not.to.match(/\n\s+at /);
      }
    });
  });

  describe('compile', () => {
    it('prints compact IR with meta as SPEC says, identical on every run', () => {
      const a = svc(['compile', ORDER_INTAKE], { home: env.home });
      const b = svc(['compile', ORDER_INTAKE], { home: env.home });
      expect(a.status, a.stderr).to.equal(0);
      expect(a.stdout).to.equal(b.stdout);
      expect(a.stdout.trim().split('\n')).to.have.length(1);
      const ir = JSON.parse(a.stdout) as { meta: { name: string; tenant: string; version: { major: number; minor: number }; effects: string[] } };
      expect(ir.meta).to.deep.equal({ name: 'order-intake', tenant: 'acme', version: { major: 1, minor: 0 }, effects: ['http_egress'] });
    });

    it('-p indents; -o writes the file and prints only its 64-hex hash', () => {
      const pretty = svc(['compile', ORDER_INTAKE, '-p'], { home: env.home });
      expect(pretty.stdout.split('\n').length).to.be.greaterThan(10);
      const out = join(env.home, 'ir.json');
      const r = svc(['compile', ORDER_INTAKE, '-o', out], { home: env.home });
      expect(r.status, r.stderr).to.equal(0);
      expect(r.stdout).to.match(/^[0-9a-f]{64}\n$/);
      const compact = svc(['compile', ORDER_INTAKE], { home: env.home }).stdout.trim();
      expect(r.stdout.trim()).to.equal(createHash('sha256').update(compact).digest('hex'));
      expect(readFileSync(out, 'utf8').trim()).to.equal(compact);
    });

    it('never puts a secret value into the IR', () => {
      const r = svc(['compile', ORDER_INTAKE], { home: env.home, env: { SVC_SECRET_ERP_CLIENT_SECRET: 'hunter2-very-secret' } });
      expect(r.stdout).not.to.contain('hunter2-very-secret');
      expect(r.stdout).to.contain('ERP_CLIENT_SECRET');
    });
  });

  describe('deploy', () => {
    it('refuses an unregistered tenant, naming svc tenant create', () => {
      const r = svc(['deploy', ORDER_INTAKE, '-v', '1.0.0'], { home: env.home });
      expect(r.status).to.equal(1);
      expect(r.stderr).to.contain("error: tenant 'acme'");
      expect(r.stderr).to.contain('is not registered');
      expect(r.stderr).to.contain('svc tenant create --id acme');
    });

    it('refuses a disabled tenant with a different message', () => {
      svc(['tenant', 'create', '--id', 'acme', '--display-name', 'Acme'], { home: env.home });
      svc(['tenant', 'disable', '--id', 'acme'], { home: env.home });
      const r = svc(['deploy', ORDER_INTAKE, '-v', '1.0.0'], { home: env.home });
      expect(r.status).to.equal(1);
      expect(r.stderr).to.contain("error: tenant 'acme' is disabled");
      expect(r.stderr).to.contain('svc tenant enable --id acme');
      expect(r.stderr).not.to.contain('not registered');
    });

    it('publishes a version, moves latest, refuses an existing version, and prints flow, tenant, version, hash, db', () => {
      svc(['tenant', 'create', '--id', 'acme', '--display-name', 'Acme'], { home: env.home });
      const file = write('hello.flow.md', SIMPLE);
      const first = svc(['deploy', file, '-v', '1.0.0'], { home: env.home });
      expect(first.status, first.stderr).to.equal(0);
      const db = join(env.home, '.svc', 'registry.db');
      expect(first.stdout).to.match(/^flow:\s+hello$/m);
      expect(first.stdout).to.match(/^tenant:\s+acme$/m);
      expect(first.stdout).to.match(/^version:\s+1\.0\.0$/m);
      expect(first.stdout).to.match(/^hash:\s+[0-9a-f]{64}$/m);
      expect(first.stdout).to.contain(`db:      ${db}`);
      const again = svc(['deploy', file, '-v', '1.0.0'], { home: env.home });
      expect(again.status).to.equal(1);
      expect(again.stderr).to.contain('version 1.0.0 of flow acme/hello is already deployed');
      writeFileSync(file, SIMPLE.replace('# Hello', '# Hello again'));
      const second = svc(['deploy', file, '-v', '1.1.0', '--db', db], { home: env.home });
      expect(second.status, second.stderr).to.equal(0);
      expect(second.stdout).to.match(/^latest:\s+1\.1\.0 \(was 1\.0\.0\)$/m);
      const sqlite = new Database(db, { readonly: true });
      const head = sqlite.prepare('SELECT latest_version FROM flow_heads WHERE tenant_id = ? AND name = ?').get('acme', 'hello') as { latest_version: string };
      const versions = sqlite.prepare('SELECT version FROM flow_artifacts ORDER BY id').all() as Array<{ version: string }>;
      sqlite.close();
      expect(head.latest_version).to.equal('1.1.0');
      expect(versions.map((v) => v.version)).to.deep.equal(['1.0.0', '1.1.0']);
      const audit = svc(['audit', '--tenant', 'acme', '--verify'], { home: env.home });
      expect(audit.stdout).to.match(/^2\s+flow\.deployed\s/m);
      expect(audit.status).to.equal(0);
    });

    it('a file that does not compile deploys nothing and shows every problem', () => {
      svc(['tenant', 'create', '--id', 'acme', '--display-name', 'Acme'], { home: env.home });
      const file = write('broken.flow.md', SIMPLE.replace('type: transform', 'type: transform\nbogus_field: 1'));
      const r = svc(['deploy', file, '-v', '1.0.0'], { home: env.home });
      expect(r.status).to.equal(1);
      expect(r.stderr).to.match(/broken\.flow\.md:\d+: .*bogus_field/);
      expect(r.stderr).to.contain('nothing was deployed');
      expect(svc(['config', 'check'], { home: env.home }).stdout).to.contain('No flows deployed');
    });

    it('resolves TLS file paths against the flow file folder at deploy (compile keeps them as written)', () => {
      svc(['tenant', 'create', '--id', 'acme', '--display-name', 'Acme'], { home: env.home });
      const router = join(EXAMPLES, 'order-router.flow.md');
      const compiled = JSON.parse(svc(['compile', router], { home: env.home }).stdout) as { tls: { client_cert: string } };
      expect(compiled.tls.client_cert).to.equal('certs/acme-client.pem');
      expect(svc(['deploy', router, '-v', '1.0.0'], { home: env.home }).status).to.equal(0);
      const sqlite = new Database(join(env.home, '.svc', 'registry.db'), { readonly: true });
      const row = sqlite.prepare('SELECT ir FROM flow_artifacts').get() as { ir: string };
      sqlite.close();
      const ir = JSON.parse(row.ir) as { tls: { client_cert: string; client_key: string; ca_cert: string } };
      expect(ir.tls).to.deep.equal({
        client_cert: join(EXAMPLES, 'certs/acme-client.pem'),
        client_key: join(EXAMPLES, 'certs/acme-client.key'),
        ca_cert: join(EXAMPLES, 'certs/acme-ca.pem'),
      });
    });

    it('refuses a malformed version string (exit 2)', () => {
      svc(['tenant', 'create', '--id', 'acme', '--display-name', 'Acme'], { home: env.home });
      const r = svc(['deploy', write('hello.flow.md', SIMPLE), '-v', 'one two'], { home: env.home });
      expect(r.status).to.equal(2);
      expect(r.stderr).to.contain("--version 'one two' is not a valid version string");
    });
  });

  describe('config check', () => {
    beforeEach(() => {
      svc(['tenant', 'create', '--id', 'acme', '--display-name', 'Acme'], { home: env.home });
      expect(svc(['deploy', write('hello.flow.md', SIMPLE), '-v', '1.0.0'], { home: env.home }).status).to.equal(0);
    });

    it('MISSING makes the exit non-zero; set and "set, empty" pass; values are never printed', () => {
      const missing = svc(['config', 'check'], { home: env.home });
      expect(missing.status).to.equal(1);
      expect(missing.stdout).to.match(/^acme\s+hello\s+1\.0\.0\s+GREETING\s+SVC_CONFIG_GREETING\s+MISSING$/m);
      expect(missing.stderr).to.contain('SVC_CONFIG_GREETING');
      const empty = svc(['config', 'check'], { home: env.home, env: { SVC_CONFIG_GREETING: '' } });
      expect(empty.status).to.equal(0);
      expect(empty.stdout).to.match(/SVC_CONFIG_GREETING\s+set, empty$/m);
      const set = svc(['config', 'check'], { home: env.home, env: { SVC_CONFIG_GREETING: 'Bonjour-secret-value' } });
      expect(set.status).to.equal(0);
      expect(set.stdout).to.match(/SVC_CONFIG_GREETING\s+set$/m);
      expect(set.stdout + set.stderr).not.to.contain('Bonjour-secret-value');
    });

    it('reads .env in the working directory', () => {
      writeFileSync(join(env.home, '.env'), 'SVC_CONFIG_GREETING=hi\n');
      expect(svc(['config', 'check'], { home: env.home, cwd: env.home }).status).to.equal(0);
    });

    it('an unreadable artifact is reported and fails the check', () => {
      const sqlite = new Database(join(env.home, '.svc', 'registry.db'));
      sqlite.prepare("UPDATE flow_artifacts SET ir = '{not json'").run();
      sqlite.close();
      const r = svc(['config', 'check'], { home: env.home, env: { SVC_CONFIG_GREETING: 'x' } });
      expect(r.status).to.equal(1);
      expect(r.stderr).to.contain('error: cannot read deployed flow acme/hello@1.0.0');
    });

    it('an unreadable registry is a refusal, not an empty answer', () => {
      const bad = write('bad.db', 'x'.repeat(4096));
      const r = svc(['config', 'check', '--db', bad], { home: env.home });
      expect(r.status).to.equal(1);
      expect(r.stdout).to.equal('');
      expect(r.stderr).to.contain(`error: registry ${bad} is not a database file`);
    });
  });
});
