/**
 * Deploy throughput: flows per second published into a fresh registry through the command bus
 * (compile + tenant check + insert + latest move + audit append), beside the compile-only rate
 * of the same files measured in the same run (the baseline).
 * Run: npx tsc -p tsconfig.json && node dist/bench/compile/deploy-throughput.js [flows]
 */
import 'reflect-metadata';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeployFlow } from '../../src/commands/deploy-flow';
import { CreateTenant } from '../../src/commands/tenant-commands';
import { compileFlowFile } from '../../src/flow';
import { createApp } from '../../src/infra/app';

const FLOWS = Number(process.argv[2] ?? 200);

function flowText(i: number): string {
  return [
    '---',
    'tenant: acme',
    `flow: bench-flow-${i}`,
    'config: [TARGET_URL]',
    '---',
    '',
    `# Bench flow ${i}`,
    '',
    '```yaml step',
    'id: shape',
    'type: transform',
    'value: { id: "${body.id}", total: "${$sum(body.items.price)}", n: ' + i + ' }',
    '```',
    '',
    '```yaml step',
    'id: send',
    'type: http',
    'method: POST',
    'url: ${config.TARGET_URL}/orders',
    'body: ${steps.shape}',
    '```',
    '',
  ].join('\n');
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-deploy-'));
  try {
    const files = Array.from({ length: FLOWS }, (_, i) => {
      const file = join(dir, `flow-${i}.flow.md`);
      writeFileSync(file, flowText(i));
      return file;
    });
    // Warm the compiler (jsonata, ajv, markdown-it) before timing either side.
    compileFlowFile(files[0] ?? '');

    let t0 = process.hrtime.bigint();
    for (const f of files) if (!compileFlowFile(f).ok) throw new Error(`${f} does not compile`);
    const compileSeconds = Number(process.hrtime.bigint() - t0) / 1e9;

    const app = createApp({ registry: join(dir, 'registry.db') });
    await app.commands.execute(new CreateTenant('acme', 'Acme', ['api_key']));
    t0 = process.hrtime.bigint();
    for (const f of files) await app.commands.execute(new DeployFlow(f, '1.0.0', undefined));
    const deploySeconds = Number(process.hrtime.bigint() - t0) / 1e9;
    await app.close();

    const compileRate = FLOWS / compileSeconds;
    const deployRate = FLOWS / deploySeconds;
    console.log('| operation | flows/s | ms per flow | x compile-only |');
    console.log('|---|---|---|---|');
    console.log(`| compile only (baseline) | ${compileRate.toFixed(0)} | ${((1000 * compileSeconds) / FLOWS).toFixed(2)} | 1.00 |`);
    console.log(`| deploy into a fresh registry | ${deployRate.toFixed(0)} | ${((1000 * deploySeconds) / FLOWS).toFixed(2)} | ${(deployRate / compileRate).toFixed(2)} |`);
    console.log(`\n${FLOWS} flows, ${new Date().toISOString()}, node ${process.version}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
