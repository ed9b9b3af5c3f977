/**
 * Benchmark: compile time of a generated 200-step flow (median of N runs).
 * Build with `npx tsc -p tsconfig.json`, run with `node dist/bench/compile/compile-200-steps.js [runs]`.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { compileFlowFile, validateFlowFile } from '../../src/flow';

const STEPS = 200;

function generateFlow(): string {
  const parts: string[] = [
    '---',
    'tenant: acme',
    'flow: bench-200',
    'description: Generated benchmark flow with 200 steps',
    'config: [API_URL]',
    'secrets: [API_TOKEN]',
    'dedup_key: ${body.id}',
    'input:',
    '  type: object',
    '  required: [id, items]',
    '  properties:',
    '    id: { type: string }',
    '    items: { type: array, items: { type: object, properties: { sku: { type: string }, qty: { type: integer, minimum: 1 } } } }',
    '---',
    '',
    '# Benchmark flow',
    '',
  ];
  for (let i = 0; i < STEPS; i++) {
    const prev = i === 0 ? 'body' : `steps.s${i - 1}`;
    parts.push(`Step ${i} does kind ${i % 5}.`, '');
    parts.push('```yaml step');
    switch (i % 5) {
      case 0:
        parts.push(`id: s${i}`, 'type: transform', 'value:', `  n: \${$count(${prev}) + ${i}}`, `  label: "item \${body.id}-${i}"`, `  list: '\${$map(body.items, function($x) { {"sku": $x.sku, "q": $x.qty * ${i}} })}'`);
        break;
      case 1:
        parts.push(`id: s${i}`, 'type: http', 'method: POST', 'url: ${config.API_URL}/step/' + i, 'headers: { Authorization: "Bearer ${secrets.API_TOKEN}" }', `body: { prev: "\${${prev}}", id: "\${body.id}" }`, 'expect: [200, "2xx"]', 'retry: { attempts: 3, backoff_ms: 100 }');
        break;
      case 2:
        parts.push(`id: s${i}`, 'type: log', `when: \${${prev} != null}`, `message: step ${i} saw \${$string(${prev})}`);
        break;
      case 3:
        parts.push(`id: s${i}`, 'type: foreach', 'items: ${body.items}', 'steps:', `  - { id: s${i}_a, type: transform, value: "\${item.qty * 2}" }`, `  - { id: s${i}_b, type: transform, value: "\${steps.s${i}_a + index}" }`);
        break;
      default:
        parts.push(`id: s${i}`, 'type: switch', 'cases:', `  - when: \${$count(body.items) > ${i}}`, `    steps: [{ id: s${i}_big, type: transform, value: "\${${prev}}" }]`, `default: [{ id: s${i}_small, type: transform, value: "\${$uuid()}" }]`);
    }
    parts.push('```', '');
  }
  return parts.join('\n');
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
}

function main(): void {
  const runs = Math.max(3, Number(process.argv[2] ?? 15));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-compile-'));
  try {
    const file = path.join(dir, 'bench-200.flow.md');
    fs.writeFileSync(file, generateFlow());
    const warm = compileFlowFile(file);
    if (!warm.ok) {
      for (const d of warm.diagnostics) process.stderr.write(`${d.file}:${d.line}: ${d.message}\n`);
      process.exitCode = 1;
      return;
    }
    const compileTimes: number[] = [];
    const validateTimes: number[] = [];
    for (let i = 0; i < runs; i++) {
      let t = process.hrtime.bigint();
      validateFlowFile(file);
      validateTimes.push(Number(process.hrtime.bigint() - t) / 1e6);
      t = process.hrtime.bigint();
      compileFlowFile(file);
      compileTimes.push(Number(process.hrtime.bigint() - t) / 1e6);
    }
    const size = fs.statSync(file).size;
    process.stdout.write(
      `flow: ${STEPS} top-level steps (${size} bytes, IR ${warm.json.length} bytes), ${runs} runs, Node ${process.version}\n` +
        `validate median: ${median(validateTimes).toFixed(1)} ms\n` +
        `compile  median: ${median(compileTimes).toFixed(1)} ms (min ${Math.min(...compileTimes).toFixed(1)}, max ${Math.max(...compileTimes).toFixed(1)})\n`,
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main();
