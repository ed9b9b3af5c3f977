/**
 * /run throughput with the whole gate, against a bare Koa server doing the same transform in
 * plain JavaScript, in the same session. Servers run pinned to core 1, autocannon to core 0.
 * Run: npm run bench:run   (50 connections, 10 s each; BENCH_SECONDS / BENCH_CONNECTIONS override)
 */
import autocannon from 'autocannon';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ORDER_BODY } from './order-body';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const root = resolve(__dirname, '..', '..', '..');
const bin = join(root, 'bin', 'svc');

function pinned(args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  return spawn('taskset', ['-c', '1', process.execPath, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
}

function urlOf(child: ChildProcess): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    let out = '';
    child.stdout?.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m?.[1]) resolvePromise(m[1]);
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}: ${out}`)));
  });
}

function peakRssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? NaN);
  return kb / 1024;
}

async function load(url: string, headers: Record<string, string>): Promise<autocannon.Result> {
  // Warm-up (JIT, caches), then the measured run.
  await autocannon({ url, method: 'POST', headers, body: ORDER_BODY, connections: CONNECTIONS, duration: 2 });
  return autocannon({ url, method: 'POST', headers, body: ORDER_BODY, connections: CONNECTIONS, duration: SECONDS });
}

async function main(): Promise<void> {
  const home = mkdtempSync(join(tmpdir(), 'svc-bench-run-'));
  const env = { PATH: process.env.PATH, HOME: home, SVC_SECRET_SVC_STATE_KEY: 'bench', RUST_LOG: 'warn' };
  const cli = (args: string[]): string => {
    const r = spawnSync(process.execPath, [bin, ...args], { env, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`svc ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };
  const children: ChildProcess[] = [];
  try {
    cli(['tenant', 'create', '--id', 'bench', '--display-name', 'Bench']);
    cli(['deploy', join(root, 'bench', 'run', 'order-transform.flow.md'), '-v', '1.0.0']);
    const key = /^key:\s+(\S+)$/m.exec(cli(['keys', 'create', '--tenant', 'bench', '--label', 'bench']))?.[1] ?? '';

    const bare = pinned([join(root, 'dist', 'bench', 'run', 'bare-koa.js')], env);
    children.push(bare);
    const bareUrl = await urlOf(bare);
    const bareResult = await load(`${bareUrl}/`, { 'content-type': 'application/json' });
    const bareRss = peakRssMiB(bare.pid ?? 0);

    const svcServer = pinned([bin, 'serve', '--host', '127.0.0.1', '--port', '0'], env);
    children.push(svcServer);
    const svcUrl = await urlOf(svcServer);
    const check = await fetch(`${svcUrl}/flows/bench/order-transform/run`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: ORDER_BODY });
    if (check.status !== 200) throw new Error(`svc answered ${check.status}: ${await check.text()}`);
    const svcResult = await load(`${svcUrl}/flows/bench/order-transform/run`, { authorization: `Bearer ${key}`, 'content-type': 'application/json' });
    const svcRss = peakRssMiB(svcServer.pid ?? 0);

    const row = (name: string, r: autocannon.Result, rss: number, base: number): string =>
      `| ${name} | ${r.requests.average.toFixed(0)} | ${(r.requests.average / base).toFixed(2)} | ${r.latency.p50} | ${r.latency.p99} | ${rss.toFixed(0)} | ${r.non2xx} |`;
    console.log('| server | req/s | x bare Koa | p50 ms | p99 ms | peak RSS MiB | non-2xx |');
    console.log('|---|---|---|---|---|---|---|');
    console.log(row('bare Koa, plain JS transform (baseline)', bareResult, bareRss, bareResult.requests.average));
    console.log(row('svc /run, whole gate + flow', svcResult, svcRss, bareResult.requests.average));
    console.log(`\n${CONNECTIONS} connections, ${SECONDS} s after a 2 s warm-up, ${ORDER_BODY.length}-byte body, ${new Date().toISOString()}, node ${process.version}`);
  } finally {
    for (const c of children) c.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    rmSync(home, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
