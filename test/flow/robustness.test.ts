import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { compileFlowFile, validateFlowFile } from '../../src/flow';
import { flow, render, step, tmpDir, writeFlow } from './helpers';

/** Both entry points give the same single diagnostic for input that cannot even be parsed. */
function expectBoth(file: string, line: number, message: RegExp): void {
  for (const r of [validateFlowFile(file), compileFlowFile(file)]) {
    expect(r.ok, 'should fail').to.equal(false);
    if (r.ok) return;
    const first = r.diagnostics[0];
    expect(first, 'a diagnostic').to.not.equal(undefined);
    if (first === undefined) return;
    expect(first.file).to.equal(file);
    expect(first.line).to.equal(line);
    expect(first.message).to.match(message);
  }
}

describe('flow: robustness against bad input', () => {
  it('empty file', () => {
    const f = writeFlow('');
    expectBoth(f, 1, /^empty file: a flow file starts with front matter/);
  });

  it('whitespace-only file', () => {
    expectBoth(writeFlow('\n  \n\t\n'), 1, /^empty file/);
  });

  it('no front matter', () => {
    const f = writeFlow('# Just markdown\n\n```yaml step\nid: a\ntype: log\nmessage: hi\n```\n');
    expectBoth(f, 1, /^missing front matter: the first line must be '---'/);
  });

  it('unclosed front matter', () => {
    const f = writeFlow('---\ntenant: acme\nflow: x\n\n# Body\n');
    expectBoth(f, 1, /^front matter is not closed: the '---' on line 1 needs a matching '---'/);
  });

  it('malformed YAML in the front matter names the line of the error', () => {
    const f = writeFlow('---\ntenant: acme\nflow: x\nconfig: [A, B\ndescription: x\n---\n');
    const r = validateFlowFile(f);
    expect(r.ok).to.equal(false);
    if (r.ok) return;
    expect(r.diagnostics).to.have.length(1);
    expect(r.diagnostics[0]?.line).to.be.within(4, 5);
    expect(r.diagnostics[0]?.message).to.match(/^front matter: YAML syntax error: /);
  });

  it('duplicate front-matter key is a YAML error on the second key', () => {
    const f = writeFlow('---\ntenant: acme\nflow: x\ntenant: other\n---\n');
    expectBoth(f, 4, /^front matter: YAML syntax error: Map keys must be unique/);
  });

  it('malformed YAML in a step names the file line and the step', () => {
    const f = writeFlow(flow('', step('id: broken\ntype: log\nmessage: [unclosed\nlevel: info')));
    const r = validateFlowFile(f);
    expect(r.ok).to.equal(false);
    if (r.ok) return;
    expect(r.diagnostics).to.have.length(1);
    const d = r.diagnostics[0];
    expect(d?.message).to.match(/^step block 'broken' \(line 8\): YAML syntax error: /);
    expect(d?.line).to.be.within(11, 12);
  });

  it('an unquoted expression with ": " gets a quoting hint', () => {
    const f = writeFlow(flow('', step('id: t\ntype: transform\nvalue: ${a ? b : c}')));
    const r = validateFlowFile(f);
    expect(r.ok).to.equal(false);
    if (r.ok) return;
    expect(r.diagnostics[0]?.line).to.equal(11);
    expect(r.diagnostics[0]?.message).to.contain('must be quoted in YAML');
  });

  it('binary garbage', () => {
    const bytes = Buffer.from([0x2d, 0x2d, 0x2d, 0x0a, 0x00, 0xff, 0xfe, 0x01, 0x02, 0x0a, 0x89, 0x50, 0x4e, 0x47]);
    expectBoth(writeFlow(bytes), 2, /^not a text file: NUL byte at offset 4/);
  });

  it('invalid UTF-8 without NUL bytes', () => {
    const bytes = Buffer.concat([Buffer.from('---\ntenant: acme\n'), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from('\n---\n')]);
    expectBoth(writeFlow(bytes), 3, /^not a UTF-8 text file: invalid byte sequence at offset 17/);
  });

  it('a 10 MB file is refused quickly by size', () => {
    const big = Buffer.alloc(10 * 1024 * 1024, 'a');
    big.write('---\ntenant: acme\nflow: big\n---\n');
    const f = writeFlow(big);
    const started = Date.now();
    expectBoth(f, 1, /^file is too large \(10485760 bytes; a flow file may have at most 5242880 bytes = 5 MiB\)/);
    expect(Date.now() - started).to.be.below(1000);
  });

  it('a path that does not exist', () => {
    const f = path.join(tmpDir(), 'missing.flow.md');
    expectBoth(f, 1, /^no such file$/);
  });

  it('a path through a regular file', () => {
    const f = writeFlow('x');
    expectBoth(path.join(f, 'child.flow.md'), 1, /^no such file \(a part of the path is not a directory\)$/);
  });

  it('a directory path', () => {
    const d = tmpDir();
    expectBoth(d, 1, /^is a directory, not a flow file/);
  });

  it('an unreadable file (when not running as root)', function () {
    if (typeof process.getuid === 'function' && process.getuid() === 0) this.skip();
    const f = writeFlow(flow('', ''));
    fs.chmodSync(f, 0o000);
    expectBoth(f, 1, /^cannot read the file: permission denied$/);
  });

  it('CRLF line endings and a byte order mark are accepted', () => {
    const text = '\ufeff' + flow('', step('id: hello\ntype: log\nmessage: hi')).replace(/\n/g, '\r\n');
    const r = validateFlowFile(writeFlow(text));
    expect(r.ok, r.ok ? '' : r.diagnostics.map(render).join('\n')).to.equal(true);
  });

  it('front matter that is not a map', () => {
    const f = writeFlow('---\n- a\n- b\n---\n');
    expectBoth(f, 1, /^front matter must be a YAML map of settings/);
  });

  it('an empty step block', () => {
    const f = writeFlow(flow('', '```yaml step\n```\n'));
    expectBoth(f, 8, /^step block is empty/);
  });

  it('a step that is a list, not a map', () => {
    const f = writeFlow(flow('', step('- id: a\n  type: log')));
    expectBoth(f, 9, /^step block: a step must be a YAML map with 'id' and 'type', got a list/);
  });

  it('YAML alias bombs are bounded', () => {
    const lines = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 0; i < 9; i++) {
      const prev = String.fromCharCode(97 + i);
      const cur = String.fromCharCode(98 + i);
      lines.push(`${cur}: &${cur} [*${prev}, *${prev}, *${prev}, *${prev}, *${prev}, *${prev}, *${prev}, *${prev}, *${prev}, *${prev}]`);
    }
    const f = writeFlow(flow('', step(`id: bomb\ntype: transform\nvalue:\n  ${lines.join('\n  ')}`)));
    const started = Date.now();
    const r = compileFlowFile(f);
    expect(r.ok).to.equal(false);
    expect(Date.now() - started).to.be.below(3000);
  });

  it('reports all errors, not just the first', () => {
    const f = writeFlow(
      flow(
        'concurrency: four\ntimeout_ms: -1\n',
        step('id: a\ntype: http\nmethd: GET\nurl: x') + step('id: b\ntype: lgo\nmessage: x') + step('id: c\ntype: log\nmessage: ${steps.zz}'),
      ),
    );
    const r = validateFlowFile(f);
    expect(r.ok).to.equal(false);
    if (r.ok) return;
    expect(r.diagnostics.map((d) => d.line)).to.deep.equal([4, 5, 13, 19, 26]);
  });
});
