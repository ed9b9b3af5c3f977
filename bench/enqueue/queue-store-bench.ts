/**
 * Enqueue throughput of the file queue (one durable write per group-commit batch: O_DSYNC, or write + fdatasync).
 *   npx tsc -p tsconfig.json && node dist/bench/enqueue/queue-store-bench.js [messages] [bodyBytes]
 * Runs each concurrency level (outstanding enqueues) against a fresh queue in a temp dir
 * (set BENCH_DIR to measure another disk).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FlowQueue } from '../../src/infra/queue';

const silent = { log: (): void => undefined };

async function run(concurrency: number, total: number, bodyBytes: number): Promise<void> {
  const root = mkdtempSync(join(process.env.BENCH_DIR ?? tmpdir(), 'svc-queue-bench-'));
  try {
    const q = FlowQueue.open(join(root, 'queues'), 'bench', 'enqueue', silent);
    const body = { pad: 'x'.repeat(bodyBytes) };
    let issued = 0;
    const started = process.hrtime.bigint();
    const worker = async (): Promise<void> => {
      while (issued < total) {
        issued += 1;
        await q.enqueue(body, 'corr');
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const { batches, records } = q.commitStats;
    await q.close();
    console.log(
      `concurrency ${String(concurrency).padStart(4)}: ${Math.round(total / seconds).toString().padStart(7)} msg/s, ` +
        `${batches} durable writes (${(records / batches).toFixed(1)} msg/batch), ${((seconds * 1000) / batches).toFixed(2)} ms/batch`,
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const total = Number(process.argv[2] ?? 20000);
  const bodyBytes = Number(process.argv[3] ?? 256);
  console.log(`file queue enqueue: ${total} messages of ~${bodyBytes} B body, Node ${process.version}`);
  for (const c of [1, 8, 64, 256]) await run(c, c === 1 ? Math.min(total, 2000) : total, bodyBytes);
}

void main();
