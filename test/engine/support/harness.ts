/**
 * Engine test harness: flows written as real .flow.md files and compiled with compileFlowFile,
 * an engine on the real undici egress, a recording logger and a settable clock.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { compileFlowFile, type FlowIR } from '../../../src/flow';
import { FlowEngine, UndiciEgress, type EnginePorts, type LogFields, type LogLevel, type RunInput, type RunResult } from '../../../src/engine';

let tmpRoot: string | undefined;
let counter = 0;

export function tmpDir(): string {
  if (tmpRoot === undefined) {
    tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-engine-test-'));
    const root = tmpRoot;
    process.on('exit', () => fs.rmSync(root, { recursive: true, force: true }));
  }
  const dir = path.join(tmpRoot, `d${counter++}`);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/** A step block. */
export function step(yaml: string): string {
  return `\`\`\`yaml step\n${yaml.trim()}\n\`\`\`\n\n`;
}

export interface FlowSource {
  /** Extra front matter lines (tenant acme, flow test-flow are given). */
  fm?: string;
  steps: string[];
  /** Library files by name (written under libs/). */
  libs?: Record<string, string>;
}

/** Writes the flow (and its libraries) to a temp folder and compiles it; throws with the diagnostics. */
export function compile(src: FlowSource): FlowIR {
  const dir = tmpDir();
  let libsDir: string | undefined;
  if (src.libs !== undefined) {
    libsDir = path.join(dir, 'libs');
    fs.mkdirSync(libsDir);
    for (const [name, text] of Object.entries(src.libs)) fs.writeFileSync(path.join(libsDir, `${name}.flow.md`), text);
  }
  const file = path.join(dir, 'test.flow.md');
  const fm = src.fm === undefined ? '' : `${src.fm.trim()}\n`;
  fs.writeFileSync(file, `---\ntenant: acme\nflow: test-flow\n${fm}---\n\n# Test\n\n${src.steps.map(step).join('')}`);
  const r = compileFlowFile(file, libsDir === undefined ? {} : { libsDir });
  if (!r.ok) throw new Error(`flow does not compile:\n${r.diagnostics.map((d) => `${d.file}:${d.line}: ${d.message}`).join('\n')}`);
  return r.ir;
}

export interface LogRecord {
  level: LogLevel;
  message: string;
  fields: LogFields;
}

export class Harness {
  readonly logs: LogRecord[] = [];
  nowMs = Date.parse('2025-01-01T00:00:00Z');
  readonly egress = new UndiciEgress();
  readonly engine: FlowEngine;

  constructor(extra: Partial<Pick<EnginePorts, 'callFlow' | 'enqueue'>> = {}) {
    this.engine = new FlowEngine({
      http: this.egress,
      logger: { log: (level, message, fields) => this.logs.push({ level, message, fields }) },
      clock: { now: () => new Date(this.nowMs) },
      ...extra,
    });
  }

  input(over: Partial<RunInput> = {}): RunInput {
    return {
      tenant: 'acme',
      flowName: 'test-flow',
      version: '3',
      door: 'run',
      body: {},
      headers: {},
      query: {},
      correlationId: 'corr-123',
      config: {},
      secrets: {},
      ...over,
    };
  }

  run(ir: FlowIR, over: Partial<RunInput> = {}, signal?: AbortSignal): Promise<RunResult> {
    return this.engine.run(this.engine.prepare(ir), this.input(over), signal);
  }

  async close(): Promise<void> {
    await this.egress.close();
  }
}
