import { expect } from 'chai';
import { closeSync, openSync, readFileSync, statSync, truncateSync, writeSync } from 'node:fs';
import { FlowQueue, flowPaths, listDeadLetters } from '../../src/infra/queue';
import { encodeRecord } from '../../src/infra/queue/record-codec';
import { RecordingLogger, tempQueuesDir } from './helpers';

describe('queue: torn and corrupt records', function () {
  this.timeout(10_000);
  let dir: string;
  let cleanup: () => void;
  let logger: RecordingLogger;
  const open = (): FlowQueue => FlowQueue.open(dir, 'acme', 'orders', logger, { compactMinBytes: 0 });
  const mainPath = (): string => flowPaths(dir, 'acme', 'orders').main;

  beforeEach(() => {
    ({ dir, cleanup } = tempQueuesDir());
    logger = new RecordingLogger();
  });
  afterEach(() => cleanup());

  async function fill(n: number): Promise<number[]> {
    const q = open();
    const ids: number[] = [];
    for (let i = 0; i < n; i++) ids.push((await q.enqueue({ i, text: 'payload-' + i }, `c${i}`)).id);
    await q.close();
    return ids;
  }

  function pendingIds(q: FlowQueue): number[] {
    const out: number[] = [];
    for (let m = q.take(Number.MAX_SAFE_INTEGER); m; m = q.take(Number.MAX_SAFE_INTEGER)) out.push(m.id);
    for (const id of out) q.release(id);
    return out;
  }

  it('a torn tail is reported once (file and offset), truncated, and later appends are fine', async () => {
    const ids = await fill(5);
    const size = statSync(mainPath()).size;
    truncateSync(mainPath(), size - 12); // cut into the last record
    const q = open();
    expect(logger.errors()).to.have.length(1);
    const report = logger.errors()[0];
    expect(report.fields.file).to.equal(mainPath());
    expect(report.fields.offset).to.be.a('number');
    expect(report.message).to.match(/torn/);
    expect(pendingIds(q)).to.deep.equal(ids.slice(0, 4));
    const text = readFileSync(mainPath(), 'utf8');
    expect(text.endsWith('\n')).to.equal(true);
    q.refresh();
    q.refresh();
    const added = await q.enqueue({ after: true }, 'c');
    expect(added.id).to.be.greaterThan(ids[3]);
    await q.close();
    expect(logger.errors()).to.have.length(1);
    const r = open();
    expect(logger.errors()).to.have.length(1); // nothing left to report
    expect(pendingIds(r)).to.deep.equal([...ids.slice(0, 4), added.id]);
    await r.close();
  });

  it('a corrupted byte mid-file is reported once per open, that record skipped, the others intact', async () => {
    const ids = await fill(5);
    const buf = readFileSync(mainPath());
    const at = buf.indexOf('payload-2');
    expect(at).to.be.greaterThan(0);
    const fd = openSync(mainPath(), 'r+');
    writeSync(fd, Buffer.from('X'), 0, 1, at + 3);
    closeSync(fd);
    const lineStart = buf.lastIndexOf(0x0a, at) + 1;

    const q = open();
    expect(logger.errors()).to.have.length(1);
    expect(logger.errors()[0].fields).to.include({ file: mainPath(), offset: lineStart, reason: 'checksum mismatch' });
    expect(pendingIds(q)).to.deep.equal([ids[0], ids[1], ids[3], ids[4]]);
    q.refresh();
    const added = await q.enqueue({ more: 1 }, 'c');
    q.refresh();
    expect(logger.errors()).to.have.length(1);
    // process everything; the drain's compaction drops the bad record for good
    for (let m = q.take(Date.now() + 1000); m; m = q.take(Date.now() + 1000)) await q.ack(m.id);
    await q.drain();
    await q.close();
    logger.lines.length = 0;
    const r = open();
    expect(logger.errors()).to.have.length(0);
    expect((await r.enqueue({}, 'c')).id).to.equal(added.id + 1);
    await r.close();
  });

  it('a corrupt dead-letter record is reported and skipped; the other entries stay listed', async () => {
    const q = open();
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) {
      const m = await q.enqueue({ secret: 'dl-' + i }, 'c');
      q.take(Date.now());
      await q.deadLetter(m.id, 1, 'failed');
      ids.push(m.id);
    }
    await q.close();
    const path = flowPaths(dir, 'acme', 'orders').deadLetters;
    const buf = readFileSync(path);
    const at = buf.indexOf('dl-1');
    const fd = openSync(path, 'r+');
    writeSync(fd, Buffer.from('Z'), 0, 1, at);
    closeSync(fd);
    expect(listDeadLetters(dir, {}).map((d) => d.id)).to.deep.equal([ids[0], ids[2]]);
    const r = open();
    expect(logger.errors()).to.have.length(1);
    expect(logger.errors()[0].fields.file).to.equal(path);
    await r.close();
  });

  it('a fragment left mid-file by a torn write does not swallow the record after it', async () => {
    const ids = await fill(2);
    // a writer died mid-write (no newline); another writer's batch follows, starting with "\n"
    const fd = openSync(mainPath(), 'a');
    writeSync(fd, 'deadbeef {"t":"enq","id":98,"at":"2024');
    writeSync(fd, '\n' + encodeRecord({ t: 'enq', id: 50, at: new Date().toISOString(), c: 'c', e: null, b: { ok: true } }));
    closeSync(fd);
    const q = open();
    expect(logger.errors()).to.have.length(1);
    expect(logger.errors()[0].fields.offset).to.equal(statSync(mainPath()).size - readFileSync(mainPath(), 'utf8').split('\n').slice(-3).join('\n').length);
    expect(pendingIds(q)).to.deep.equal([...ids, 50]);
    expect((await q.enqueue({}, 'c')).id).to.equal(51);
    await q.close();
  });
});
