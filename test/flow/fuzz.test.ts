import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { type Diagnostic, compileFlowFile, validateFlowFile } from '../../src/flow';
import { EXAMPLES, tmpDir } from './helpers';

/** Deterministic PRNG (mulberry32) so a failure can be replayed from the seed. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const MAX_CASES = 3000;
const MAX_MS = 20_000;
const TOKENS = ['${', '}', '$${', '```', '~~~', '---', ':', '- ', '{', '[', '"', "'", '\t', 'yaml step', 'steps.', 'config.', '&a', '*a', '\u0000', '\ufffd', '#'];

function mutate(text: string, r: () => number): Buffer | string {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
  const lines = text.split('\n');
  const n = 1 + Math.floor(r() * 4);
  for (let k = 0; k < n; k++) {
    const i = Math.floor(r() * lines.length);
    const j = Math.floor(r() * lines.length);
    switch (Math.floor(r() * 7)) {
      case 0:
        lines.splice(i, 1);
        break;
      case 1:
        lines.splice(i, 0, lines[i] ?? '');
        break;
      case 2: {
        const t = lines[i] ?? '';
        lines[i] = lines[j] ?? '';
        lines[j] = t;
        break;
      }
      case 3: {
        const l = lines[i] ?? '';
        const at = Math.floor(r() * (l.length + 1));
        lines[i] = l.slice(0, at) + pick(TOKENS) + l.slice(at);
        break;
      }
      case 4:
        lines.length = Math.max(0, Math.min(lines.length, i));
        break;
      case 5:
        lines[i] = (lines[i] ?? '').replace(/^\s+/, '');
        break;
      default:
        lines[i] = `  ${lines[i] ?? ''}`;
    }
  }
  let out: string | Buffer = lines.join('\n');
  if (r() < 0.15) {
    const buf = Buffer.from(out);
    const flips = 1 + Math.floor(r() * 8);
    for (let k = 0; k < flips && buf.length > 0; k++) {
      const at = Math.floor(r() * buf.length);
      buf[at] = (buf[at] ?? 0) ^ (1 << Math.floor(r() * 8));
    }
    out = buf;
  }
  if (r() < 0.1) out = typeof out === 'string' ? out.slice(0, Math.floor(r() * out.length)) : out.subarray(0, Math.floor(r() * out.length));
  return out;
}

function randomBytes(r: () => number): Buffer {
  const len = Math.floor(r() * 400);
  const b = Buffer.alloc(len);
  for (let i = 0; i < len; i++) b[i] = Math.floor(r() * 256);
  if (r() < 0.5 && len > 4) b.write('---\n', 0);
  return b;
}

function checkDiagnostics(ds: Diagnostic[], context: string): void {
  expect(ds.length, context).to.be.greaterThan(0);
  for (const d of ds) {
    expect(d.file, context).to.be.a('string').and.not.equal('');
    expect(Number.isInteger(d.line) && d.line > 0, `${context}: line ${d.line}`).to.equal(true);
    expect(d.message, context).to.be.a('string').and.not.equal('');
  }
}

describe('flow: fuzzing validate and compile', function () {
  this.timeout(60_000);

  it(`never throws and always reports file and positive line (<= ${MAX_CASES} cases, <= ${MAX_MS / 1000} s)`, () => {
    const seed = Number(process.env.FLOW_FUZZ_SEED ?? 20240601);
    const r = rng(seed);
    const libsDir = path.join(EXAMPLES, 'libs');
    const sources = fs
      .readdirSync(EXAMPLES)
      .filter((f) => f.endsWith('.flow.md'))
      .map((f) => fs.readFileSync(path.join(EXAMPLES, f), 'utf8'));
    const dir = tmpDir();
    const started = Date.now();
    let cases = 0;
    let failures = 0;
    while (cases < MAX_CASES && Date.now() - started < MAX_MS) {
      const content = r() < 0.08 ? randomBytes(r) : mutate(sources[cases % sources.length] ?? '', r);
      const file = path.join(dir, `case-${cases % 50}.flow.md`);
      fs.writeFileSync(file, content);
      const context = `seed ${seed} case ${cases}`;
      let v: ReturnType<typeof validateFlowFile>;
      let c: ReturnType<typeof compileFlowFile>;
      try {
        v = validateFlowFile(file, { libsDir });
        c = compileFlowFile(file, { libsDir });
      } catch (e) {
        throw new Error(`${context}: threw ${String(e)}`);
      }
      if (!v.ok) checkDiagnostics(v.diagnostics, context);
      if (!c.ok) {
        checkDiagnostics(c.diagnostics, context);
        failures++;
        for (const d of c.diagnostics) expect(d.message, context).to.not.match(/^internal error/);
      }
      // A file that compiles also validates.
      if (c.ok) expect(v.ok, context).to.equal(true);
      cases++;
    }
    expect(cases).to.be.greaterThan(100);
    expect(failures).to.be.greaterThan(0);
  });
});
