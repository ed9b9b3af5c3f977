import { expect } from 'chai';
import * as path from 'path';
import { compileFlowFile, validateFlowFile } from '../../src/flow';
import { FIXTURES, compileOk, flow, render, step, withoutAst, writeFlow } from './helpers';

const LIBS = path.join(FIXTURES, 'libs');
const rel = (p: string): string => path.relative(process.cwd(), p);

describe('flow: libraries (include and call_flow lib)', () => {
  it('include splices steps in place with <include id>__ prefixes, also nested and inside foreach', () => {
    const file = path.join(FIXTURES, 'with-libs.flow.md');
    const v = validateFlowFile(file, { libsDir: LIBS });
    expect(v.ok, v.ok ? '' : v.diagnostics.map(render).join('\n')).to.equal(true);
    if (!v.ok) return;
    // auth (wrapper: inner (2 steps) + call) = 3, loop, done
    expect(v.stepCount).to.equal(5);
    const ir = compileOk(file, { libsDir: LIBS });
    expect(ir.steps.map((s) => s.id)).to.deep.equal(['auth__inner__token', 'auth__inner__check', 'auth__call', 'loop', 'done']);
    const loop = ir.steps[3];
    expect(loop?.type).to.equal('foreach');
    if (loop?.type !== 'foreach') return;
    expect(loop.steps.map((s) => s.id)).to.deep.equal(['per_item__token', 'per_item__check', 'tell']);
    // References written inside a library follow the prefix.
    expect(withoutAst(ir.steps[1])).to.deep.include({ value: { $expr: 'steps.auth__inner__token.token_type' } });
    expect(withoutAst(loop.steps[1])).to.deep.include({ value: { $expr: 'steps.per_item__token.token_type' } });
  });

  it('call_flow lib embeds the library steps (own id scope) and its effects count', () => {
    const ir = compileOk(path.join(FIXTURES, 'with-libs.flow.md'), { libsDir: LIBS });
    const loop = ir.steps[3];
    if (loop?.type !== 'foreach') throw new Error('expected foreach');
    const tell = loop.steps[2];
    if (tell?.type !== 'call_flow') throw new Error('expected call_flow');
    expect(tell.flow).to.equal(null);
    expect(tell.lib?.name).to.equal('notify');
    expect(tell.lib?.steps.map((s) => s.id)).to.deep.equal(['text', 'send']);
    expect(ir.meta.effects).to.deep.equal(['flow_call', 'http_egress', 'queue']);
  });

  it("libraries' config and secrets join the flow's lists", () => {
    const ir = compileOk(path.join(FIXTURES, 'with-libs.flow.md'), { libsDir: LIBS });
    expect(ir.config).to.deep.equal(['BASE', 'WRAP_URL', 'TOKEN_URL', 'CHAT_URL']);
    expect(ir.secrets).to.deep.equal(['CLIENT_SECRET']);
  });

  it('a cycle is an error that shows the cycle', () => {
    const r = validateFlowFile(path.join(FIXTURES, 'cycle.flow.md'), { libsDir: LIBS });
    expect(r.ok).to.equal(false);
    if (r.ok) return;
    expect(r.diagnostics.map(render)).to.deep.equal([`${path.join(LIBS, 'cycle-b.flow.md')}:8: step 'to_a': library cycle: cycle-a -> cycle-b -> cycle-a`]);
  });

  it('errors inside libraries name the library file; each is reported once; missing and escaping names', () => {
    const file = path.join(FIXTURES, 'problems-in-libs.flow.md');
    const r = validateFlowFile(file, { libsDir: rel(LIBS) });
    expect(r.ok).to.equal(false);
    if (r.ok) return;
    const libs = rel(LIBS);
    expect(r.diagnostics.map(render)).to.deep.equal([
      `${file}:27: step 'four': library 'notfy' not found (looked for ${path.join(libs, 'notfy.flow.md')}); did you mean 'notify'?`,
      `${file}:33: step 'five': library name '../escape' must be a relative path inside the libs folder (letters, digits, _ - . and /, no '..')`,
      `${path.join(libs, 'bad.flow.md')}:3: front matter: unknown field 'tenant' (a library file takes only library, description, config, secrets; 'tenant' belongs to the flow that uses it)`,
      `${path.join(libs, 'bad.flow.md')}:9: step 'x': 'config.UNDECLARED' is not declared: add 'UNDECLARED' to the front matter 'config' list`,
      `${path.join(libs, 'a-flow.flow.md')}:2: front matter: not a library file: a library's front matter has 'library: <name>' (and optionally description, config, secrets) instead of tenant and flow`,
    ]);
  });

  it('without --libs an include is an error naming the flag', () => {
    const f = writeFlow(flow('', step('id: x\ntype: include\nlib: common/auth')));
    const r = validateFlowFile(f);
    expect(r.ok).to.equal(false);
    if (r.ok) return;
    expect(r.diagnostics.map((d) => `${d.line}: ${d.message}`)).to.deep.equal([
      "11: step 'x': library 'common/auth' cannot be found: no libraries folder was given (pass --libs <dir>)",
    ]);
  });

  it('spliced ids that collide with flow ids are reported', () => {
    const f = writeFlow(flow('', step('id: a__token\ntype: log\nmessage: x') + step('id: a\ntype: include\nlib: common/auth')), 'collide.flow.md');
    const r = compileFlowFile(f, { libsDir: LIBS });
    expect(r.ok).to.equal(false);
    if (r.ok) return;
    expect(r.diagnostics.map((d) => d.message)).to.deep.equal([
      "step 'a__token' (spliced from library 'common/auth'): the id is already used by the step at " + `${f}:9; step ids must be unique in a flow`,
    ]);
  });

  it('a validate-only check of a library file says what it is', () => {
    const r = validateFlowFile(path.join(LIBS, 'notify.flow.md'));
    expect(r.ok).to.equal(false);
    if (r.ok) return;
    expect(r.diagnostics[0]?.message).to.match(/^front matter: this is a library file \('library: notify'\), not a flow/);
  });
});
