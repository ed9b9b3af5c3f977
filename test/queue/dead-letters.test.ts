import { expect } from 'chai';
import * as fs from 'node:fs';
import {
  DeadLetterNotFound,
  discardDeadLetter,
  FlowLockBusy,
  FlowQueue,
  flowPaths,
  listDeadLetters,
  QueueFileOps,
  realFileOps,
  replayDeadLetter,
} from '../../src/infra/queue';
import { RecordingLogger, runChild, tempQueuesDir } from './helpers';

describe('queue: dead letters (CLI side) and the flow lock', function () {
  this.timeout(15_000);
  let dir: string;
  let cleanup: () => void;
  let logger: RecordingLogger;

  beforeEach(() => {
    ({ dir, cleanup } = tempQueuesDir());
    logger = new RecordingLogger();
  });
  afterEach(() => cleanup());

  async function deadLettered(tenant: string, flow: string, bodies: unknown[]): Promise<number[]> {
    const q = FlowQueue.open(dir, tenant, flow, logger);
    const ids: number[] = [];
    for (const b of bodies) {
      const m = await q.enqueue(b, 'corr');
      q.take(Date.now());
      await q.deadLetter(m.id, 2, `failed ${m.id}`);
      ids.push(m.id);
    }
    await q.close();
    return ids;
  }

  it('a missing queues folder lists nothing', () => {
    expect(listDeadLetters(dir, {})).to.deep.equal([]);
  });

  it('lists pending entries across flows ordered by tenant, flow, id, with filters', async () => {
    await deadLettered('zeta', 'a', [1, 2]);
    await deadLettered('acme', 'orders', [3]);
    await deadLettered('acme', 'invoices', [4, 5]);
    const all = listDeadLetters(dir, {});
    expect(all.map((d) => `${d.tenant}/${d.flow}/${d.id}`)).to.deep.equal([
      'acme/invoices/1',
      'acme/invoices/2',
      'acme/orders/1',
      'zeta/a/1',
      'zeta/a/2',
    ]);
    expect(all[0]).to.include({ attempts: 2, lastError: 'failed 1', correlationId: 'corr' });
    expect(all[0].failedAt).to.match(/^\d{4}-\d\d-\d\dT.*Z$/);
    expect(listDeadLetters(dir, { tenant: 'acme' })).to.have.length(3);
    expect(listDeadLetters(dir, { tenant: 'acme', flow: 'orders' })).to.have.length(1);
    expect(listDeadLetters(dir, { flow: 'a' })).to.have.length(2);
  });

  it('replay: back in the main queue with attempt 1 and its original id; the running server picks it up on refresh', async () => {
    const q = FlowQueue.open(dir, 'acme', 'orders', logger);
    const m = await q.enqueue({ order: 1 }, 'corr-1');
    q.take(Date.now());
    await q.retry(m.id, 2, Date.now(), 'e1');
    q.take(Date.now());
    await q.deadLetter(m.id, 2, 'e2');
    expect(q.pending).to.equal(0);
    const replayed = await replayDeadLetter(dir, 'acme', 'orders', m.id);
    expect(replayed).to.include({ id: m.id, tenant: 'acme', flow: 'orders' });
    expect(listDeadLetters(dir, {})).to.have.length(0);
    q.refresh();
    const again = q.take(Date.now());
    expect(again).to.include({ id: m.id, attempt: 1, correlationId: 'corr-1', lastError: null });
    expect(again?.body).to.deep.equal({ order: 1 });
    q.refresh(); // nothing new: not applied twice
    expect(q.pending + q.inFlight).to.equal(1);
    await q.ack(m.id);
    const n = await q.enqueue({}, 'c');
    expect(n.id).to.be.greaterThan(m.id);
    await q.close();
    const r = FlowQueue.open(dir, 'acme', 'orders', logger);
    expect(r.pending).to.equal(1);
    await r.close();
    let err: unknown;
    await replayDeadLetter(dir, 'acme', 'orders', m.id).catch((e: unknown) => (err = e));
    expect(err).to.be.instanceOf(DeadLetterNotFound);
    expect((err as Error).message).to.match(/id=1 .*tenant=acme flow=orders.*replayed or discarded already/);
  });

  it('a replay made while no server runs is delivered at the next start', async () => {
    const [id] = await deadLettered('acme', 'orders', [{ a: 1 }]);
    await replayDeadLetter(dir, 'acme', 'orders', id);
    const q = FlowQueue.open(dir, 'acme', 'orders', logger);
    expect(q.take(Date.now())).to.include({ id, attempt: 1 });
    await q.close();
  });

  it('discard: hidden at once, the body leaves the disk at the next drain', async () => {
    const ids = await deadLettered('acme', 'orders', [{ secret: 'BODY-ONE' }, { secret: 'BODY-TWO' }]);
    const q = FlowQueue.open(dir, 'acme', 'orders', logger);
    const d = await discardDeadLetter(dir, 'acme', 'orders', ids[0]);
    expect(d.body).to.deep.equal({ secret: 'BODY-ONE' });
    expect(listDeadLetters(dir, {}).map((e) => e.id)).to.deep.equal([ids[1]]);
    const path = flowPaths(dir, 'acme', 'orders').deadLetters;
    expect(fs.readFileSync(path, 'utf8')).to.contain('BODY-ONE');
    await q.drain();
    const text = fs.readFileSync(path, 'utf8');
    expect(text).not.to.contain('BODY-ONE');
    expect(text).to.contain('BODY-TWO');
    expect(listDeadLetters(dir, {}).map((e) => e.id)).to.deep.equal([ids[1]]);
    let err: unknown;
    await discardDeadLetter(dir, 'acme', 'orders', ids[0]).catch((e: unknown) => (err = e));
    expect(err).to.be.instanceOf(DeadLetterNotFound);
    await discardDeadLetter(dir, 'nobody', 'nothing', 1).catch((e: unknown) => (err = e));
    expect((err as Error).message).to.contain('tenant=nobody flow=nothing');
    await q.close();
  });

  it('a replay of the entry whose dead-lettering is still under way wins, live and after reopen', async () => {
    let gate: (() => void) | undefined;
    const held = new Promise<void>((r) => (gate = r));
    const ops: QueueFileOps = {
      syncedWrites: realFileOps.syncedWrites,
      write: async (fd, data) => {
        if (data.includes('"t":"dead"')) await held; // the main-log mark waits
        return realFileOps.write(fd, data);
      },
      fdatasync: realFileOps.fdatasync,
    };
    const q = FlowQueue.open(dir, 'acme', 'orders', logger, { fileOps: ops });
    const m = await q.enqueue({ v: 1 }, 'c');
    q.take(Date.now());
    const dying = q.deadLetter(m.id, 1, 'boom');
    for (let i = 0; i < 100 && listDeadLetters(dir, {}).length === 0; i++) await new Promise((r) => setTimeout(r, 5));
    await replayDeadLetter(dir, 'acme', 'orders', m.id); // its `rep` lands BEFORE the `dead` mark
    q.refresh();
    gate?.();
    await dying;
    expect(q.pending).to.equal(1);
    await q.close();
    const r = FlowQueue.open(dir, 'acme', 'orders', logger);
    expect(r.take(Date.now())).to.include({ id: m.id, attempt: 1 });
    await r.close();
  });

  it('a crash between the dead-letter write and the main-log mark does not deliver the message again', async () => {
    const ops: QueueFileOps = {
      syncedWrites: realFileOps.syncedWrites,
      write: (fd, data) =>
        data.includes('"t":"dead"') ? Promise.reject(Object.assign(new Error('io'), { code: 'EIO' })) : realFileOps.write(fd, data),
      fdatasync: realFileOps.fdatasync,
    };
    const q = FlowQueue.open(dir, 'acme', 'orders', logger, { fileOps: ops });
    const m = await q.enqueue({ v: 1 }, 'c');
    q.take(Date.now());
    await q.deadLetter(m.id, 1, 'boom'); // stored; the mark failed (logged)
    expect(logger.lines.filter((l) => l.level === 'warn')).to.have.length(1);
    await q.close();
    const r = FlowQueue.open(dir, 'acme', 'orders', logger);
    expect(r.pending).to.equal(0);
    expect(listDeadLetters(dir, {})).to.have.length(1);
    await r.close();
  });

  it('lock: a stale lock (dead pid) is taken over; a live holder means a bounded wait and FlowLockBusy', async () => {
    const [id] = await deadLettered('acme', 'orders', [1]);
    const lockPath = flowPaths(dir, 'acme', 'orders').lock;
    const dead = runChild('process.stdout.write(String(process.pid))');
    await dead.exited;
    const deadPid = Number(dead.lines[0]);
    expect(deadPid).to.be.greaterThan(0);
    const host = (await import('node:os')).hostname();
    fs.writeFileSync(lockPath, JSON.stringify({ pid: deadPid, host, at: new Date().toISOString(), token: 'old' }));
    const t0 = Date.now();
    await discardDeadLetter(dir, 'acme', 'orders', id, { lock: { timeoutMs: 2000 } });
    expect(Date.now() - t0).to.be.below(1000);
    expect(fs.existsSync(lockPath)).to.equal(false);
    // an unreadable lock file (creator died before writing it) is stale once it is 2 s old
    const [idU] = await deadLettered('acme', 'orders', [3]);
    fs.writeFileSync(lockPath, '');
    const old = new Date(Date.now() - 5000);
    fs.utimesSync(lockPath, old, old);
    await discardDeadLetter(dir, 'acme', 'orders', idU, { lock: { timeoutMs: 1000 } });

    const [id2] = await deadLettered('acme', 'orders', [2]);
    fs.writeFileSync(lockPath, JSON.stringify({ pid: process.ppid, host, at: '2024-01-01T00:00:00.000Z', token: 'live' }));
    const started = Date.now();
    let err: unknown;
    await replayDeadLetter(dir, 'acme', 'orders', id2, { lock: { timeoutMs: 300 } }).catch((e: unknown) => (err = e));
    expect(Date.now() - started).to.be.within(250, 2000);
    expect(err).to.be.instanceOf(FlowLockBusy);
    expect((err as Error).message).to.contain(lockPath).and.to.contain(`pid ${process.ppid}`);
    expect(() => FlowQueue.open(dir, 'acme', 'orders', logger, { lock: { timeoutMs: 100 } })).to.throw(FlowLockBusy);
    expect(listDeadLetters(dir, {}).map((d) => d.id)).to.deep.equal([id2]);
    fs.unlinkSync(lockPath);
  });

  it('drain waits for a CLI holding the lock, and skips (logged) when it holds it too long', async () => {
    const ids = await deadLettered('acme', 'orders', [{ s: 'GONE' }, 2]);
    const q = FlowQueue.open(dir, 'acme', 'orders', logger, { lock: { timeoutMs: 200 } });
    await discardDeadLetter(dir, 'acme', 'orders', ids[0]);
    const lockPath = flowPaths(dir, 'acme', 'orders').lock;
    const host = (await import('node:os')).hostname();
    fs.writeFileSync(lockPath, JSON.stringify({ pid: process.ppid, host, at: new Date().toISOString(), token: 'cli' }));
    await q.drain();
    expect(logger.lines.filter((l) => l.level === 'warn' && /lock busy/.test(l.message))).to.have.length(1);
    fs.unlinkSync(lockPath);
    await q.drain();
    expect(fs.readFileSync(flowPaths(dir, 'acme', 'orders').deadLetters, 'utf8')).not.to.contain('GONE');
    await q.close();
  });
});
