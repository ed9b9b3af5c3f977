/**
 * Start-up time of the CLI, as scripts feel it: `svc --version` and `svc tenant list` against a
 * registry with one tenant, each beside a bare `node -e ""` baseline measured in the same run.
 * Run: npm run bench:cli   (prints a Markdown table for bench/README.md)
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const RUNS = Number(process.env.BENCH_RUNS ?? 21);
const root = resolve(__dirname, '..', '..', '..');
const bin = join(root, 'bin', 'svc');
const home = mkdtempSync(join(tmpdir(), 'svc-bench-cli-'));
const env = { PATH: process.env.PATH, HOME: home };

function time(args: string[]): number[] {
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = process.hrtime.bigint();
    const r = spawnSync(process.execPath, args, { env, encoding: 'utf8' });
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    if (r.status !== 0) throw new Error(`${args.join(' ')} failed: ${r.stderr}`);
    samples.push(ms);
  }
  return samples.sort((a, b) => a - b);
}

const pct = (s: number[], p: number): number => s[Math.min(s.length - 1, Math.floor((s.length - 1) * p))] ?? NaN;

try {
  spawnSync(process.execPath, [bin, 'tenant', 'create', '--id', 'acme', '--display-name', 'Acme'], { env });
  const cases: Array<[string, string[], number]> = [
    ['node -e "" (baseline)', ['-e', ''], NaN],
    ['svc --version', [bin, '--version'], 250],
    ['svc tenant list', [bin, 'tenant', 'list'], 800],
  ];
  const results = cases.map(([name, args, target]) => ({ name, target, s: time(args) }));
  const base = pct(results[0]?.s ?? [], 0.5);
  console.log(`| command | median ms | p90 ms | x baseline | target |`);
  console.log(`|---|---|---|---|---|`);
  for (const r of results) {
    const med = pct(r.s, 0.5);
    console.log(`| ${r.name} | ${med.toFixed(0)} | ${pct(r.s, 0.9).toFixed(0)} | ${(med / base).toFixed(1)} | ${Number.isNaN(r.target) ? '' : `< ${r.target} ms`} |`);
  }
  console.log(`\n${RUNS} runs each, ${new Date().toISOString()}, node ${process.version}`);
} finally {
  rmSync(home, { recursive: true, force: true });
}
