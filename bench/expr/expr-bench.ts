/**
 * jsonata `evaluate` vs compiled closures, per evaluation, for ten typical
 * flow expressions over a ~300-byte order body.
 *
 *   npx tsc -p tsconfig.json && node dist/bench/expr/expr-bench.js
 *
 * Each expression is timed in batches; the figure is the median ns/op across batches.
 */
import jsonata from 'jsonata';
import { compileExpression, PLATFORM_FUNCTIONS } from '../../src/engine/expr';

const root = {
  correlation_id: 'c-42',
  headers: { 'x-tenant': 'acme' },
  body: {
    order_id: 'ORD-1001',
    customer: { name: 'Ann Lee', email: 'Ann.Lee@Example.COM', city: 'new york city', tier: 'gold' },
    items: [
      { sku: 'A-1', price: 12.5, qty: 2 },
      { sku: 'B-2', price: 3.99, qty: 3 },
      { sku: 'C-3', price: 45, qty: 1 },
    ],
    shipping: { method: 'express', country: 'US' },
  },
};

const EXPRESSIONS: readonly string[] = [
  'body.order_id',
  'body.customer.email ~> $lowercase()',
  '$uppercase(body.customer.name)',
  '$count(body.items)',
  '$round($sum(body.items.(price * qty)), 2)',
  '$join(body.items.sku, ",")',
  'body.items[price > 10].sku',
  'body.customer.tier = "gold" ? "priority" : "standard"',
  '$join($map($split(body.customer.city, " "), function($w){ $uppercase($substring($w, 0, 1)) & $lowercase($substring($w, 1)) }), " ")',
  '{ "id": body.order_id, "country": body.shipping.country, "lines": $count(body.items), "tenant": headers."x-tenant" }',
];

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function timeAsync(run: () => Promise<unknown>, iterations: number, batches: number): Promise<number> {
  for (let i = 0; i < iterations; i++) await run(); // warm-up
  const perOp: number[] = [];
  for (let b = 0; b < batches; b++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < iterations; i++) await run();
    perOp.push(Number(process.hrtime.bigint() - t0) / iterations);
  }
  return median(perOp);
}

function timeSync(run: () => unknown, iterations: number, batches: number): number {
  let sink: unknown;
  for (let i = 0; i < iterations; i++) sink = run(); // warm-up
  const perOp: number[] = [];
  for (let b = 0; b < batches; b++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < iterations; i++) sink = run();
    perOp.push(Number(process.hrtime.bigint() - t0) / iterations);
  }
  if (sink === Symbol.for('never')) console.log(sink);
  return median(perOp);
}

function fmt(ns: number): string {
  return ns >= 10_000 ? `${(ns / 1000).toFixed(1)} µs` : `${ns.toFixed(0)} ns`;
}

async function main(): Promise<void> {
  const iterations = Number(process.env.BENCH_ITERATIONS ?? 2000);
  const batches = Number(process.env.BENCH_BATCHES ?? 15);
  console.log(`node ${process.version}, body ${JSON.stringify(root.body).length} bytes, ${batches} batches × ${iterations} evaluations, median ns/op\n`);
  console.log(`${'expression'.padEnd(60)} ${'jsonata'.padStart(10)} ${'compiled'.padStart(10)} ${'ratio'.padStart(8)}`);
  let totalJ = 0;
  let totalC = 0;
  for (const source of EXPRESSIONS) {
    const ref = jsonata(source);
    for (const [name, f] of Object.entries(PLATFORM_FUNCTIONS)) ref.registerFunction(name, f.implementation, f.signature);
    const compiled = compileExpression(source);
    if (!compiled.fast) throw new Error(`not on the fast path: ${source} (${compiled.fallbackReason ?? ''})`);
    if (JSON.stringify(await ref.evaluate(root)) !== JSON.stringify(compiled.evaluate(root))) throw new Error(`results differ: ${source}`);
    const j = await timeAsync(() => ref.evaluate(root), iterations, batches);
    const c = timeSync(() => compiled.evaluate(root), iterations * 10, batches);
    totalJ += j;
    totalC += c;
    const label = source.length > 58 ? `${source.slice(0, 57)}…` : source;
    console.log(`${label.padEnd(60)} ${fmt(j).padStart(10)} ${fmt(c).padStart(10)} ${`${(j / c).toFixed(0)}×`.padStart(8)}`);
  }
  console.log(`${'all ten (sum)'.padEnd(60)} ${fmt(totalJ).padStart(10)} ${fmt(totalC).padStart(10)} ${`${(totalJ / totalC).toFixed(0)}×`.padStart(8)}`);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
