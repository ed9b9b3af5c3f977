import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { canonicalJson, entryHash, GENESIS_HASH } from '../../src/infra/audit/chain-hash';

describe('audit chain hash', () => {
  const entry = {
    tenant: 'acme',
    seq: 1,
    eventType: 'tenant.disabled',
    createdAt: '2026-01-01T00:00:00.000Z',
    correlationId: '00000000-0000-4000-8000-000000000000',
    details: { b: 1, a: 'x' },
    prevHash: GENESIS_HASH,
  };

  it('canonical JSON sorts keys at every depth', () => {
    expect(canonicalJson({ b: [{ d: 1, c: 2 }], a: null })).to.equal('{"a":null,"b":[{"c":2,"d":1}]}');
  });

  it('is sha256(prev_hash || canonical entry)', () => {
    const canonical =
      '{"correlation_id":"00000000-0000-4000-8000-000000000000","created_at":"2026-01-01T00:00:00.000Z","details":{"a":"x","b":1},"event_type":"tenant.disabled","seq":1,"tenant":"acme"}';
    expect(entryHash(entry)).to.equal(createHash('sha256').update(GENESIS_HASH + canonical).digest('hex'));
  });

  it('changes with any field and with the previous hash', () => {
    const base = entryHash(entry);
    expect(entryHash({ ...entry, seq: 2 })).not.to.equal(base);
    expect(entryHash({ ...entry, details: { a: 'y', b: 1 } })).not.to.equal(base);
    expect(entryHash({ ...entry, prevHash: 'f'.repeat(64) })).not.to.equal(base);
    expect(entryHash({ ...entry, details: { a: 'x', b: 1 } })).to.equal(base);
  });
});
