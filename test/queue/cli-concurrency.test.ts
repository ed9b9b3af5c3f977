import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { FlowQueue, flowPaths, listDeadLetters } from '../../src/infra/queue';
import { RecordingLogger, runChild, sleep, tempQueuesDir } from './helpers';

/** The CLI (a child process) replays or discards every dead letter while the server enqueues, works and drains. */
const CLI = `
const q = require(process.env.QUEUE_MODULE);
const fs = require('fs');
const out = (s) => fs.writeSync(1, s + '\\n');
const total = Number(process.env.TOTAL);
const done = new Set();
(async () => {
  const deadline = Date.now() + 20000;
  while (done.size < total && Date.now() < deadline) {
    for (const e of q.listDeadLetters(process.env.DIR, { tenant: 'acme', flow: 'orders' })) {
      if (done.has(e.id)) continue;
      try {
        if (e.id % 3 === 0) { await q.discardDeadLetter(process.env.DIR, 'acme', 'orders', e.id, { lock: { pollMs: 1 } }); out('D ' + e.id); }
        else { await q.replayDeadLetter(process.env.DIR, 'acme', 'orders', e.id, { lock: { pollMs: 1 } }); out('R ' + e.id); }
        done.add(e.id);
      } catch (err) { if (err.name !== 'DeadLetterNotFound') throw err; }
    }
    await new Promise((r) => setTimeout(r, 1));
  }
  process.exit(done.size === total ? 0 : 3);
})().catch((e) => { console.error(e); process.exit(4); });
`;

describe('queue: CLI and server at once', function () {
  this.timeout(30_000);

  it('replay/discard in another process while the server enqueues, dead-letters, acks and drains: nothing lost or duplicated', async () => {
    const { dir, cleanup } = tempQueuesDir();
    const TOTAL = 150;
    const logger = new RecordingLogger();
    const q = FlowQueue.open(dir, 'acme', 'orders', logger, { compactMinBytes: 0, lock: { pollMs: 1 } });
    const cli = runChild(CLI, { DIR: dir, TOTAL: String(TOTAL) });
    try {
      const deadLettered = new Set<number>();
      const processedAfterReplay: number[] = [];
      let enqueued = 0;
      let drains = 0;
      let cliDone = false;
      void cli.exited.then(() => (cliDone = true));
      const deadline = Date.now() + 25_000;
      while (Date.now() < deadline) {
        if (enqueued < TOTAL) {
          const wave = Math.min(10, TOTAL - enqueued);
          await Promise.all(Array.from({ length: wave }, (_, i) => q.enqueue({ n: enqueued + i }, 'c')));
          enqueued += wave;
        }
        q.refresh();
        for (let m = q.take(Date.now()); m; m = q.take(Date.now())) {
          if (!deadLettered.has(m.id)) {
            expect(m.attempt).to.equal(1);
            await q.deadLetter(m.id, 1, 'first delivery fails');
            deadLettered.add(m.id);
          } else {
            expect(m.attempt).to.equal(1); // fresh counter after a replay
            await q.ack(m.id);
            processedAfterReplay.push(m.id);
          }
        }
        if (q.pending === 0 && q.inFlight === 0) {
          await q.drain();
          drains += 1;
        }
        const replayedSoFar = cli.lines.filter((l) => l.startsWith('R ')).length;
        if (cliDone && enqueued === TOTAL && processedAfterReplay.length >= replayedSoFar && q.pending + q.inFlight === 0) break;
        await sleep(1);
      }
      const exit = await cli.exited;
      expect(exit.code, cli.stderr()).to.equal(0);
      const replayed = cli.lines.filter((l) => l.startsWith('R ')).map((l) => Number(l.slice(2)));
      const discarded = cli.lines.filter((l) => l.startsWith('D ')).map((l) => Number(l.slice(2)));
      expect(replayed.length + discarded.length).to.equal(TOTAL);
      expect(new Set([...replayed, ...discarded]).size).to.equal(TOTAL);
      expect([...processedAfterReplay].sort((a, b) => a - b)).to.deep.equal([...replayed].sort((a, b) => a - b));
      expect(drains).to.be.greaterThan(0);
      expect(listDeadLetters(dir, {})).to.have.length(0);
      await q.drain();
      expect(readFileSync(flowPaths(dir, 'acme', 'orders').deadLetters, 'utf8').trim()).to.equal('');
      expect(logger.errors()).to.have.length(0);
      await q.close();
      const r = FlowQueue.open(dir, 'acme', 'orders', logger);
      expect(r.pending).to.equal(0);
      expect((await r.enqueue({}, 'c')).id).to.equal(TOTAL + 1);
      await r.close();
    } finally {
      cli.child.kill('SIGKILL');
      await q.close();
      cleanup();
    }
  });
});
