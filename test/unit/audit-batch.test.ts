import 'reflect-metadata';
import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AuditEvent } from '../../src/domain/audit';
import { SqliteAuditLog } from '../../src/infra/audit/sqlite-audit-log';

/**
 * The server appends audit entries in batches (multi-row inserts, chain heads read once per
 * tenant per batch). A batch must give exactly the chains that one append per entry gives.
 */
describe('audit log: batched appends', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'svc-audit-batch-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const clock = { now: () => new Date('2026-11-22T04:00:00.000Z') };
  const events: AuditEvent[] = Array.from({ length: 150 }, (_, i) => ({
    tenant: ['acme', 'globex', 'initech'][i % 3] as string,
    eventType: i % 2 ? 'queue.message.processed' : 'queue.message.enqueued',
    correlationId: `corr-${i}`,
    details: { message_id: `m-${i}`, flow: 'orders', attempt: i % 4, retried: i % 5 === 0 },
    at: new Date(Date.UTC(2026, 10, 22, 4, 0, 0, Math.floor(i / 7))),
  }));

  it('chains 150 entries of three tenants in one batch as 150 single appends would', async () => {
    const batched = new SqliteAuditLog(join(dir, 'batched.db'), clock);
    const single = new SqliteAuditLog(join(dir, 'single.db'), clock);
    try {
      batched.appendMany(events.slice(0, 5)); // a chain already under way
      batched.appendMany(events.slice(5));
      for (const e of events) await single.append(e);
      for (const tenant of ['acme', 'globex', 'initech']) {
        const a = await batched.recent(tenant, 1000);
        const b = await single.recent(tenant, 1000);
        expect(a).to.have.length(50);
        expect(a).to.deep.equal(b);
        expect(a.map((e) => e.seq)).to.deep.equal(Array.from({ length: 50 }, (_, i) => 50 - i));
        expect(await batched.verify(tenant)).to.deep.equal({ checked: 50, faults: [] });
      }
    } finally {
      batched.close();
      single.close();
    }
  });
});
