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

describe('audit chain hash: the written-out entry layout', () => {
  /** The definition: the whole entry object through canonicalJson, hashed after prev_hash. */
  const reference = (e: Parameters<typeof entryHash>[0]): string =>
    createHash('sha256')
      .update(e.prevHash)
      .update(canonicalJson({ tenant: e.tenant, seq: e.seq, event_type: e.eventType, created_at: e.createdAt, correlation_id: e.correlationId, details: { ...e.details } }))
      .digest('hex');

  it('hashes exactly as the definition for odd strings, numbers and detail keys', () => {
    const strings = ['', 'acme', 'quote"back\\slash', 'line\nbreak\u2028', 'ünïcødé 🚀', '\u0000\u001f', 'key-with:colon,comma'];
    const values = [...strings, 0, -1.5, 1e21, 42, true, false, null];
    let n = 0;
    for (const s of strings) {
      for (const v of values) {
        const details: Record<string, string | number | boolean | null> = { [s]: v, z: s, a: v, 'b"': n };
        const e = { tenant: s || 't', seq: n + 1, eventType: `ev.${s}`, createdAt: '2026-11-22T04:00:00.000Z', correlationId: s, details, prevHash: n % 2 ? GENESIS_HASH : 'a'.repeat(64) };
        expect(entryHash(e), JSON.stringify(e)).to.equal(reference(e));
        n++;
      }
    }
    expect(n).to.equal(strings.length * values.length);
  });
});

describe('audit chain hash: canonical key order', () => {
  it('orders keys exactly as Array#sort does (UTF-16 code units), whatever the insertion order', () => {
    const keys = ['b', 'a', 'B', 'A', '_', 'aa', 'a b', 'ä', 'é', '😀', '\uffff', '10', '9', '', 'key_id', 'flow', 'message_id', 'door'];
    let seed = 7;
    const rand = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let round = 0; round < 200; round++) {
      const picked = keys.filter(() => rand() < 0.6).sort(() => rand() - 0.5);
      const obj: Record<string, number> = {};
      picked.forEach((k, i) => (obj[k] = i));
      const expected = `{${Object.keys(obj)
        .sort()
        .map((k) => `${JSON.stringify(k)}:${obj[k]}`)
        .join(',')}}`;
      expect(canonicalJson(obj), picked.join('|')).to.equal(expected);
    }
  });
});
