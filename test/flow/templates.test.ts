import { expect } from 'chai';
import { compileFlowFile } from '../../src/flow';
import { compileOk, flow, step, withoutAst, writeFlow } from './helpers';
import { parseTemplate } from '../../src/flow/template';
import { findReferences, prefixStepReferences } from '../../src/flow/references';

const value = (yamlValue: string): unknown => {
  const ir = compileOk(writeFlow(flow('', step(`id: a\ntype: transform\nvalue: ${yamlValue}`))));
  const s = ir.steps[0];
  if (s?.type !== 'transform') throw new Error('expected transform');
  return withoutAst(s.value);
};

describe('flow: templates and expressions', () => {
  it('exactly one ${...} keeps its type; text around it interpolates; $${ is literal', () => {
    expect(value('${body.n}')).to.deep.equal({ $expr: 'body.n' });
    expect(value('"n = ${body.n}!"')).to.deep.equal({ $tpl: ['n = ', { $expr: 'body.n' }, '!'] });
    expect(value('"cost $${body.n}"')).to.deep.equal('cost ${body.n}');
    expect(value('"a $${x} ${body.n}"')).to.deep.equal({ $tpl: ['a ${x} ', { $expr: 'body.n' }] });
    expect(value('42')).to.equal(42);
    expect(value('true')).to.equal(true);
    expect(value('{ a: [1, "${body.x}"], b: plain }')).to.deep.equal({ a: [1, { $expr: 'body.x' }], b: 'plain' });
  });

  it('braces of object constructors, lambdas and strings do not end an expression', () => {
    expect(value("'${$map(xs, function($x) { $x * 2 })}'")).to.deep.equal({ $expr: '$map(xs, function($x) { $x * 2 })' });
    expect(value(`'\${ {"a": "}"} }'`)).to.deep.equal({ $expr: '{"a": "}"}' });
    const p = parseTemplate('${ "}" & \'}\' & `}` /* } */ }tail');
    expect(p.ok && p.parts).to.deep.equal([{ kind: 'expr', source: ' "}" & \'}\' & `}` /* } */ ', offset: 2 }, { kind: 'text', text: 'tail' }]);
  });

  it('the syntax tree is stored beside the source', () => {
    const ir = compileOk(writeFlow(flow('', step('id: a\ntype: transform\nvalue: ${$match(s, /a{2}/i)}'))));
    const s = ir.steps[0];
    if (s?.type !== 'transform') throw new Error('expected transform');
    expect(JSON.stringify(s.value)).to.contain('"type":"regex"');
    expect(JSON.stringify(s.value)).to.contain('"pattern":"a{2}","flags":"gi"');
  });

  it('expression fields accept bare JSONata', () => {
    const ir = compileOk(writeFlow(flow('', step('id: a\ntype: log\nwhen: body.level > 2\nmessage: x'))));
    expect(withoutAst(ir.steps[0]?.when)).to.deep.equal({ $expr: 'body.level > 2' });
  });

  it('reference scan: roots only, not in strings, backticks understood', () => {
    const refs = findReferences('steps.a.x & body.steps.b & "steps.c" & $.steps.d & `steps`.e & steps.`f` & config.K & $secrets.X');
    expect(refs.map((r) => `${r.kind}.${r.name}`)).to.deep.equal(['steps.a', 'steps.d', 'steps.e', 'steps.f', 'config.K']);
    expect(prefixStepReferences('steps.a.x + steps.`b` + "steps.c"', 'p__')).to.equal('steps.p__a.x + steps.`p__b` + "steps.c"');
  });

  it('reserved keys in literal maps are refused', () => {
    const f = writeFlow(flow('', step('id: a\ntype: transform\nvalue: { $expr: x }')));
    const r = compileFlowFile(f);
    expect(r.ok).to.equal(false);
    if (r.ok) return;
    expect(r.diagnostics[0]?.message).to.equal("step 'a': 'value.$expr': the key '$expr' is reserved for compiled expressions");
  });
});
