import { expect } from 'chai';
import { parseExpiry } from '../../src/domain/expiry';
import { effectiveStatus } from '../../src/domain/api-key';

const now = new Date('2026-06-15T12:00:00Z');

describe('key expiry', () => {
  it('a date covers the whole UTC day', () => {
    expect(parseExpiry('2026-06-15', now).toISOString()).to.equal('2026-06-16T00:00:00.000Z');
    expect(parseExpiry('2028-02-29', now).toISOString()).to.equal('2028-03-01T00:00:00.000Z');
  });
  it('an instant ends at that second', () => {
    expect(parseExpiry('2026-06-15T12:00:01Z', now).toISOString()).to.equal('2026-06-15T12:00:01.000Z');
  });
  it('refuses offsets, fractions, impossible dates and the past', () => {
    for (const bad of ['2026-06-20T00:00:00+00:00', '2026-06-20T00:00:00.5Z', '2027-02-29', '2026-13-01', '2026-06-20T24:00:00Z', '2026-06-15T11:59:59Z', '2026-06-14']) {
      expect(() => parseExpiry(bad, now), bad).to.throw();
    }
  });
  it('a key is expired from its expiry instant on; revoked wins', () => {
    const key = { status: 'active' as const, expiresAt: '2026-06-15T12:00:00.000Z' };
    expect(effectiveStatus(key, new Date('2026-06-15T11:59:59.999Z'))).to.equal('active');
    expect(effectiveStatus(key, now)).to.equal('expired');
    expect(effectiveStatus({ ...key, status: 'revoked' }, now)).to.equal('revoked');
    expect(effectiveStatus({ status: 'active', expiresAt: null }, now)).to.equal('active');
  });
});
