import { expect } from 'chai';
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT, SVC_BIN, useTempHome } from '../support/cli';

/** Runs bin/svc with a preload that reports, at exit, which heavy packages were loaded. */
function loadedPackages(args: string[], home: string): string[] {
  const tracer = join(home, 'tracer.js');
  writeFileSync(
    tracer,
    `process.on('exit', () => {
       const names = ['@mikro-orm', 'knex', 'better-sqlite3', 'winston', 'koa', '@oclif/core'];
       const loaded = names.filter((n) => Object.keys(require.cache).some((k) => k.includes('/node_modules/' + n + '/')));
       process.stderr.write('\\nLOADED:' + JSON.stringify(loaded) + '\\n');
     });`,
  );
  const r = spawnSync(process.execPath, ['-r', tracer, SVC_BIN, ...args], { cwd: REPO_ROOT, env: { PATH: process.env.PATH, HOME: home }, encoding: 'utf8' });
  const m = /LOADED:(\[.*\])/.exec(r.stderr);
  if (!m?.[1]) throw new Error(`no tracer output: ${r.stderr}`);
  return JSON.parse(m[1]) as string[];
}

describe('the CLI loads only what a command needs', () => {
  const env = useTempHome();

  it('--version loads neither oclif nor the ORM', () => {
    const { home } = env;
    expect(loadedPackages(['--version'], home)).to.deep.equal([]);
  });

  it('help loads oclif but no database code', () => {
    const { home } = env;
    expect(loadedPackages(['keys', 'create', '--help'], home)).to.deep.equal(['@oclif/core']);
  });

  it('audit opens SQLite directly, without the ORM', () => {
    const { home } = env;
    const loaded = loadedPackages(['audit', '--tenant', 'acme'], home);
    expect(loaded).to.include('better-sqlite3');
    expect(loaded).not.to.include('@mikro-orm');
  });

  it('validate and compile load the flow language but neither the ORM nor SQLite', () => {
    for (const verb of ['validate', 'compile']) {
      const loaded = loadedPackages([verb, join(REPO_ROOT, 'examples', 'order-intake.flow.md')], env.home);
      expect(loaded, verb).not.to.include('@mikro-orm');
      expect(loaded, verb).not.to.include('better-sqlite3');
    }
  });

  it('serve with a registry at the current schema never loads the ORM', async () => {
    const { home } = env;
    expect(loadedPackages(['tenant', 'create', '--id', 'acme', '--display-name', 'A'], home)).to.include('@mikro-orm');
    const tracer = join(home, 'serve-tracer.js');
    writeFileSync(
      tracer,
      `process.on('exit', () => {
         const loaded = ['@mikro-orm', 'knex'].filter((n) => Object.keys(require.cache).some((k) => k.includes('/node_modules/' + n + '/')));
         process.stderr.write('\\nLOADED:' + JSON.stringify(loaded) + '\\n');
       });`,
    );
    const child = spawn(process.execPath, ['-r', tracer, SVC_BIN, 'serve', '--host', '127.0.0.1', '--port', '0'], {
      cwd: home,
      env: { PATH: process.env.PATH, HOME: home, SVC_SECRET_SVC_STATE_KEY: 'k' },
    });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    const exited = new Promise<number | null>((r) => child.on('exit', r));
    const end = Date.now() + 20_000;
    while (!out.includes('API key authentication') && Date.now() < end && child.exitCode === null) await new Promise((r) => setTimeout(r, 50));
    child.kill('SIGTERM');
    expect(await exited).to.equal(0);
    expect(/LOADED:(\[.*\])/.exec(err)?.[1]).to.equal('[]');
  });

  it('tenant list loads the ORM', () => {
    const { home } = env;
    expect(loadedPackages(['tenant', 'list'], home)).to.include('@mikro-orm');
  });
});

describe('README', () => {
  it('its CLI reference matches svc --help (scripts/cli-reference.js --check)', () => {
    const r = spawnSync(process.execPath, [join(REPO_ROOT, 'scripts', 'cli-reference.js'), '--check'], { cwd: REPO_ROOT, encoding: 'utf8' });
    expect(r.status, r.stderr).to.equal(0);
  });

  it('has exactly two command lines in its quick start, the second being npm test', () => {
    const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
    const quick = /## Quick start\n\n```sh\n([\s\S]*?)```/.exec(readme);
    const lines = (quick?.[1] ?? '').trim().split('\n');
    expect(lines).to.have.length(2);
    expect(lines[0]).to.match(/^npm ci && /);
    expect(lines[1]).to.equal('npm test');
  });
});
