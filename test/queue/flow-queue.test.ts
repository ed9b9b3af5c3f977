import { expect } from 'chai';
import { constants, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { crc32, crc32Fallback } from '../../src/infra/queue/crc32';
import { FlowQueue, flowPaths, listDeadLetters } from '../../src/infra/queue';
import { RecordingLogger, tempQueuesDir } from './helpers';

describe('queue: FlowQueue basics', function () {
  this.timeout(10_000);
  let dir: string;
  let cleanup: () => void;
  let logger: RecordingLogger;
  const open = (opts = {}): FlowQueue => FlowQueue.open(dir, 'acme', 'orders', logger, opts);

  beforeEach(() => {
    ({ dir, cleanup } = tempQueuesDir());
    logger = new RecordingLogger();
  });
  afterEach(() => cleanup());

  it('crc32: the native and the portable implementation agree', () => {
    for (const s of ['', 'a', '{"t":"enq","id":1}', 'héllo wörld ✓'.repeat(20)]) expect(crc32(s)).to.equal(crc32Fallback(s));
    expect(crc32('123456789')).to.equal(0xcbf43926);
  });

  it('the real configuration holds both logs open O_DSYNC: a write is durable when it returns', async function () {
    if (process.platform !== 'linux') this.skip();
    const q = open();
    await q.enqueue({ n: 1 }, 'c');
    const paths = flowPaths(dir, 'acme', 'orders');
    const flagsOf = (file: string): number[] =>
      readdirSync('/proc/self/fd')
        .filter((fd) => {
          try {
            return readlinkSync(`/proc/self/fd/${fd}`) === file;
          } catch {
            return false;
          }
        })
        .map((fd) => parseInt(/^flags:\s+([0-7]+)/m.exec(readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8'))?.[1] ?? '0', 8));
    for (const file of [paths.main, paths.deadLetters]) {
      const flags = flagsOf(file);
      expect(flags, file).to.have.length(1);
      expect((flags[0] as number) & constants.O_DSYNC, file).to.equal(constants.O_DSYNC);
    }
    await q.close();
  });

  it('enqueue → take → ack, FIFO by id, ids increasing, event and correlation kept', async () => {
    const q = open();
    const a = await q.enqueue({ n: 1 }, 'corr-1', { source: 'crm', type: 'contact.created', id: 'ev1' });
    const b = await q.enqueue({ n: 2 }, 'corr-2');
    expect(b.id).to.be.greaterThan(a.id);
    expect(a.attempt).to.equal(1);
    expect(q.pending).to.equal(2);
    const t1 = q.take(Date.now());
    expect(t1).to.include({ id: a.id, correlationId: 'corr-1', attempt: 1, tenant: 'acme', flow: 'orders' });
    expect(t1?.event).to.deep.equal({ source: 'crm', type: 'contact.created', id: 'ev1' });
    expect(q.inFlight).to.equal(1);
    const t2 = q.take(Date.now());
    expect(t2?.id).to.equal(b.id);
    expect(q.take(Date.now())).to.equal(undefined);
    await q.ack(a.id);
    await q.ack(b.id);
    expect(q.pending + q.inFlight).to.equal(0);
    await q.close();
    const again = open();
    expect(again.pending).to.equal(0);
    await again.close();
  });

  it('un-acked messages come back after reopen; acked ones do not', async () => {
    const q = open();
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) ids.push((await q.enqueue({ i }, `c${i}`)).id);
    q.take(Date.now());
    await q.ack(ids[0]);
    q.take(Date.now()); // in flight at "crash": redelivered
    await q.close();
    const r = open();
    expect(r.pending).to.equal(4);
    const seen: number[] = [];
    for (let m = r.take(Date.now()); m; m = r.take(Date.now())) seen.push(m.id);
    expect(seen).to.deep.equal(ids.slice(1));
    await r.close();
  });

  it('retry: pending again at notBefore with the next attempt and last error, also after reopen', async () => {
    const q = open();
    const m = await q.enqueue({ x: 1 }, 'c');
    const now = Date.now();
    q.take(now);
    await q.retry(m.id, 2, now + 60_000, 'upstream 502');
    expect(q.take(now)).to.equal(undefined);
    expect(q.nextDueAt()).to.equal(now + 60_000);
    const again = q.take(now + 60_000);
    expect(again).to.include({ id: m.id, attempt: 2, lastError: 'upstream 502', notBefore: now + 60_000 });
    q.release(m.id);
    await q.close();
    const r = open();
    expect(r.take(now)).to.equal(undefined);
    expect(r.take(now + 60_000)).to.include({ id: m.id, attempt: 2, lastError: 'upstream 502' });
    await r.close();
  });

  it('a due message is taken before a later one still waiting; nextDueAt follows', async () => {
    const q = open();
    const a = await q.enqueue('a', 'c');
    const b = await q.enqueue('b', 'c');
    const now = Date.now();
    q.take(now);
    await q.retry(a.id, 2, now + 1000, 'e');
    expect(q.take(now)?.id).to.equal(b.id);
    q.release(b.id);
    expect(q.nextDueAt()).to.be.at.most(now);
    expect(q.take(now + 1000)?.id).to.equal(a.id); // FIFO by id among due
    await q.close();
  });

  it('dead-letter after N attempts: in the dead-letter log, out of the main queue, listed', async () => {
    const q = open();
    const m = await q.enqueue({ order: 7 }, 'corr-7');
    const maxAttempts = 3;
    let t = Date.now();
    for (let attempt = 1; ; attempt++) {
      const d = q.take(t);
      expect(d?.attempt).to.equal(attempt);
      if (attempt === maxAttempts) {
        const dl = await q.deadLetter(m.id, attempt, 'boom');
        expect(dl).to.include({ id: m.id, attempts: 3, lastError: 'boom', correlationId: 'corr-7', tenant: 'acme', flow: 'orders' });
        break;
      }
      t += 10;
      await q.retry(m.id, attempt + 1, t, 'boom');
    }
    expect(q.pending + q.inFlight).to.equal(0);
    const listed = listDeadLetters(dir, {});
    expect(listed).to.have.length(1);
    expect(listed[0]).to.include({ id: m.id, attempts: 3, lastError: 'boom' });
    expect(listed[0].body).to.deep.equal({ order: 7 });
    await q.close();
    const r = open();
    expect(r.pending).to.equal(0);
    await r.close();
  });

  it('ids survive reopen and compaction; compaction leaves only the next id', async () => {
    const q = open({ compactMinBytes: 0 });
    let last = 0;
    for (let i = 0; i < 10; i++) {
      const m = await q.enqueue({ i }, 'c');
      expect(m.id).to.be.greaterThan(last);
      last = m.id;
      q.take(Date.now());
      await q.ack(m.id);
    }
    await q.drain();
    const text = readFileSync(flowPaths(dir, 'acme', 'orders').main, 'utf8');
    expect(text.trim().split('\n')).to.have.length(1);
    expect(text).to.contain(`"next":${last + 1}`);
    const after = await q.enqueue({}, 'c');
    expect(after.id).to.equal(last + 1);
    await q.close();
    const r = open();
    expect((await r.enqueue({}, 'c')).id).to.equal(last + 2);
    expect(r.pending).to.equal(2);
    await r.close();
    expect(logger.errors()).to.have.length(0);
  });

  it('drain does nothing while messages are pending or in flight', async () => {
    const q = open({ compactMinBytes: 0 });
    const m = await q.enqueue({}, 'c');
    const size = readFileSync(flowPaths(dir, 'acme', 'orders').main).length;
    await q.drain();
    q.take(Date.now());
    await q.drain();
    expect(readFileSync(flowPaths(dir, 'acme', 'orders').main).length).to.equal(size);
    await q.ack(m.id);
    await q.drain();
    expect(readFileSync(flowPaths(dir, 'acme', 'orders').main).length).to.be.lessThan(size);
    await q.close();
  });

  it('group commit: concurrent enqueues share batches (fewer write+fdatasync than records)', async () => {
    const q = open();
    const before = q.commitStats;
    const results = await Promise.all(Array.from({ length: 200 }, (_, i) => q.enqueue({ i }, `c${i}`)));
    const after = q.commitStats;
    expect(after.records - before.records).to.equal(200);
    expect(after.batches - before.batches).to.be.lessThan(50);
    const ids = results.map((r) => r.id);
    expect(ids).to.deep.equal([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).to.equal(200);
    await q.close();
  });

  it('refuses ack/retry/deadLetter of a message not in flight, and use after close', async () => {
    const q = open();
    const m = await q.enqueue({}, 'c');
    let err: unknown;
    await q.ack(m.id).catch((e: unknown) => (err = e));
    expect(String(err)).to.match(/not in flight/);
    await q.close();
    err = undefined;
    await q.enqueue({}, 'c').catch((e: unknown) => (err = e));
    expect(String(err)).to.match(/closed/);
  });

  it('refuses a tenant or flow name that would leave the queues folder', () => {
    expect(() => FlowQueue.open(dir, '..', 'x', logger)).to.throw(/invalid tenant/);
    expect(() => FlowQueue.open(dir, 'a', 'x/y', logger)).to.throw(/invalid flow/);
  });
});
