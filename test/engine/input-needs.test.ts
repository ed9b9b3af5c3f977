/** What a prepared flow can read of the request: doors leave out `headers` / `query` only when it cannot. */
import { expect } from 'chai';
import { inputNeedsOf } from '../../src/engine';
import { compile, Harness } from './support/harness';

const transformOf = (...exprs: string[]) =>
  compile({
    steps: [
      `id: t
type: transform
value:
${exprs.map((e, i) => `  k${i}: |-\n    \${${e}}`).join('\n')}`,
    ],
  });

describe('engine: which request parts a flow reads (inputNeeds)', () => {
  it('a flow that names neither headers nor query reads neither', () => {
    const ir = transformOf('body.order_id', '$uppercase(body.name)', '$round($sum(body.items.(price * qty)), 2)', '$join($map($split(body.city, " "), function($w) { $uppercase($w) }), " ")');
    expect(inputNeedsOf(ir)).to.deep.equal({ headers: false, query: false });
  });

  it('naming headers or query, also quoted or in a template, reads that part only', () => {
    expect(inputNeedsOf(transformOf("headers.'x-shop'"))).to.deep.equal({ headers: true, query: false });
    expect(inputNeedsOf(transformOf('$number(query.page)'))).to.deep.equal({ headers: false, query: true });
    expect(inputNeedsOf(transformOf('`headers`.host'))).to.deep.equal({ headers: true, query: false });
    const tpl = compile({ steps: ['id: t\ntype: transform\nvalue: "page ${query.page} of ${body.n}"'] });
    expect(inputNeedsOf(tpl)).to.deep.equal({ headers: false, query: true });
    const when = compile({ steps: ['id: t\ntype: transform\nwhen: ${headers.x = "1"}\nvalue: 1'] });
    expect(inputNeedsOf(when)).to.deep.equal({ headers: true, query: false });
  });

  it('whatever can reach the whole root counts as reading everything', () => {
    for (const e of ['$$', '$keys($)', '$string()', '$lookup(body, "x")', '*.host', '**.host', '$each(body, function($v) { $v })', '$eval("1")', 'function($x)<s-:s>{ $x }()']) {
      expect(inputNeedsOf(transformOf(e)), e).to.deep.equal({ headers: true, query: true });
    }
  });

  it('steps that hand the run input on (call_flow, enqueue) read everything', () => {
    const call = compile({ steps: ['id: c\ntype: call_flow\nflow: other-flow\ninput: { x: "${body.x}" }'] });
    expect(inputNeedsOf(call)).to.deep.equal({ headers: true, query: true });
    const enqueue = compile({ steps: ['id: q\ntype: enqueue\nflow: later\nbody: { id: "${body.id}" }'] });
    expect(inputNeedsOf(enqueue)).to.deep.equal({ headers: true, query: true });
  });

  it('nested steps are looked at too', () => {
    const ir = compile({
      steps: [
        `id: s
type: switch
cases:
  - when: \${body.a}
    steps:
      - id: inner
        type: transform
        value: \${headers.host}
default:
  - id: fallback
    type: transform
    value: 0`,
      ],
    });
    expect(inputNeedsOf(ir)).to.deep.equal({ headers: true, query: false });
  });

  it('the engine reports it for a prepared flow, and a flow that reads headers gets them', async () => {
    const h = new Harness();
    try {
      const ir = transformOf("headers.'x-shop'");
      const prepared = h.engine.prepare(ir);
      expect(h.engine.inputNeeds(prepared)).to.deep.equal({ headers: true, query: false });
      const r = await h.engine.run(prepared, h.input({ headers: { 'x-shop': 'north' } }));
      expect(r.body).to.deep.equal({ k0: 'north' });
    } finally {
      await h.close();
    }
  });
});
