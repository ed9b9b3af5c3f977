import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { compileFlowFile, validateFlowFile } from '../../src/flow';
import { EXAMPLES, render } from './helpers';

describe('flow: the examples validate and compile', () => {
  const files = fs.readdirSync(EXAMPLES).filter((f) => f.endsWith('.flow.md')).sort();
  const libsDir = path.join(EXAMPLES, 'libs');

  it('there are 4-6 example flows for tenant acme', () => {
    expect(files.length).to.be.within(4, 6);
  });

  for (const name of files) {
    it(name, () => {
      const file = path.join(EXAMPLES, name);
      const v = validateFlowFile(file, { libsDir });
      expect(v.ok, v.ok ? '' : v.diagnostics.map(render).join('\n')).to.equal(true);
      if (v.ok) expect(v.tenant).to.equal('acme');
      const c = compileFlowFile(file, { libsDir, resolvePaths: true });
      expect(c.ok, c.ok ? '' : c.diagnostics.map(render).join('\n')).to.equal(true);
      if (c.ok) {
        expect(c.ir.meta.tenant).to.equal('acme');
        expect(`${c.ir.meta.name}.flow.md`).to.equal(name);
      }
    });
  }
});
