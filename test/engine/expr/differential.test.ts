/**
 * Differential test: random expressions from the fast-path grammar over random
 * JSON inputs, evaluated by jsonata and by the compiled closures. Results must be
 * deep-equal, or both must throw with the same error `code`.
 *
 * Reproduce a failure with EXPR_DIFF_SEED=<case seed> EXPR_DIFF_CASES=1.
 */
import { expect } from 'chai';
import jsonata from 'jsonata';
import { compileExpression, expressionStats, PLATFORM_FUNCTIONS } from '../../../src/engine/expr';
import { ExprGenerator, randomInput, Rng } from './generator';
import { outcome } from './outcome';

const BASE_SEED = Number(process.env.EXPR_DIFF_SEED ?? 0x5eed2024);
const MAX_CASES = Number(process.env.EXPR_DIFF_CASES ?? 12000);
const MAX_MILLIS = Number(process.env.EXPR_DIFF_MILLIS ?? 20_000);
const INPUTS_PER_EXPR = 3;

function reference(source: string): jsonata.Expression {
  const expr = jsonata(source);
  for (const [name, f] of Object.entries(PLATFORM_FUNCTIONS)) expr.registerFunction(name, f.implementation, f.signature);
  return expr;
}

/** Function values (jsonata's closures, the fast path's function values) compare as equal. */
function comparable(v: unknown): unknown {
  if (typeof v === 'function') return '<function>';
  if (Array.isArray(v)) return v.map(comparable);
  if (typeof v === 'object' && v !== null) {
    const o = v as Record<string, unknown>;
    if (o._jsonata_lambda === true || o._jsonata_function === true) return '<function>';
    return Object.fromEntries(Object.keys(o).map((k) => [k, comparable(o[k])]));
  }
  return v;
}

function show(v: unknown): string {
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
}

describe('engine/expr differential test (compiled closures vs jsonata)', function () {
  this.timeout(MAX_MILLIS + 30_000);

  it(`agrees with jsonata on random expressions (seed ${BASE_SEED}, up to ${MAX_CASES} cases / ${MAX_MILLIS} ms)`, async () => {
    const started = Date.now();
    const statsBefore = expressionStats();
    let cases = 0;
    let fast = 0;
    let errors = 0;
    let expressions = 0;
    const slowReasons = new Map<string, number>();

    for (let i = 0; cases < MAX_CASES && Date.now() - started < MAX_MILLIS; i++) {
      const seed = (BASE_SEED + i) >>> 0;
      const rng = new Rng(seed);
      const source = new ExprGenerator(rng).expression(rng.int(1, 4));
      let ref: jsonata.Expression;
      try {
        ref = reference(source);
      } catch (e) {
        // the generator should only produce valid syntax
        throw new Error(`seed ${seed}: jsonata rejected generated expression ${source}: ${show(e)}`);
      }
      const compiled = compileExpression(source);
      expressions++;
      if (compiled.fast) fast++;
      else slowReasons.set(compiled.fallbackReason ?? '?', (slowReasons.get(compiled.fallbackReason ?? '?') ?? 0) + 1);

      for (let k = 0; k < INPUTS_PER_EXPR; k++) {
        const input = randomInput(rng);
        const expected = await outcome(() => ref.evaluate(structuredClone(input)));
        const actual = await outcome(() => compiled.evaluate(structuredClone(input)));
        cases++;
        const where = `\n  seed: ${seed} (EXPR_DIFF_SEED=${seed} EXPR_DIFF_CASES=${INPUTS_PER_EXPR})\n  expression: ${source}\n  input #${k}: ${show(input)}\n  jsonata: ${expected.ok ? show(expected.value) : `throws ${String(expected.code)} ${expected.message}`}\n  compiled (fast=${compiled.fast}): ${actual.ok ? show(actual.value) : `throws ${String(actual.code)} ${actual.message}`}`;
        if (expected.ok) {
          expect(actual.ok, `compiled threw but jsonata did not${where}`).to.equal(true);
          if (actual.ok) expect(comparable(actual.value), `results differ${where}`).to.deep.equal(comparable(expected.value));
        } else {
          errors++;
          expect(actual.ok, `jsonata threw but compiled did not${where}`).to.equal(false);
          if (!actual.ok) expect(actual.code, `error codes differ${where}`).to.equal(expected.code);
        }
      }
    }
    const took = Date.now() - started;
    // eslint-disable-next-line no-console
    const bailouts = expressionStats().bailouts - statsBefore.bailouts;
    console.log(`      ${cases} cases, ${expressions} expressions (${fast} on the fast path), ${errors} erroring cases, ${bailouts} handed to jsonata mid-evaluation, ${took} ms`);
    if (slowReasons.size > 0) {
      // eslint-disable-next-line no-console
      console.log(`      fallbacks: ${[...slowReasons].map(([k, v]) => `${k} ×${v}`).join(', ')}`);
    }
    expect(cases).to.be.greaterThan(500);
    expect(fast / expressions, 'share of generated expressions on the fast path').to.be.greaterThan(0.95);
  });
});
