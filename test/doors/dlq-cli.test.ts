import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FlowQueue } from '../../src/infra/queue';
import { svc, useTempHome } from '../support/cli';

const quiet = { log: (): void => undefined };

/** Dead-letters `count` messages of tenant/flow the way a server's workers would. */
async function deadLetters(queuesDir: string, tenant: string, flow: string, count: number, marker: string): Promise<void> {
  const q = FlowQueue.open(queuesDir, tenant, flow, quiet);
  for (let i = 0; i < count; i++) await q.enqueue({ marker, n: i }, `corr-${flow}-${i}`);
  for (let i = 0; i < count; i++) {
    const m = q.take(Date.now());
    if (!m) throw new Error('nothing to take');
    await q.deadLetter(m.id, 5, `500 flow_error: upstream said no (${i})`);
  }
  await q.close();
}

describe('svc dlq list / replay / discard (real binary, real queue files)', () => {
  const env = useTempHome();
  const queuesDir = (): string => join(env.home, '.svc', 'queues');

  it('says DLQ is empty. when there is nothing, even without a queues/ directory or registry', () => {
    const r = svc(['dlq', 'list'], { home: env.home });
    expect(r.status, r.stderr).to.equal(0);
    expect(r.stdout.trim()).to.equal('DLQ is empty.');
  });

  it('lists the pending count and id, tenant, flow, enqueued_at, failed_at, attempts, last_error; filters by tenant and flow', async () => {
    await deadLetters(queuesDir(), 'acme', 'orders', 2, 'x');
    await deadLetters(queuesDir(), 'beta', 'ping', 1, 'y');
    const all = svc(['dlq', 'list'], { home: env.home });
    expect(all.status).to.equal(0);
    const lines = all.stdout.trim().split('\n');
    expect(lines[0]).to.equal('3 pending');
    expect(lines[1]).to.match(/^id\s+tenant\s+flow\s+enqueued_at\s+failed_at\s+attempts\s+last_error$/);
    expect(lines[2]).to.match(/^1\s+acme\s+orders\s+\S+Z\s+\S+Z\s+5\s+500 flow_error: upstream said no \(0\)$/);
    expect(lines[4]).to.match(/^1\s+beta\s+ping\s/);
    expect(svc(['dlq', 'list', '--tenant', 'beta'], { home: env.home }).stdout).to.match(/^1 pending$/m);
    expect(svc(['dlq', 'list', '--tenant', 'acme', '--flow', 'nope'], { home: env.home }).stdout.trim()).to.equal('DLQ is empty.');
  });

  it('replay copies the message back with a fresh attempt counter and marks it handled', async () => {
    await deadLetters(queuesDir(), 'acme', 'orders', 2, 'x');
    const r = svc(['dlq', 'replay', '--tenant', 'acme', '--flow', 'orders', '--id', '2'], { home: env.home });
    expect(r.status, r.stderr).to.equal(0);
    expect(r.stdout.trim()).to.equal('replayed id=2 tenant=acme flow=orders');
    expect(svc(['dlq', 'list'], { home: env.home }).stdout).to.match(/^1 pending$/m);
    const q = FlowQueue.open(queuesDir(), 'acme', 'orders', quiet);
    const m = q.take(Date.now());
    expect(m?.id).to.equal(2);
    expect(m?.attempt).to.equal(1);
    expect(m?.body).to.deep.equal({ marker: 'x', n: 1 });
    await q.close();
    const again = svc(['dlq', 'replay', '--tenant', 'acme', '--flow', 'orders', '--id', '2'], { home: env.home });
    expect(again.status).to.equal(1);
    expect(again.stderr).to.match(/^error: .*2/m);
    const audit = svc(['audit', '--tenant', 'acme', '--verify'], { home: env.home });
    expect(audit.stdout).to.match(/queue\.message\.replayed/);
  });

  it('discard hides the entry at once and says when its body leaves the disk; the next drain removes it', async () => {
    await deadLetters(queuesDir(), 'acme', 'orders', 1, 'secret-body-marker');
    const r = svc(['dlq', 'discard', '--tenant', 'acme', '--flow', 'orders', '--id', '1'], { home: env.home });
    expect(r.status, r.stderr).to.equal(0);
    expect(r.stdout).to.match(/^discarded id=1 tenant=acme flow=orders$/m);
    expect(r.stdout).to.contain('next queue drain');
    expect(svc(['dlq', 'list'], { home: env.home }).stdout.trim()).to.equal('DLQ is empty.');
    const deadLog = join(queuesDir(), 'acme', 'orders', 'dead-letters.log');
    expect(readFileSync(deadLog, 'utf8')).to.contain('secret-body-marker');
    const q = FlowQueue.open(queuesDir(), 'acme', 'orders', quiet, { compactMinBytes: 0 });
    await q.drain();
    await q.close();
    expect(readFileSync(deadLog, 'utf8')).not.to.contain('secret-body-marker');
  });

  it('unknown ids and missing flags are clear errors', async () => {
    const missing = svc(['dlq', 'discard', '--tenant', 'acme', '--flow', 'orders', '--id', '9'], { home: env.home });
    expect(missing.status).to.equal(1);
    expect(missing.stderr).to.match(/^error: /m);
    const usage = svc(['dlq', 'replay', '--tenant', 'acme', '--id', '1'], { home: env.home });
    expect(usage.status).to.equal(2);
    expect(usage.stderr).to.contain('Missing required flag flow');
  });

  it('locates queues/ from --db without opening it as a database', async () => {
    const other = join(env.home, 'elsewhere');
    await deadLetters(join(other, 'queues'), 'acme', 'orders', 1, 'z');
    const r = svc(['dlq', 'list', '--db', join(other, 'not-a-database.db')], { home: env.home });
    expect(r.status, r.stderr).to.equal(0);
    expect(r.stdout).to.match(/^1 pending$/m);
  });
});
