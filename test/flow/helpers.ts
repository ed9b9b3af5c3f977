import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { type CompileResult, type Diagnostic, type FlowIR, type FlowLoadOptions, compileFlowFile, validateFlowFile } from '../../src/flow';

export const REPO_ROOT = path.resolve(__dirname, '../../..');
export const FIXTURES = path.join(REPO_ROOT, 'test/fixtures/flows');
export const EXAMPLES = path.join(REPO_ROOT, 'examples');

let tmpRoot: string | undefined;
let counter = 0;

/** A fresh temporary folder for this test process (removed at exit). */
export function tmpDir(): string {
  if (tmpRoot === undefined) {
    tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-flow-test-'));
    const root = tmpRoot;
    process.on('exit', () => fs.rmSync(root, { recursive: true, force: true }));
  }
  const dir = path.join(tmpRoot, `d${counter++}`);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/** Writes a file (content may be a string or bytes) into a fresh folder and returns its path. */
export function writeFlow(content: string | Buffer, name = 'test.flow.md', dir = tmpDir()): string {
  const p = path.join(dir, name);
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.writeFileSync(p, content);
  return p;
}

/** Standard front matter plus the given extra lines, then the body. */
export function flow(frontMatterExtra: string, body: string): string {
  return `---\ntenant: acme\nflow: test-flow\n${frontMatterExtra}${frontMatterExtra && !frontMatterExtra.endsWith('\n') ? '\n' : ''}---\n\n# Test\n\n${body}`;
}

export function step(yaml: string): string {
  return `\`\`\`yaml step\n${yaml.trim()}\n\`\`\`\n\n`;
}

export function render(d: Diagnostic): string {
  return `${d.file}:${d.line}: ${d.message}`;
}

export function validateErrors(file: string, opts: FlowLoadOptions = {}): Diagnostic[] {
  const r = validateFlowFile(file, opts);
  return r.ok ? [] : r.diagnostics;
}

export function compileErrors(file: string, opts: FlowLoadOptions = {}): Diagnostic[] {
  const r = compileFlowFile(file, opts);
  return r.ok ? [] : r.diagnostics;
}

export function compileOk(file: string, opts: FlowLoadOptions = {}): FlowIR {
  const r: CompileResult = compileFlowFile(file, opts);
  if (!r.ok) throw new Error(`expected ${file} to compile:\n${r.diagnostics.map(render).join('\n')}`);
  return r.ir;
}

/** Drops `ast` members so IR fragments are easy to compare. */
export function withoutAst(u: unknown): unknown {
  if (Array.isArray(u)) return u.map(withoutAst);
  if (typeof u === 'object' && u !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(u)) if (k !== 'ast') out[k] = withoutAst(v);
    return out;
  }
  return u;
}
