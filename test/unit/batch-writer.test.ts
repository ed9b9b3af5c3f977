import { expect } from 'chai';
import type { RunRecord } from '../../src/domain/run-record';
import { BatchWriter } from '../../src/infra/batch-writer';
import { RunRecordColumns } from '../../src/infra/log-db/run-record-columns';

const run = (i: number, over: Partial<RunRecord> = {}): RunRecord => ({
  startedAt: 1_790_000_000_000 + i,
  tenant: i % 2 === 0 ? 'acme' : 'globex',
  flow: `flow-${i % 3}`,
  version: '1.2.3',
  door: i % 5 === 0 ? 'enqueue' : 'run',
  status: i % 7 === 0 ? 502 : 200,
  durationMs: i / 1000,
  correlationId: `corr-${i}`,
  errorCode: i % 7 === 0 ? 'upstream_error' : null,
  ...over,
});

describe('RunRecordColumns (run records waiting for their batch)', () => {
  it('gives back every record, in order, with every field as pushed', () => {
    const store = new RunRecordColumns();
    const pushed = Array.from({ length: 10 }, (_, i) => run(i));
    for (const r of pushed) store.push(r);
    expect(store.length).to.equal(10);
    expect(store.take()).to.deep.equal(pushed);
    expect(store.length).to.equal(0);
    expect(store.take()).to.deep.equal([]);
  });

  it('grows past its first capacity and keeps long and non-ASCII correlation ids intact', () => {
    const store = new RunRecordColumns();
    const long = 'x'.repeat(40_000);
    const pushed = Array.from({ length: 5000 }, (_, i) =>
      run(i, { correlationId: i === 17 ? 'id-ünïcødé-🚀' : i % 1000 === 3 ? `${long}${i}` : `corr-${i}`, errorCode: i === 4999 ? '' : null }),
    );
    for (const r of pushed) store.push(r);
    expect(store.take()).to.deep.equal(pushed);
  });

  it('starts clean after a take (names and bytes of the last batch are not reused)', () => {
    const store = new RunRecordColumns();
    store.push(run(1, { tenant: 'first', correlationId: 'aaaaaaaaaaaa' }));
    store.take();
    const second = run(2, { tenant: 'second', correlationId: 'b' });
    store.push(second);
    expect(store.take()).to.deep.equal([second]);
  });
});

describe('BatchWriter', () => {
  it('flushes on close and keeps a failed batch, in order, for the next attempt', () => {
    const flushed: RunRecord[][] = [];
    let fail = true;
    const errors: number[] = [];
    const writer = new BatchWriter<RunRecord>(
      (items) => {
        if (fail) throw new Error('disk full');
        flushed.push([...items]);
      },
      60_000,
      (_err, pending) => errors.push(pending),
      new RunRecordColumns(),
    );
    writer.push(run(1));
    writer.push(run(2));
    writer.drain();
    expect(errors).to.deep.equal([2]);
    expect(writer.pending).to.equal(2);
    writer.push(run(3));
    fail = false;
    writer.close();
    expect(flushed).to.deep.equal([[run(1), run(2), run(3)]]);
    expect(writer.pending).to.equal(0);
  });
});
