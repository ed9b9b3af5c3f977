/**
 * $round: the arithmetic shortcut of roundHalfEven must give exactly what the
 * textual decimal shift (jsonata's algorithm) gives, on ties, next to ties and
 * across magnitudes and precisions; and $round must agree with jsonata.
 */
import { expect } from 'chai';
import jsonata from 'jsonata';
import { roundByDecimalShift, roundHalfEven } from '../../../src/engine/expr/rounding';
import { Rng } from './generator';

/** The doubles next to `x`. */
function neighbours(x: number): number[] {
  const buf = new DataView(new ArrayBuffer(8));
  buf.setFloat64(0, x);
  const bits = buf.getBigUint64(0);
  const out: number[] = [];
  for (const delta of [-2n, -1n, 1n, 2n]) {
    buf.setBigUint64(0, bits + delta);
    const y = buf.getFloat64(0);
    if (Number.isFinite(y)) out.push(y);
  }
  return out;
}

/** Values that stress the shortcut: decimal ties at the precision, their neighbours, and plain values. */
function cases(r: Rng, count: number): [number, number | undefined][] {
  const out: [number, number | undefined][] = [];
  for (let i = 0; i < count; i++) {
    const p = r.int(-4, 8);
    let x: number;
    switch (r.int(0, 5)) {
      case 0: // a tie at precision p: digits ending in 5 one place further
        x = Number(`${r.int(-999999, 999999) * 10 + 5}e${-(p + 1)}`);
        break;
      case 1: // a value with a few decimals
        x = Number(`${r.int(-99999999, 99999999)}e-${r.int(0, 9)}`);
        break;
      case 2: // any magnitude
        x = (r.next() - 0.5) * 10 ** r.int(-12, 20);
        break;
      case 3: // integers
        x = r.int(-1e9, 1e9);
        break;
      case 4: // near the limits of the shortcut (2^50 after the shift)
        x = (2 ** r.int(45, 55) + r.int(-3, 3) + 0.5) / 10 ** Math.max(p, 0);
        break;
      default: // tiny
        x = r.next() * 10 ** -r.int(5, 320);
    }
    out.push([x, p === 0 && r.chance(0.5) ? undefined : p]);
    for (const y of neighbours(x)) out.push([y, p]);
  }
  return out;
}

describe('engine/expr $round', () => {
  it('rounds exactly like the textual decimal shift', () => {
    const fixed: [number, number | undefined][] = [
      [2.675, 2], [1.005, 2], [0.125, 2], [0.375, 2], [-0.125, 2], [1.45, 1], [-2.5, undefined], [2.5, 0], [0.5, undefined],
      [12345, -2], [12350, -2], [12250, -2], [-12250, -2], [1e-7, 7], [5e-324, 2], [-0.0001, 2], [1e300, 2], [1e21, 2], [123.456, 22],
      [123.456, 23], [1.5, 0.5], [2.5, -0], [9007199254740991, 1], [4503599627370495.5, 1], [0.045, 2], [8.345, 2], [1.0049999999999999, 2],
    ];
    const all = [...fixed, ...cases(new Rng(20240611), 60_000)];
    for (const [x, p] of all) {
      const want = roundByDecimalShift(x, p);
      const got = roundHalfEven(x, p);
      expect(Object.is(got, want), `$round(${x}, ${String(p)}): ${got} vs ${want}`).to.equal(true);
    }
  });

  it('agrees with jsonata', async () => {
    const round = jsonata('$round(x, p)');
    for (const [x, p] of cases(new Rng(7), 600)) {
      const c = { x, p };
      const want = (await round.evaluate(c)) as unknown;
      expect(roundHalfEven(x, p), `$round(${x}, ${String(p)})`).to.equal(want);
    }
  });
});
