/** The platform functions, on the fast path and on the jsonata fallback. */
import { expect } from 'chai';
import { createHash, createHmac } from 'node:crypto';
import { compileExpression } from '../../../src/engine/expr';

async function both(source: string, input: unknown = {}): Promise<unknown> {
  const fast = compileExpression(source);
  expect(fast.fast, source).to.equal(true);
  // the same expression forced onto the fallback (a $sort keeps it off the fast path)
  const slow = compileExpression(`($sort([1]); ${source})`);
  expect(slow.fast).to.equal(false);
  const a = await fast.evaluate(input);
  expect(await slow.evaluate(input), source).to.deep.equal(a);
  return a;
}

describe('engine/expr platform functions', () => {
  it('$uuid() gives a v4 uuid', async () => {
    const c = compileExpression('$uuid()');
    expect(c.fast).to.equal(true);
    expect(c.evaluate({})).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('$sha256 and $hmac_sha256 give hex digests', async () => {
    expect(await both('$sha256(s)', { s: 'héllo' })).to.equal(createHash('sha256').update('héllo').digest('hex'));
    expect(await both('$hmac_sha256("key", s)', { s: 'msg' })).to.equal(createHmac('sha256', 'key').update('msg').digest('hex'));
    expect(await both('$sha256(missing)')).to.equal(undefined);
  });

  it('$base64_encode / $base64_decode round-trip UTF-8', async () => {
    expect(await both('$base64_encode("héllo ✓")')).to.equal(Buffer.from('héllo ✓').toString('base64'));
    expect(await both('$base64_decode($base64_encode("héllo ✓"))')).to.equal('héllo ✓');
  });

  it('$parse_json / $to_json', async () => {
    expect(await both('$parse_json(\'{"a":[1,{"b":null}]}\').a[1]')).to.deep.equal({ b: null });
    expect(await both('$to_json({"a": [1, "x"]})')).to.equal('{"a":[1,"x"]}');
    for (const source of ['$parse_json("{nope")', '($sort([1]); $parse_json("{nope"))']) {
      const err = await Promise.resolve().then(() => compileExpression(source).evaluate({})).then(() => undefined, (e: unknown) => e);
      expect((err as { code?: unknown }).code, source).to.equal('D3900');
    }
  });

  it('checks argument types like jsonata signatures', async () => {
    for (const source of ['$sha256(1)', '($sort([1]); $sha256(1))']) {
      const err = await Promise.resolve().then(() => compileExpression(source).evaluate({})).then(() => undefined, (e: unknown) => e);
      expect((err as { code?: unknown }).code, source).to.equal('T0410');
    }
  });
});
