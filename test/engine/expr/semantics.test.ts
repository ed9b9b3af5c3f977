/**
 * Hand-written cases for the tricky corners of jsonata's semantics. Each case
 * states the expected value and also checks it against jsonata itself.
 */
import { expect } from 'chai';
import jsonata from 'jsonata';
import { compileExpression, CompiledExpr, ExprError, expressionStats } from '../../../src/engine/expr';

const order = {
  body: {
    order_id: 'A-1',
    customer: { name: 'Ann Lee', email: 'Ann.Lee@Example.COM', city: 'new york city' },
    items: [
      { sku: 'p1', price: 10.5, qty: 2, tags: ['red', 'big'] },
      { sku: 'p2', price: 3, qty: 1, tags: ['blue'] },
      { sku: 'p3', price: 20, qty: 3 },
    ],
    single: [{ sku: 'only', price: 7 }],
    matrix: [[1, 2], [3, [4, 5]]],
  },
};

async function reference(source: string, input: unknown, bindings?: Record<string, unknown>): Promise<unknown> {
  return jsonata(source).evaluate(input, bindings);
}

async function codeOf(run: () => unknown): Promise<unknown> {
  try {
    await run();
  } catch (e) {
    return (e as { code?: unknown }).code;
  }
  return 'no error';
}

/** Asserts the expression is on the fast path, gives `expected`, and agrees with jsonata. */
async function check(source: string, expected: unknown, input: unknown = order): Promise<CompiledExpr> {
  const c = compileExpression(source);
  expect(c.fast, `${source} should compile to closures (${c.fallbackReason ?? ''})`).to.equal(true);
  const actual = await c.evaluate(structuredClone(input));
  expect(actual, source).to.deep.equal(expected);
  expect(await reference(source, structuredClone(input)), `jsonata on ${source}`).to.deep.equal(expected);
  return c;
}

async function checkError(source: string, code: string, input: unknown = order): Promise<void> {
  const c = compileExpression(source);
  expect(c.fast, source).to.equal(true);
  expect(await codeOf(() => c.evaluate(structuredClone(input))), source).to.equal(code);
  expect(await codeOf(() => reference(source, structuredClone(input))), `jsonata on ${source}`).to.equal(code);
}

describe('engine/expr semantics', () => {
  describe('paths and sequences', () => {
    it('maps over arrays and flattens', async () => {
      await check('body.items.price', [10.5, 3, 20]);
      await check('body.items.tags', ['red', 'big', 'blue']);
      await check('body.matrix', [[1, 2], [3, [4, 5]]]);
      await check('body.matrix.$', [1, 2, 3, [4, 5]]);
    });

    it('collapses a singleton sequence to its value but keeps a JSON array as is', async () => {
      await check('body.single.sku', 'only');
      await check('body.single', [{ sku: 'only', price: 7 }]);
      await check('body.items[1].tags', ['blue']);
      await check('body.items.tags[0]', ['red', 'blue']);
      await check('body.single.sku[]', ['only']);
      await check('$count(body.single.sku)', 1);
    });

    it('gives undefined for missing paths, everywhere', async () => {
      await check('body.nope', undefined);
      await check('body.nope.deeper', undefined);
      await check('body.customer.name.first', undefined);
      await check('body.nope + 1', undefined);
      await check('-body.nope', undefined);
      await check('"x" & body.nope & "y"', 'xy');
      await check('body.nope = body.nope', false);
      await check('{ "a": body.nope, "b": 1 }', { b: 1 });
      await check('[body.nope, 1, body.nope]', [1]);
    });

    it('supports $ and $$', async () => {
      await check('body.items.($$.body.order_id & ":" & $.sku)', ['A-1:p1', 'A-1:p2', 'A-1:p3']);
      await check('$.body.order_id', 'A-1');
    });

    it('evaluates parenthesised block steps per item', async () => {
      await check('body.items.(price * qty)', [21, 3, 60]);
      await check('$sum(body.items.(price * qty))', 84);
    });
  });

  describe('predicates', () => {
    it('indexes from the front and from the back', async () => {
      await check('body.items[0].sku', 'p1');
      await check('body.items[-1].sku', 'p3');
      await check('body.items[5]', undefined);
      await check('body.items[1.7].sku', 'p2');
      await check('body.items[[0, 2]].sku', ['p1', 'p3']);
    });

    it('filters with boolean expressions, relative to each item', async () => {
      await check('body.items[price > 5].sku', ['p1', 'p3']);
      await check('body.items[price > 100].sku', undefined);
      await check('body.items["blue" in tags].sku', 'p2');
      await check('body.items[tags = "blue"].sku', undefined); // ["blue"] is not deep-equal to "blue"
      await check('body.items[$exists(tags)][-1].sku', 'p2');
    });

    it('applies a predicate per step input (not to the whole result)', async () => {
      await check('body.items.tags[0]', ['red', 'blue']);
      await check('(body.items.tags)[0]', 'red');
    });
  });

  describe('operators', () => {
    it('does arithmetic and throws T2001/T2002 on non-numbers', async () => {
      await check('7 % 3 + 2 * 3 - 1 / 4', 6.75);
      await checkError('"a" + 1', 'T2001');
      await checkError('1 + "a"', 'T2002');
      await checkError('body.customer + 1', 'T2001');
      await checkError('-"x"', 'D1002');
    });

    it('compares only numbers with numbers and strings with strings', async () => {
      await check('1 < 2 and "a" < "b"', true);
      await check('body.nope < 2', undefined);
      await checkError('1 < "2"', 'T2009');
      await checkError('true < 1', 'T2010');
      await check('body.items[0] = {"sku": "p1", "price": 10.5, "qty": 2, "tags": ["red", "big"]}', true);
    });

    it('concatenates with & using $string casting', async () => {
      await check('"n=" & 5 & ", f=" & (0.1 + 0.2) & ", b=" & true & ", z=" & null', 'n=5, f=0.3, b=true, z=null');
      await check('"" & body.items[0].tags', '["red","big"]');
    });

    it('short-circuits and/or and treats missing as false', async () => {
      await check('body.nope or body.order_id', true);
      await check('body.nope and $number("x")', false);
    });

    it('supports the conditional, unary minus and ranges', async () => {
      await check('body.items[0].price > 10 ? "big" : "small"', 'big');
      await check('false ? 1', undefined);
      await check('-body.items[0].price', -10.5);
      await check('[1..3, 5]', [1, 2, 3, 5]);
    });
  });

  describe('functions', () => {
    it('rounds half to even', async () => {
      await check('[$round(0.5), $round(1.5), $round(2.5), $round(-2.5), $round(1.005, 2), $round(12345, -2), $round(2.675, 2)]', [0, 2, 2, -2, 1, 12300, 2.68]);
    });

    it('raises jsonata errors for bad argument types', async () => {
      await checkError('$sum(["a", "b"])', 'T0412');
      await checkError('$sum("a")', 'T0412');
      await checkError('$uppercase(1)', 'T0410');
      await checkError('$number("12abc")', 'D3030');
      await checkError('$count()', 'T0410');
      await checkError('$reduce([1, 2], function($a){ $a })', 'D3050');
      await checkError('$split("a", ",", -1)', 'D3020');
    });

    it('uses the context value for a missing "-" argument', async () => {
      await check('body.customer.name.$uppercase()', 'ANN LEE');
      await check('body.items.sku.$uppercase()', ['P1', 'P2', 'P3']);
      await checkError('body.customer.$uppercase()', 'T0411');
    });

    it('implements the string functions', async () => {
      await check('$substring("Hello World", 3, 5)', 'lo Wo');
      await check('$substring("Hello", -3)', 'llo');
      await check('$substringBefore("a-b-c", "-") & "|" & $substringAfter("a-b-c", "-")', 'a|b-c');
      await check('$trim("  a \t b  ")', 'a b');
      await check('$length("Ünï😀")', 4);
      await check('$split("a,b,,c", ",", 3)', ['a', 'b', '']);
      await check('$join(body.items.sku, "+")', 'p1+p2+p3');
      await check('$contains(body.customer.email, "Example")', true);
      await check('$string({"a": [1, 2.50]}, true)', '{\n  "a": [\n    1,\n    2.5\n  ]\n}');
    });

    it('implements the numeric and aggregate functions', async () => {
      await check('[$max(body.items.price), $min(body.items.price), $average(body.items.qty), $abs(-2), $floor(-1.5), $ceil(1.2)]', [20, 3, 2, 2, -2, 2]);
      await check('$sum([])', 0);
      await check('$max([])', undefined);
      await check('$number("0x1F") + $number("-1.5e1") + $number(true)', 17);
      await check('$count(body.nope)', 0);
    });

    it('implements the object and type functions', async () => {
      await check('$keys(body.items)', ['sku', 'price', 'qty', 'tags']);
      await check('$lookup(body.items, "sku")', ['p1', 'p2', 'p3']);
      await check('$append(1, [2, 3])', [1, 2, 3]);
      await check('$append(body.nope, 1)', 1);
      await check('[$type(1), $type("s"), $type(null), $type([]), $type({}), $type($uppercase), $type(body.nope)]', ['number', 'string', 'null', 'array', 'object', 'function']);
      await check('[$exists(body.nope), $boolean([0, ""]), $not("x"), $boolean({})]', [false, false, false, false]);
    });

    it('$map passes index and array according to the function arity', async () => {
      await check('$map(body.items, function($v, $i){ $i & ":" & $v.sku })', ['0:p1', '1:p2', '2:p3']);
      await check('$map(body.items, function($v, $i, $a){ $count($a) - $i })', [3, 2, 1]);
      await check('$map(body.items.sku, $uppercase)', ['P1', 'P2', 'P3']);
      await checkError('$map(body.items.sku, $substring)', 'T0410');
    });

    it('$filter and $reduce', async () => {
      await check('$filter(body.items, function($v){ $v.qty > 1 }).sku', ['p1', 'p3']);
      await check('$reduce(body.items.price, function($acc, $p){ $acc + $p }, 100)', 133.5);
      await check('$reduce([], function($a, $b){ $a + $b })', undefined);
    });

    it('lambdas capture variables by frame, not by value', async () => {
      await check('($x := 5; $f := function($y){ $x + $y }; $x := 10; $f(1))', 11);
      await check('($add := function($a){ function($b){ $a + $b } }; $add5 := $add(5); $add5(2))', 7);
      await check('($factor := 3; $map([1, 2], function($v){ $v * $factor }))', [3, 6]);
      await check('($fact := function($n){ $n <= 1 ? 1 : $n * $fact($n - 1) }; $fact(10))', 3628800);
    });

    it('reproduces jsonata tail-call behaviour', async () => {
      // the tail call's sequence result is not collapsed
      await check('$map([1, 2], function($v){ $keys({"a": $v}) })', [['a'], ['a']]);
      // the tail call sees the caller's context (null inside $map)
      await checkError('$map(["a"], function($v){ $uppercase() })', 'T0411');
      // a tail call passes native functions unwrapped, which $map cannot invoke
      const unwrapped = '($f := function($a){ $map($a, $string) }; $f([1]))';
      expect(compileExpression(unwrapped).fast).to.equal(true);
      expect(await codeOf(() => compileExpression(unwrapped).evaluate({}))).to.equal(undefined);
      expect(await codeOf(() => reference(unwrapped, {}))).to.equal(undefined);
      expect(await codeOf(() => compileExpression(unwrapped).evaluate({}))).to.not.equal('no error');
      await check('($loop := function($n, $acc){ $n = 0 ? $acc : $loop($n - 1, $acc + $n) }; $loop(2000, 0))', 2001000);
    });

    it('applies ~>', async () => {
      await check('body.customer.name ~> $uppercase()', 'ANN LEE');
      await check('body.items.sku ~> $join("/")', 'p1/p2/p3');
      await check('body.customer.name ~> $substringAfter(" ")', 'Lee');
    });
  });

  describe('compiled fast paths', () => {
    const data = {
      m: [[{ a: 1 }], [{ a: 2 }, { a: 3 }]],
      empty: [],
      f: { _jsonata_function: true, a: 1 },
      g: [{ _jsonata_lambda: true, a: 2 }, { a: 3 }],
      s: 'x😀y😀z',
      city: 'new york city',
    };

    it('walks paths over nested arrays, empty arrays and sequences kept in objects', async () => {
      await check('m.a', [1, 2, 3], data);
      await check('m[0].a', 1, data);
      await check('m.$[0].a', [1, 2], data);
      await check('empty.a', undefined, data);
      await check('empty', [], data);
      await check('f.a', undefined, data);
      await check('g.a', 3, data);
      await check('{"p": body.items.price}.p', [10.5, 3, 20]);
      await check('{"p": body.single.price}.p', 7);
      await check('$sum(body.items.qty) + $count(body.matrix) + $count(body.nope)', 8);
      await check('$join(body.items.tags, "/")', 'red/big/blue');
      // a one-item sequence kept (`[]`) in a constructed object is normalised when read back
      await check('{"o": {"p": body.single.price[]}}.(o.p = 7)', true);
      await check('{"o": {"p": body.single.price[]}}.($type(o.p))', 'number');
    });

    it('gives variables a frame slot, looking further out while a slot is unassigned', async () => {
      await check('($x := 1; ($y := $x; $x := 2; [$y, $x]))', [1, 2]);
      await check('($x := 1; ($y := 0; ($z := $x; $x := 5; [$z, $x, $y])))', [1, 5, 0]);
      await check('($x := 1; $f := function(){ ($y := $x; $x := 3; {"y": $y, "x": $x}) }; [$f(), $x])', [{ y: 1, x: 3 }, 1]);
      await check('($f := function($a, $a){ $a }; $f(1, 2))', 2);
      for (const source of ['($y := $x; $x := 1; [$y, $x])', '($f := function($a){ $x }; $r := $f(0); $x := 5; [$r, $f(0)])']) {
        // before the assignment the variable comes from the bindings
        const bound = compileExpression(source);
        expect(bound.fast, source).to.equal(true);
        expect(await bound.evaluate({}, { x: 7 }), source).to.deep.equal(await reference(source, {}, { x: 7 }));
      }
      expect(await compileExpression('($f := function($a){ $x }; $r := $f(0); $x := 5; [$r, $f(0)])').evaluate({}, { x: 7 })).to.deep.equal([7, 5]);
    });

    it('runs $map/$filter lambdas inline with the arguments their arity asks for', async () => {
      await check('$map([1, 2], function($a, $a){ $a })', [0, 1]);
      await check('$map([1, 2], function($v, $i, $a, $z){ [$v, $i, $count($a), $exists($z)] })', [[1, 0, 2, false], [2, 1, 2, false]]);
      await check('$filter(["a", "b", "c"], function($v, $i){ $i != 1 })', ['a', 'c']);
      await check('$filter(["a", "b", "c"], function($v, $i, $all){ $v = $all[-1] })', 'c');
      await check('$map([1, 2, 3], function($v){ $v != 2 ? $v })', [1, 3]);
      await check('$map([5], function($v){ $v })', 5);
      await check('$map("x", function($v){ $v & "!" })', 'x!');
      await check('$map({"a": 1}, function($v){ $v.a })', 1);
      await check('$map(body.nope, function($v){ $v })', undefined);
      await check('$map([1, 2], function($v){ ($w := $v + 1; $w * $v) })', [2, 6]);
      await check('$map([1, 2], function($v){ [$v] })[0]', [1]);
      await check('$map([[1, 2]], function($v){ $v })[]', [[1, 2]]);
      await check('[1, 2] ~> $map(function($v){ $v * 2 })', [2, 4]);
      await check('$join($map($split(city, " "), function($w){ $uppercase($substring($w, 0, 1)) & $lowercase($substring($w, 1)) }), " ")', 'New York City', data);
    });

    it('gives each item its own frame (closures keep their item)', async () => {
      await check('$map($map([1, 2, 3], function($v){ function(){ $v * 10 } }), function($f){ $f() })', [10, 20, 30]);
      await check('($k := 2; $map([1, 2], function($v){ $u := $map([$v], function($w){ $w * $k + $v }) }))', [3, 6]);
    });

    it('keeps a tail call\'s sequence result as it is, also through a block or a condition', async () => {
      await check('$map([1, 2], function($v){ $map([$v], function($x){ $x }) })', [[1], [2]]);
      await check('$map([1, 2], function($v){ ($map([$v], function($x){ $x })) })', [[1], [2]]);
      await check('$map([1, 2], function($v){ $v > 0 ? $filter([$v], function($x){ true }) : 0 })', [[1], [2]]);
      await check('$map(["a b", "c"], function($v){ ($split($v, " ")) })', [['a', 'b'], ['c']]);
    });

    it('counts characters by code point in $substring and $length', async () => {
      await check('[$substring(s, 1, 1), $substring(s, -2), $substring(s, 3, 2), $length(s)]', ['😀', '😀z', '😀z', 5], data);
      await check('$substring("a\uD800b", 1, 1)', '\uD800');
    });
  });

  describe('evaluation API', () => {
    it('returns plain values synchronously on the fast path', () => {
      const c = compileExpression('body.order_id');
      expect(c.evaluate(order)).to.equal('A-1');
    });

    it('uses bindings, which also shadow functions', async () => {
      const c = compileExpression('$prefix & $uppercase(body.order_id)');
      expect(c.fast).to.equal(true);
      expect(await c.evaluate(order, { prefix: '#' })).to.equal('#A-1');
      expect(await c.evaluate(order, { prefix: '#', uppercase: (s: unknown) => `up(${String(s)})` })).to.equal('#up(A-1)');
    });

    it('calls custom functions on both paths and falls back when one returns a promise', async () => {
      const double = (n: unknown) => (n as number) * 2;
      const c = compileExpression('$double(body.items[0].qty)', { double });
      expect(c.fast).to.equal(true);
      expect(await c.evaluate(order)).to.equal(4);
      const slow = compileExpression('body.items{sku: $double(qty)}', { double });
      expect(slow.fast).to.equal(false);
      expect(await slow.evaluate(order)).to.deep.equal({ p1: 4, p2: 2, p3: 6 });
      const before = expressionStats().bailouts;
      const viaPromise = compileExpression('$later(body.order_id) & "!"', { later: async (s: unknown) => `${String(s)}?` });
      expect(await viaPromise.evaluate(order)).to.equal('A-1?!');
      expect(expressionStats().bailouts).to.equal(before + 1);
    });

    it('falls back to jsonata for constructs outside the subset, with the same results', async () => {
      for (const source of ['body.items^(>price).sku', 'body.**.sku', '$replace(body.order_id, "-", "_")', 'body.items#$i[$i > 0].sku', '$formatNumber(1234.5, "#,##0.00")']) {
        const c = compileExpression(source);
        expect(c.fast, source).to.equal(false);
        expect(await c.evaluate(order), source).to.deep.equal(await reference(source, order));
      }
    });

    it('hands array roots to jsonata (which wraps them)', async () => {
      const c = compileExpression('$[0]');
      expect(c.fast).to.equal(true);
      const input = [1, 2, 3];
      expect(await c.evaluate(input)).to.deep.equal(await reference('$[0]', input));
    });

    it('throws ExprError with jsonata codes, also for syntax errors and on the fallback path', async () => {
      expect(() => compileExpression('body.(')).to.throw(ExprError).with.property('code').that.matches(/^S0/);
      try {
        compileExpression('1 + "a"').evaluate({});
        expect.fail('should throw');
      } catch (e) {
        expect(e).to.be.instanceOf(ExprError);
        expect((e as ExprError).code).to.equal('T2002');
      }
      const slow = compileExpression('$sort(["b", 1])');
      expect(slow.fast).to.equal(false);
      const err = await Promise.resolve(slow.evaluate({})).then(() => undefined, (e: unknown) => e);
      expect(err).to.be.instanceOf(ExprError);
      expect((err as ExprError).code).to.equal('D3070');
    });

    it('$now and $millis give one instant per evaluation', async () => {
      const c = compileExpression('[$now(), $millis(), $now()]');
      expect(c.fast).to.equal(true);
      const [now, millis, again] = (await c.evaluate({})) as [string, number, string];
      expect(now).to.equal(again);
      expect(new Date(now).getTime()).to.equal(millis);
      expect(Math.abs(Date.now() - millis)).to.be.lessThan(5000);
    });
  });
});
