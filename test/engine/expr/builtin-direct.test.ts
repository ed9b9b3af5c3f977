/**
 * Calls of built-ins with a direct form (builtin-direct.ts), over every
 * combination of argument kinds: the direct call must give what the ordinary
 * (validating) call gives — the same value or the same error code and message —
 * and what jsonata gives (value or error code). Checked for plain calls, calls
 * in tail position and `~>` calls.
 */
import { expect } from 'chai';
import jsonata from 'jsonata';
import { compileExpression, CompiledExpr, expressionStats } from '../../../src/engine/expr';
import { outcome, type Outcome } from './outcome';

/** Argument kinds, as fields of the input (a missing field is an undefined argument). */
const KINDS: Readonly<Record<string, unknown>> = {
  str: 'Hello World',
  empty: '',
  astral: 'x😀y 😀z',
  lone: 'a\uD800b c',
  num: 2.5,
  neg: -3,
  zero: 0,
  bool: true,
  nul: null,
  strs: ['a', 'b c'],
  nums: [1, 2.5, -4],
  mixed: ['a', 1],
  none: [],
  nested: [[1], [2, 3]],
  obj: { a: 1 },
  fn: (x: unknown) => x,
};
const NAMES = [...Object.keys(KINDS), 'missing'];

/** Built-ins with direct forms and the argument counts they have them for. */
const FORMS: readonly (readonly [string, readonly number[]])[] = [
  ['uppercase', [1]], ['lowercase', [1]], ['trim', [1]], ['length', [1]],
  ['substring', [2, 3]], ['substringBefore', [2]], ['substringAfter', [2]], ['contains', [2]],
  ['split', [2, 3]], ['join', [1, 2]], ['string', [1]], ['number', [1]],
  ['sum', [1]], ['max', [1]], ['min', [1]], ['average', [1]], ['count', [1]],
  ['round', [1, 2]], ['floor', [1]], ['ceil', [1]], ['abs', [1]],
  ['exists', [1]], ['boolean', [1]], ['not', [1]], ['type', [1]],
];

/** For three-argument forms, the last argument ranges over fewer kinds. */
const THIRD = ['num', 'neg', 'zero', 'str', 'nul', 'nums', 'missing'];

/** Whether an evaluation handed over to jsonata mid-way (which then reports jsonata's wording). */
async function bailedOut(run: () => Promise<Outcome>): Promise<[Outcome, boolean]> {
  const before = expressionStats().bailouts;
  const o = await run();
  return [o, expressionStats().bailouts > before];
}

function comparable(v: unknown): unknown {
  if (typeof v === 'function') return '<function>';
  return Array.isArray(v) ? v.map(comparable) : v;
}

function tuples(n: number): string[][] {
  if (n === 0) return [[]];
  const pool = n === 3 ? THIRD : NAMES;
  return tuples(n - 1).flatMap((t) => pool.map((k) => [...t, k]));
}

function inputFor(args: readonly string[]): Record<string, unknown> {
  const v: Record<string, unknown> = {};
  args.forEach((k, i) => {
    if (k !== 'missing') v[`a${i}`] = KINDS[k];
  });
  return { v };
}

function fast(source: string): CompiledExpr {
  const c = compileExpression(source);
  expect(c.fast, source).to.equal(true);
  return c;
}

describe('engine/expr direct calls of built-ins', function () {
  this.timeout(60_000);

  for (const [name, counts] of FORMS) {
    for (const n of counts) {
      const args = Array.from({ length: n }, (_v, i) => `v.a${i}`);
      it(`$${name} with ${n} argument(s) of any kind agrees with the ordinary call and with jsonata`, async () => {
        const call = `$${name}(${args.join(', ')})`;
        const forms: readonly (readonly [string, string])[] = [
          [call, call],
          // in tail position of a lambda: the call is applied after the lambda returns
          [`($g := function($v){ ${call} }; $g(v))`, `($g := function($v){ $f(${args.join(', ')}) }; $g(v))`],
          [`${args[0]} ~> $${name}(${args.slice(1).join(', ')})`, `${args[0]} ~> $f(${args.slice(1).join(', ')})`],
        ];
        for (const [direct, viaVariable] of forms) {
          const compiled = fast(direct);
          // a variable holding the built-in makes the ordinary call, with signature validation
          const ordinary = fast(`($f := $${name}; ${viaVariable})`);
          const ref = jsonata(direct);
          for (const kinds of tuples(n)) {
            const input = inputFor(kinds);
            const where = `${direct} with (${kinds.join(', ')})`;
            const [got, gotBailout] = await bailedOut(() => outcome(() => compiled.evaluate(input)));
            const [want, wantBailout] = await bailedOut(() => outcome(() => ordinary.evaluate(input)));
            const jsonataGot = await outcome(() => ref.evaluate(input));
            expect(gotBailout, `${where}: handed to jsonata`).to.equal(wantBailout);
            if (want.ok) {
              expect(got.ok, `${where}: ${got.ok ? '' : got.message}`).to.equal(true);
              if (got.ok) expect(comparable(got.value), where).to.deep.equal(comparable(want.value));
            } else if (wantBailout) {
              // jsonata names the function by the token it was called with ($f vs the built-in's name)
              expect(got.ok, where).to.equal(false);
              if (!got.ok) expect(got.code, where).to.equal(want.code);
            } else {
              expect(got, where).to.deep.equal(want);
            }
            expect(got.ok, `${where} (jsonata)`).to.equal(jsonataGot.ok);
            if (got.ok && jsonataGot.ok) expect(comparable(got.value), `${where} (jsonata)`).to.deep.equal(comparable(jsonataGot.value));
            if (!got.ok && !jsonataGot.ok) expect(got.code, `${where} (jsonata)`).to.equal(jsonataGot.code);
          }
        }
      });
    }
  }

  /** The fast path's outcome, which must also be jsonata's (value, or error code). */
  async function agree(source: string, input: unknown, bindings?: Record<string, unknown>): Promise<Outcome> {
    const got = await outcome(() => fast(source).evaluate(input, bindings));
    const want = await outcome(() => jsonata(source).evaluate(input, bindings));
    if (want.ok) expect(got, source).to.deep.equal(want);
    else expect(got.ok ? got : got.code, source).to.equal(want.code);
    return got;
  }

  it('uses the function a binding, a custom function or an enclosing frame gives the name', async () => {
    const input = { s: 'Ab', items: [1, 2] };
    const shout = (s: unknown) => `${String(s)}!`;
    expect(await agree('$uppercase(s)', input, { uppercase: shout })).to.deep.equal({ ok: true, value: 'Ab!' });
    expect(await agree('s ~> $uppercase()', input, { uppercase: shout })).to.deep.equal({ ok: true, value: 'Ab!' });
    expect(await agree('$uppercase(s)', input, { other: shout })).to.deep.equal({ ok: true, value: 'AB' });
    const custom = compileExpression('$uppercase(s) & $join(["a", "b"])', { uppercase: shout, join: () => 'joined' });
    expect(custom.fast).to.equal(true);
    expect(await custom.evaluate(input)).to.equal('Ab!joined');
    expect(await agree('($uppercase := $lowercase; $uppercase(s))', input)).to.deep.equal({ ok: true, value: 'ab' });
    expect(await agree('($f := function($uppercase){ $uppercase(s) }; $f($lowercase))', input)).to.deep.equal({ ok: true, value: 'ab' });
    expect(await agree('($f := function($uppercase){ $uppercase(s) & "?" }; $f($lowercase))', input)).to.deep.equal({ ok: true, value: 'ab?' });
    expect((await agree('$map(items, function($v, $string){ $string($v) & "" })', input)).ok).to.equal(false);
    // $map / $filter over a lambda literal
    const twice = (a: unknown, f: unknown) => (a as unknown[]).map((x) => (f as (v: unknown) => unknown)(x));
    expect(await fast('$map(items, function($v){ $v * 10 })').evaluate(input, { map: twice })).to.deep.equal([10, 20]);
    expect(await fast('$filter(items, function($v){ $v > 1 })').evaluate(input, { filter: () => 'mine' })).to.equal('mine');
  });
});
