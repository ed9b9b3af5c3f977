/**
 * The queue door against /run of the same flow, in one session on one server:
 *  1. /run requests per second (the baseline),
 *  2. /enqueue requests per second (each 202 once its group-committed write is on disk),
 *  3. end-to-end: how fast the workers process what was enqueued (run records in svc-log.db).
 * Server pinned to core 1, autocannon to core 0. Run: npm run bench:enqueue
 */
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ORDER_BODY } from '../run/order-body';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const root = resolve(__dirname, '..', '..', '..');
const bin = join(root, 'bin', 'svc');

function urlOf(child: ChildProcess): Promise<string> {
  return new Promise((ok, fail) => {
    let out = '';
    child.stdout?.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m?.[1]) ok(m[1]);
    });
    child.on('exit', (code) => fail(new Error(`server exited with ${code}: ${out}`)));
  });
}

async function main(): Promise<void> {
  const home = mkdtempSync(join(tmpdir(), 'svc-bench-enqueue-'));
  const env = { PATH: process.env.PATH, HOME: home, SVC_SECRET_SVC_STATE_KEY: 'bench', RUST_LOG: 'warn' };
  const cli = (args: string[]): string => {
    const r = spawnSync(process.execPath, [bin, ...args], { env, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`svc ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };
  let server: ChildProcess | undefined;
  try {
    cli(['tenant', 'create', '--id', 'bench', '--display-name', 'Bench']);
    cli(['deploy', join(root, 'bench', 'run', 'order-transform.flow.md'), '-v', '1.0.0']);
    const key = /^key:\s+(\S+)$/m.exec(cli(['keys', 'create', '--tenant', 'bench', '--label', 'bench']))?.[1] ?? '';
    server = spawn('taskset', ['-c', '1', process.execPath, bin, 'serve', '--host', '127.0.0.1', '--port', '0'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const url = await urlOf(server);
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const load = async (path: string, seconds: number): Promise<autocannon.Result> =>
      autocannon({ url: `${url}/flows/bench/order-transform/${path}`, method: 'POST', headers, body: ORDER_BODY, connections: CONNECTIONS, duration: seconds });
    await load('run', 2);
    const run = await load('run', SECONDS);
    await load('enqueue', 2);
    const processedBefore = (): number => {
      const db = new Database(join(home, '.svc', 'svc-log.db'), { readonly: true });
      const n = (db.prepare("SELECT COUNT(*) AS n FROM runs WHERE door = 'enqueue'").get() as { n: number }).n;
      db.close();
      return n;
    };
    // Let the warm-up's messages drain before measuring.
    for (let i = 0; i < 600; i++) {
      const a = processedBefore();
      await new Promise((r) => setTimeout(r, 500));
      if (processedBefore() === a) break;
    }
    const start = processedBefore();
    const t0 = Date.now();
    const enq = await load('enqueue', SECONDS);
    const accepted = enq.requests.total - enq.non2xx;
    let processed = processedBefore() - start;
    while (processed < accepted && Date.now() - t0 < 10 * SECONDS * 1000) {
      await new Promise((r) => setTimeout(r, 200));
      processed = processedBefore() - start;
    }
    const e2eSeconds = (Date.now() - t0) / 1000;
    const base = run.requests.average;
    console.log('| measure | per second | x /run | p50 ms | p99 ms | non-2xx |');
    console.log('|---|---|---|---|---|---|');
    console.log(`| /run of the flow (baseline) | ${base.toFixed(0)} | 1.00 | ${run.latency.p50} | ${run.latency.p99} | ${run.non2xx} |`);
    console.log(`| /enqueue, 202 once the write is on disk | ${enq.requests.average.toFixed(0)} | ${(enq.requests.average / base).toFixed(2)} | ${enq.latency.p50} | ${enq.latency.p99} | ${enq.non2xx} |`);
    console.log(`| enqueued and processed end to end | ${(processed / e2eSeconds).toFixed(0)} | ${(processed / e2eSeconds / base).toFixed(2)} | | | |`);
    console.log(`\n${accepted} messages accepted, ${processed} processed in ${e2eSeconds.toFixed(1)} s; ${CONNECTIONS} connections, ${SECONDS} s, ${new Date().toISOString()}, node ${process.version}`);
  } finally {
    server?.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 1500));
    rmSync(home, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
