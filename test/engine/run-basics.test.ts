/** Templates, transform, when, the answer without respond, expression failures, input schema, IR version. */
import { expect } from 'chai';
import { expressionStats } from '../../src/engine/expr';
import { compile, Harness } from './support/harness';

describe('engine: templates, transform and the run answer', () => {
  let h: Harness;
  beforeEach(() => {
    h = new Harness();
  });
  afterEach(() => h.close());

  it('evaluates $expr with its type, $tpl as strings, maps and lists recursively, literals as they are', async () => {
    const ir = compile({
      fm: 'config: [REGION]',
      steps: [
        `id: shape
type: transform
value:
  total: \${body.a + body.b}
  label: total \${body.a + body.b} for \${body.who} \${body.missing}!
  obj_in_text: "o=\${body.obj}"
  list: [1, "\${body.a}", "x\${body.a}", "\${body.missing}"]
  nested: { keep: literal, flag: true, nothing: null, region: "\${config.REGION}" }
  gone: \${body.missing}`,
      ],
    });
    const r = await h.run(ir, { body: { a: 2, b: 3.5, who: 'Ann', obj: { k: [1, true] } }, config: { REGION: 'eu' } });
    expect(r.status).to.equal(200);
    expect(r.error).to.equal(undefined);
    expect(r.body).to.deep.equal({
      total: 5.5,
      label: 'total 5.5 for Ann !',
      obj_in_text: 'o={"k":[1,true]}',
      list: [1, 2, 'x2', null],
      nested: { keep: 'literal', flag: true, nothing: null, region: 'eu' },
    });
    expect(r.stepsRun).to.equal(1);
  });

  it('gives every root member to expressions', async () => {
    const ir = compile({
      fm: 'config: [A]\nsecrets: [S]',
      steps: [
        `id: root
type: transform
value:
  door: \${door}
  flow: \${flow}
  correlation_id: \${correlation_id}
  header: \${headers.\`x-thing\`}
  query: \${query.q}
  message: \${message}
  event: \${event}
  config: \${config.A}
  secret_length: \${$length(secrets.S)}`,
        `id: second
type: transform
value: \${steps.root.door & "/" & $string(steps.root.message.attempt)}`,
      ],
    });
    const r = await h.run(ir, {
      door: 'enqueue',
      headers: { 'x-thing': 'h' },
      query: { q: ['1', '2'] },
      message: { id: 'm1', attempt: 2 },
      event: { source: 'shop', type: 'order.paid', id: 'e1' },
      config: { A: 'cfg' },
      secrets: { S: 'abcd' },
    });
    expect(r.status).to.equal(200);
    expect(r.body).to.equal('enqueue/2');
    const first = h.logs; // nothing logged on success
    expect(first).to.deep.equal([]);
  });

  it('answers 200 with the last output; {} when no step produced one; log steps leave it', async () => {
    const skipped = compile({ steps: [`id: never\ntype: transform\nwhen: body.go = true\nvalue: 1`] });
    const r1 = await h.run(skipped, { body: { go: false } });
    expect(r1).to.deep.include({ status: 200, body: {}, stepsRun: 0 });
    const r2 = await h.run(skipped, { body: { go: true } });
    expect(r2).to.deep.include({ status: 200, body: 1, stepsRun: 1 });

    const withLog = compile({
      steps: [`id: a\ntype: transform\nvalue: { x: 1 }`, `id: note\ntype: log\nmessage: done \${steps.a.x}`],
    });
    const r3 = await h.run(withLog);
    expect(r3.body).to.deep.equal({ x: 1 });
    expect(r3.stepsRun).to.equal(2);
  });

  it('skips steps whose when is falsy (and later references see nothing)', async () => {
    const ir = compile({
      steps: [
        `id: a\ntype: transform\nwhen: \${body.n > 10}\nvalue: big`,
        `id: b\ntype: transform\nvalue: '\${steps.a ? steps.a : "small"}'`,
      ],
    });
    expect((await h.run(ir, { body: { n: 3 } })).body).to.equal('small');
    expect((await h.run(ir, { body: { n: 30 } })).body).to.equal('big');
  });

  it('an expression that throws gives 500 flow_error naming the step and the field', async () => {
    const ir = compile({
      steps: [`id: ok\ntype: transform\nvalue: 1`, `id: calc\ntype: transform\nvalue:\n  total: \${body.a + body.b}`, `id: after\ntype: transform\nvalue: 2`],
    });
    const r = await h.run(ir, { body: { a: 1, b: 'x' } });
    expect(r.status).to.equal(500);
    expect(r.error?.code).to.equal('flow_error');
    expect(r.error?.step).to.equal('calc');
    expect(r.error?.message).to.contain("step 'calc'").and.contain('value.total').and.contain('body.a + body.b');
    expect(r.body).to.deep.equal({ error: { code: 'flow_error', message: r.error?.message } });
    expect(r.stepsRun).to.equal(2);
    const warn = h.logs.find((l) => l.level === 'warn');
    expect(warn?.fields['correlation_id']).to.equal('corr-123');
  });

  it('$error() in an expression on the jsonata fallback path fails the same way', async () => {
    const ir = compile({ steps: [`id: boom\ntype: transform\nvalue: '\${($sort([1]); $error("custom failure"))}'`] });
    const r = await h.run(ir);
    expect(r.status).to.equal(500);
    expect(r.error).to.deep.include({ code: 'flow_error', step: 'boom' });
    expect(r.error?.message).to.contain('custom failure');
  });

  it('validates the body against the input schema before any step, listing the failing paths', async () => {
    const ir = compile({
      fm: `input:
  type: object
  required: [order_id, lines]
  properties:
    order_id: { type: string }
    lines:
      type: array
      items:
        type: object
        properties:
          qty: { type: integer, minimum: 1 }`,
      steps: [`id: a\ntype: transform\nvalue: ran`],
    });
    const bad = await h.run(ir, { body: { lines: [{ qty: 1 }, { qty: 0 }, { qty: 'x' }] } });
    expect(bad.status).to.equal(400);
    expect(bad.error?.code).to.equal('invalid_input');
    expect(bad.error?.step).to.equal(undefined);
    expect(bad.error?.message).to.contain('/order_id is required').and.contain('/lines/1/qty must be >= 1').and.contain('/lines/2/qty must be integer');
    expect(bad.stepsRun).to.equal(0);
    const good = await h.run(ir, { body: { order_id: 'o1', lines: [] } });
    expect(good).to.deep.include({ status: 200, body: 'ran' });
  });

  it('prepare refuses IR of an unknown major version, naming both versions', () => {
    const ir = compile({ steps: [`id: a\ntype: transform\nvalue: 1`] });
    const future = { ...ir, meta: { ...ir.meta, version: { major: 2, minor: 0 } } };
    expect(() => h.engine.prepare(future)).to.throw(/2\.0.*1\.0/);
  });

  it('a transform-only flow on the fast path sets no timer and evaluates no expression through jsonata', async () => {
    const ir = compile({
      steps: [`id: a\ntype: transform\nvalue: { n: "\${body.n * 2}", s: "x\${body.n}" }`, `id: b\ntype: transform\nvalue: \${steps.a.n + 1}`],
    });
    const prepared = h.engine.prepare(ir);
    const before = expressionStats();
    const realSetTimeout = global.setTimeout;
    let timers = 0;
    global.setTimeout = ((...args: Parameters<typeof setTimeout>) => {
      timers++;
      return realSetTimeout(...args);
    }) as typeof setTimeout;
    let pending: Promise<unknown>;
    try {
      pending = h.engine.run(prepared, h.input({ body: { n: 4 } }));
    } finally {
      global.setTimeout = realSetTimeout;
    }
    expect((await pending) as { body: unknown }).to.deep.include({ status: 200, body: 9 });
    expect(timers).to.equal(0);
    const after = expressionStats();
    expect(after.fallbackEvaluations - before.fallbackEvaluations).to.equal(0);
    expect(after.fastEvaluations - before.fastEvaluations).to.equal(3);
  });

  it('a prepared flow runs many times with independent state', async () => {
    const ir = compile({ steps: [`id: a\ntype: transform\nvalue: \${body.n * 2}`] });
    const prepared = h.engine.prepare(ir);
    const results = await Promise.all([1, 2, 3].map((n) => h.engine.run(prepared, h.input({ body: { n } }))));
    expect(results.map((r) => r.body)).to.deep.equal([2, 4, 6]);
  });
});
