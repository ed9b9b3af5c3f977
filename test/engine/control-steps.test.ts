/** foreach, switch, call_flow, enqueue, validate, log, fail, respond and the steps not implemented yet. */
import { expect } from 'chai';
import type { RunInput, RunResult } from '../../src/engine';
import { compile, Harness } from './support/harness';
import { delay, json, Upstream } from './support/upstream';

const lib = (name: string, steps: string[]): string =>
  `---\nlibrary: ${name}\n---\n\n${steps.map((s) => `\`\`\`yaml step\n${s.trim()}\n\`\`\`\n\n`).join('')}`;

describe('engine: control and flow steps', () => {
  let h: Harness;
  afterEach(() => h.close());

  describe('foreach', () => {
    let up: Upstream;
    let inFlight = 0;
    let maxInFlight = 0;
    beforeEach(async () => {
      h = new Harness();
      inFlight = 0;
      maxInFlight = 0;
      up = await Upstream.start(async (req, res) => {
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        const n = Number(new URL(req.url, 'http://x').searchParams.get('n'));
        await delay(n === 3 ? 5 : 60 - n * 10); // later items answer sooner
        inFlight--;
        if (n === 99) return json(res, 500, {});
        json(res, 200, { n });
      });
    });
    afterEach(() => up.close());

    it('runs iterations in parallel up to `parallel` and keeps item order in the output', async () => {
      const ir = compile({
        fm: 'config: [API]',
        steps: [
          `id: each
type: foreach
items: \${body.items}
parallel: 3
steps:
  - { id: call, type: http, url: "\${config.API}/?n=\${item}" }
  - { id: pick, type: transform, value: "\${index}:\${steps.call.body.n}" }`,
        `id: after\ntype: transform\nvalue: { all: "\${steps.each}", count: "\${$count(steps.each)}" }`,
      ],
    });
    const started = Date.now();
    const r = await h.run(ir, { body: { items: [1, 2, 3, 4, 5, 0] }, config: { API: up.base } });
    expect(r.status).to.equal(200);
    expect(r.body).to.deep.equal({ all: ['0:1', '1:2', '2:3', '3:4', '4:5', '5:0'], count: 6 });
    expect(maxInFlight).to.equal(3);
    expect(Date.now() - started).to.be.below(60 * 6); // faster than one by one
    expect(r.stepsRun).to.equal(2 + 6 * 2);
  });

  it('with parallel 1 runs one at a time; a single value is one item; nothing is no item', async () => {
    const ir = compile({
      fm: 'config: [API]',
      steps: [`id: each\ntype: foreach\nitems: \${body.items}\nsteps:\n  - { id: call, type: http, url: "\${config.API}/?n=\${item}" }\n  - { id: v, type: transform, value: "\${steps.call.body.n}" }`],
    });
    expect((await h.run(ir, { body: { items: [2, 1] }, config: { API: up.base } })).body).to.deep.equal([2, 1]);
    expect(maxInFlight).to.equal(1);
    expect((await h.run(ir, { body: { items: 4 }, config: { API: up.base } })).body).to.deep.equal([4]);
    expect((await h.run(ir, { body: {}, config: { API: up.base } })).body).to.deep.equal([]);
  });

  it('the first failing iteration fails the foreach (naming the inner step) and stops the others', async () => {
    const ir = compile({
      fm: 'config: [API]',
      steps: [`id: each\ntype: foreach\nitems: \${body.items}\nparallel: 2\nsteps:\n  - { id: call, type: http, url: "\${config.API}/?n=\${item}" }`],
    });
    const r = await h.run(ir, { body: { items: [99, 5, 4, 3, 2, 1] }, config: { API: up.base } });
    expect(r.status).to.equal(502);
    expect(r.error?.step).to.equal('call');
    expect(up.requests.length).to.be.below(6);
  });

  it('a synchronous foreach needs no I/O and nested steps see the outer steps', async () => {
    const ir = compile({
      steps: [
        `id: rate\ntype: transform\nvalue: 2`,
        `id: each\ntype: foreach\nitems: \${body.xs}\nsteps:\n  - { id: double, type: transform, value: "\${item * steps.rate}" }\n  - { id: plus, type: transform, value: "\${steps.double + index}" }`,
      ],
    });
    const r = await h.run(ir, { body: { xs: [1, 2, 3] } });
    expect(r.body).to.deep.equal([2, 5, 8]);
  });
  });

  describe('switch', () => {
    beforeEach(() => {
      h = new Harness();
    });
    const ir = (): ReturnType<typeof compile> =>
      compile({
        steps: [
          `id: route
type: switch
cases:
  - when: body.country = "DE"
    steps:
      - { id: de, type: transform, value: germany }
      - { id: de2, type: transform, value: "\${steps.de} ok" }
  - when: \${body.country = "FR"}
    steps: [{ id: fr, type: transform, value: france }]
default:
  - { id: other, type: transform, value: "other \${body.country}" }`,
          `id: after\ntype: transform\nvalue: { route: "\${steps.route}" }`,
        ],
      });
    it('takes the first truthy case, else default; output is the branch’s last output', async () => {
      expect((await h.run(ir(), { body: { country: 'DE' } })).body).to.deep.equal({ route: 'germany ok' });
      expect((await h.run(ir(), { body: { country: 'FR' } })).body).to.deep.equal({ route: 'france' });
      expect((await h.run(ir(), { body: { country: 'IT' } })).body).to.deep.equal({ route: 'other IT' });
    });
    it('no case and an empty default: output null', async () => {
      const only = compile({ steps: [`id: s\ntype: switch\ncases:\n  - when: "false"\n    steps: [{ id: x, type: transform, value: 1 }]`] });
      expect((await h.run(only)).body).to.equal(null);
    });
  });

  describe('call_flow', () => {
    it('lib: runs the library steps in their own scope with the input as body; result = last output or respond body', async () => {
      h = new Harness();
      const ir = compile({
        libs: {
          greet: lib('greet', [`id: hello\ntype: transform\nvalue: "hello \${body.name}"`, `id: shout\ntype: transform\nvalue: "\${$uppercase(steps.hello)}"`]),
          answer: lib('answer', [`id: r\ntype: respond\nbody: { got: "\${body}" }`, `id: never\ntype: transform\nvalue: 1`]),
        },
        steps: [
          `id: hello\ntype: transform\nvalue: outer`,
          `id: g\ntype: call_flow\nlib: greet\ninput: { name: "\${body.who}" }`,
          `id: a\ntype: call_flow\nlib: answer\ninput: 7`,
          `id: out\ntype: transform\nvalue: { g: "\${steps.g}", a: "\${steps.a}", hello: "\${steps.hello}" }`,
        ],
      });
      const r = await h.run(ir, { body: { who: 'ann' } });
      expect(r.status).to.equal(200);
      expect(r.body).to.deep.equal({ g: 'HELLO ANN', a: { got: 7 }, hello: 'outer' });
    });

    it('flow: uses the callFlow port; its failure fails the step; absent port gives flow_error', async () => {
      const calls: Array<{ tenant: string; name: string; input: unknown; parent: RunInput }> = [];
      h = new Harness({
        callFlow: async (tenant, name, input, parent): Promise<RunResult> => {
          calls.push({ tenant, name, input, parent });
          if (name === 'broken') return { status: 502, headers: {}, body: undefined, error: { code: 'upstream_error', message: 'erp down' }, stepsRun: 1 };
          return { status: 200, headers: {}, body: { echoed: input }, stepsRun: 1 };
        },
      });
      const ir = compile({ steps: [`id: c\ntype: call_flow\nflow: other-flow\ninput: { x: "\${body.x}" }`] });
      const r = await h.run(ir, { body: { x: 1 } });
      expect(r.body).to.deep.equal({ echoed: { x: 1 } });
      expect(calls[0]).to.deep.include({ tenant: 'acme', name: 'other-flow', input: { x: 1 } });
      expect(calls[0]?.parent.correlationId).to.equal('corr-123');

      const broken = compile({ steps: [`id: c\ntype: call_flow\nflow: broken`] });
      const b = await h.run(broken);
      expect(b.status).to.equal(502);
      expect(b.error).to.deep.include({ code: 'upstream_error', step: 'c' });
      expect(b.error?.message).to.contain('erp down');

      const bare = new Harness();
      const n = await bare.run(ir);
      await bare.close();
      expect(n.status).to.equal(500);
      expect(n.error?.code).to.equal('flow_error');
      expect(n.error?.message).to.contain('call_flow to deployed flows is not available here');
    });
  });

  describe('enqueue', () => {
    it('uses the enqueue port and outputs {message_id}; absent port gives a step error', async () => {
      const sent: unknown[] = [];
      h = new Harness({
        enqueue: async (tenant, flow, body) => {
          sent.push({ tenant, flow, body });
          return { message_id: 'm-1' };
        },
      });
      const ir = compile({ steps: [`id: q\ntype: enqueue\nflow: later\nbody: { id: "\${body.id}" }`] });
      const r = await h.run(ir, { body: { id: 5 } });
      expect(r.body).to.deep.equal({ message_id: 'm-1' });
      expect(sent).to.deep.equal([{ tenant: 'acme', flow: 'later', body: { id: 5 } }]);
      const bare = new Harness();
      const n = await bare.run(ir, { body: { id: 5 } });
      await bare.close();
      expect(n.status).to.equal(500);
      expect(n.error?.message).to.contain("step 'q'").and.contain('enqueue');
    });
  });

  describe('validate, log, fail, respond', () => {
    beforeEach(() => {
      h = new Harness();
    });

    it('validate: passes the value on, refuses with 400 invalid_input and the failing paths', async () => {
      const ir = compile({
        steps: [`id: check\ntype: validate\nschema: { type: object, required: [id], properties: { id: { type: string }, n: { type: number, maximum: 3 } } }`],
      });
      expect((await h.run(ir, { body: { id: 'a' } })).body).to.deep.equal({ id: 'a' });
      const r = await h.run(ir, { body: { n: 4 } });
      expect(r.status).to.equal(400);
      expect(r.error).to.deep.include({ code: 'invalid_input', step: 'check' });
      expect(r.error?.message).to.contain('/id is required').and.contain('/n must be <= 3');
    });

    it('log: writes at its level with correlation_id; no output', async () => {
      const ir = compile({ steps: [`id: a\ntype: transform\nvalue: 1`, `id: note\ntype: log\nlevel: warn\nmessage: order \${body.id} has \${body.lines} lines`] });
      const r = await h.run(ir, { body: { id: 'o1', lines: [1, 2] } });
      expect(r.body).to.equal(1);
      expect(h.logs).to.have.length(1);
      expect(h.logs[0]).to.deep.include({ level: 'warn', message: 'order o1 has [1,2] lines' });
      expect(h.logs[0]?.fields).to.deep.include({ correlation_id: 'corr-123', tenant: 'acme', flow: 'test-flow', step: 'note' });
    });

    it('fail: ends with its status, code and message (on_error of the fail step itself does not catch it)', async () => {
      const ir = compile({
        steps: [
          `id: stop\ntype: fail\nstatus: 422\ncode: order_rejected\nmessage: order \${body.id} is rejected\non_error: continue`,
          `id: never\ntype: transform\nvalue: 1`,
        ],
      });
      const r = await h.run(ir, { body: { id: 'o1' } });
      expect(r).to.deep.include({ status: 422, stepsRun: 1 });
      expect(r.error).to.deep.equal({ code: 'order_rejected', message: 'order o1 is rejected', step: 'stop' });
      const dflt = await h.run(compile({ steps: [`id: stop\ntype: fail`] }));
      expect(dflt.status).to.equal(500);
      expect(dflt.error).to.deep.include({ code: 'flow_error' });
      expect(dflt.error?.message).to.contain("'stop'");
    });

    it('a container with on_error: continue catches a nested fail', async () => {
      const ir = compile({
        steps: [
          `id: s\ntype: switch\non_error: continue\ncases:\n  - when: "true"\n    steps: [{ id: f, type: fail, status: 409, code: conflict, message: clash }]`,
          `id: after\ntype: transform\nvalue: \${steps.s.error}`,
        ],
      });
      expect((await h.run(ir)).body).to.deep.equal({ code: 'conflict', message: 'clash' });
    });

    it('respond: ends with status, string headers (hop-by-hop dropped) and body; later steps do not run', async () => {
      const ir = compile({
        steps: [
          `id: reply
type: respond
status: \${body.code}
headers: { Location: "/orders/\${body.id}", X-Count: 2, Connection: close, Transfer-Encoding: chunked, Keep-Alive: "timeout=5", X-Gone: null }
body: { id: "\${body.id}" }`,
          `id: never\ntype: transform\nvalue: 1`,
        ],
      });
      const r = await h.run(ir, { body: { id: 'o1', code: 201 } });
      expect(r).to.deep.equal({ status: 201, headers: { location: '/orders/o1', 'x-count': '2' }, body: { id: 'o1' }, stepsRun: 1 });
      const noBody = await h.run(compile({ steps: [`id: r\ntype: respond\nstatus: 204`] }));
      expect(noBody).to.deep.include({ status: 204, body: undefined });
      const badStatus = await h.run(ir, { body: { id: 'o1', code: 'x' } });
      expect(badStatus.status).to.equal(500);
      expect(badStatus.error?.message).to.contain("step 'reply'").and.contain('status');
    });

    it('grpc and correlate steps are not implemented yet: step error not_implemented', async () => {
      const ir = compile({
        steps: [
          `id: wait\ntype: correlate_open\nkey: \${body.id}\ndeadline: 2h\non_error: continue`,
          `id: pick\ntype: grpc\ntarget: "localhost:1"\nproto: p\nservice: a.B\nmethod: C`,
        ],
      });
      const r = await h.run(ir, { body: { id: 1 } });
      expect(r.error).to.deep.include({ code: 'not_implemented', step: 'pick' });
      expect(r.error?.message).to.contain("'grpc'");
    });
  });
});
