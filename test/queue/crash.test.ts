import { expect } from 'chai';
import { FlowQueue } from '../../src/infra/queue';
import { RecordingLogger, runChild, tempQueuesDir } from './helpers';

/**
 * kill -9 at a random moment: a child enqueues (4 producers, so batches are shared), acks,
 * retries and drains in a loop, printing a line only AFTER each promise resolved. Everything
 * printed must be exactly as durable as claimed after reopen.
 */
const CHILD = `
const q = require(process.env.QUEUE_MODULE);
const fs = require('fs');
const out = (s) => fs.writeSync(1, s + '\\n');
const fq = q.FlowQueue.open(process.env.DIR, 'acme', 'orders', { log() {} }, { compactMinBytes: 0 });
const mode = process.env.MODE;
let n = 0;
async function producer() {
  for (;;) {
    const m = await fq.enqueue({ n: n++, pad: 'x'.repeat(200) }, 'c');
    out('E ' + m.id);
    if (mode === 'drain' && n % 50 === 0) await new Promise((r) => setTimeout(r, 5));
  }
}
async function consumer() {
  for (;;) {
    const m = fq.take(Date.now());
    if (!m) { if (mode === 'drain') await fq.drain(); await new Promise((r) => setImmediate(r)); continue; }
    out('T ' + m.id);
    if (mode === 'drain' || m.id % 2 === 0) { await fq.ack(m.id); out('A ' + m.id); }
    else { await fq.retry(m.id, m.attempt + 1, Date.now() + 3600000, 'later'); out('R ' + m.id + ' ' + (m.attempt + 1)); }
  }
}
out('READY');
for (let i = 0; i < 4; i++) producer();
consumer();
`;

describe('queue: crash safety (SIGKILL at a random moment)', function () {
  this.timeout(30_000);

  for (const mode of ['mixed', 'drain'] as const) {
    it(`${mode}: every resolved enqueue/ack/retry is durable after kill -9 (4 rounds)`, async () => {
      const { dir, cleanup } = tempQueuesDir();
      try {
        const enqueued = new Set<number>();
        const acked = new Set<number>();
        const retried = new Map<number, number>();
        /** taken, ack/retry not confirmed when the kill came: either outcome is fine */
        const undecided = new Set<number>();
        for (let round = 0; round < 4; round++) {
          const child = runChild(CHILD, { DIR: dir, MODE: mode });
          await child.waitFor((l) => l.some((x) => x.startsWith('E ')), 10_000);
          await new Promise((r) => setTimeout(r, 100 + Math.floor(Math.random() * 400)));
          child.child.kill('SIGKILL');
          const exit = await child.exited;
          expect(exit.signal).to.equal('SIGKILL');
          const taken = new Set<number>();
          for (const line of child.lines) {
            const [kind, a, b] = line.split(' ');
            if (kind === 'E') enqueued.add(Number(a));
            if (kind === 'T') taken.add(Number(a));
            if (kind === 'A') {
              acked.add(Number(a));
              taken.delete(Number(a));
            }
            if (kind === 'R') {
              retried.set(Number(a), Number(b));
              taken.delete(Number(a));
            }
          }
          for (const id of taken) undecided.add(id);
          expect(enqueued.size).to.be.greaterThan(0);

          const logger = new RecordingLogger();
          const q = FlowQueue.open(dir, 'acme', 'orders', logger);
          const present = new Map<number, number>();
          for (let m = q.take(Number.MAX_SAFE_INTEGER); m; m = q.take(Number.MAX_SAFE_INTEGER)) present.set(m.id, m.attempt);
          for (const id of enqueued) {
            if (acked.has(id)) expect(present.has(id), `acked ${id} came back`).to.equal(false);
            else if (undecided.has(id)) continue;
            else expect(present.has(id), `enqueued ${id} lost (round ${round})`).to.equal(true);
          }
          for (const [id, attempt] of retried) if (!acked.has(id) && !undecided.has(id)) expect(present.get(id)).to.be.at.least(attempt);
          const fresh = await q.enqueue({}, 'c');
          expect(fresh.id).to.be.greaterThan(Math.max(...enqueued));
          enqueued.add(fresh.id);
          // only torn-tail / unreadable-record reports are acceptable after a kill
          for (const e of logger.errors()) expect(e.message).to.match(/torn|unreadable/);
          for (const id of present.keys()) q.release(id);
          // after this reopen every message is decided again: undecided ones present are plain pending
          for (const id of undecided) if (!present.has(id)) acked.add(id);
          undecided.clear();
          await q.close();
        }
      } finally {
        cleanup();
      }
    });
  }
});
