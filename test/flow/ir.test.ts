import { expect } from 'chai';
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { IR_VERSION, checkIrVersion, compileFlowFile, renderIr } from '../../src/flow';
import { EXAMPLES, compileOk, flow, step, tmpDir, withoutAst, writeFlow } from './helpers';

describe('flow: the IR', () => {
  it('is byte-identical for the same input and hashes the compact JSON', () => {
    const file = path.join(EXAMPLES, 'order-intake.flow.md');
    const a = compileFlowFile(file);
    const b = compileFlowFile(file);
    if (!a.ok || !b.ok) throw new Error('examples must compile');
    expect(a.json).to.equal(b.json);
    expect(a.hash).to.equal(b.hash);
    expect(a.hash).to.match(/^[0-9a-f]{64}$/);
    expect(a.hash).to.equal(createHash('sha256').update(a.json).digest('hex'));
    expect(renderIr(a.ir, false)).to.equal(a.json);
    const pretty = renderIr(a.ir, true);
    expect(pretty).to.contain('\n  "meta": {');
    expect(JSON.parse(pretty)).to.deep.equal(JSON.parse(a.json));
    // A copy elsewhere (same content) gives the same IR: paths are not part of it.
    const copy = writeFlow(fs.readFileSync(file), 'order-intake.flow.md');
    const c = compileFlowFile(copy);
    expect(c.ok && c.hash).to.equal(a.hash);
  });

  it('meta: name, tenant, version 1.0, effects of nested steps sorted and unique', () => {
    const ir = compileOk(
      writeFlow(
        flow(
          '',
          step('id: a\ntype: http\nurl: https://x') +
            step('id: b\ntype: foreach\nitems: body\nsteps:\n  - { id: c, type: correlate_open, key: item, deadline: 90s }\n  - { id: d, type: oauth2_token, token_url: u, client_id: i, client_secret: s }') +
            step('id: e\ntype: switch\ncases:\n  - when: body.x\n    steps: [{ id: f, type: enqueue, flow: other }]\ndefault: [{ id: g, type: grpc, target: "h:1", proto: p, service: s, method: m }]'),
        ),
      ),
    );
    expect(ir.meta).to.deep.equal({ name: 'test-flow', tenant: 'acme', version: { major: 1, minor: 0 }, effects: ['grpc_egress', 'http_egress', 'queue', 'state'] });
    expect(Object.keys(ir)).to.deep.equal([
      'meta', 'description', 'required_scope', 'schedule', 'input', 'output', 'config', 'secrets', 'max_message_bytes', 'timeout_ms',
      'retry', 'concurrency', 'dedup', 'inbound', 'events', 'tls', 'steps', 'doc',
    ]);
  });

  it('front-matter defaults are applied', () => {
    const ir = compileOk(writeFlow(flow('', '')));
    expect(ir.timeout_ms).to.equal(30000);
    expect(ir.concurrency).to.equal(4);
    expect(ir.retry).to.deep.equal({ max_attempts: 5, backoff_ms: 500, max_backoff_ms: 60000 });
    expect(ir.dedup).to.equal(null);
    expect(ir.schedule).to.equal(null);
    expect(ir.steps).to.deep.equal([]);
    expect(ir.doc).to.equal('# Test\n');
  });

  it('dedup defaults, schedule normalised, max_message_bytes per door, secrets by name', () => {
    const ir = compileOk(
      writeFlow(flow('dedup_key: ${body.id}\nschedule: "*/5  * * * *"\nmax_message_bytes: 2048\nsecrets: [API_KEY]', step('id: a\ntype: transform\nvalue: ${secrets.API_KEY}'))),
    );
    expect(withoutAst(ir.dedup)).to.deep.equal({ key: { $expr: 'body.id' }, window_hours: 24, lease_seconds: 300, memoize_response: false, on_failure: 'retry' });
    expect(ir.schedule).to.deep.equal({ cron: '*/5 * * * *', timezone: 'UTC', body: {} });
    expect(ir.max_message_bytes).to.deep.equal({ run: 2048, enqueue: 2048, grpc: 2048, events: 2048 });
    expect(ir.secrets).to.deep.equal(['API_KEY']);
  });

  it('step defaults are applied', () => {
    const ir = compileOk(
      writeFlow(
        flow(
          '',
          step('id: a\ntype: http\nurl: https://x') +
            step('id: b\ntype: validate\nschema: { type: object }') +
            step('id: c\ntype: log\nmessage: hi') +
            step('id: d\ntype: fail') +
            step('id: e\ntype: respond'),
        ),
      ),
    );
    const [a, b, c, d, e] = ir.steps.map(withoutAst);
    expect(a).to.deep.equal({
      id: 'a', type: 'http', when: null, on_error: 'fail', timeout_ms: null, method: 'GET', url: 'https://x', headers: null, query: null,
      body: null, content_type: null, expect: [[200, 299]], tls: false, retry: null,
    });
    expect(b).to.deep.include({ value: { $expr: 'body' }, schema: { type: 'object' } });
    expect(c).to.deep.include({ level: 'info', message: 'hi' });
    expect(d).to.deep.include({ status: 500, code: 'flow_error', message: "the flow failed at step 'd'" });
    expect(e).to.deep.include({ status: 200, headers: null, body: null });
  });

  it('tls paths resolve against the flow folder only with resolvePaths', () => {
    const dir = tmpDir();
    const file = writeFlow(flow('tls_client_cert: certs/c.pem\ntls_client_key: certs/c.key', ''), 'tls.flow.md', dir);
    expect(compileOk(file).tls).to.deep.equal({ client_cert: 'certs/c.pem', client_key: 'certs/c.key', ca_cert: null });
    expect(compileOk(file, { resolvePaths: true }).tls).to.deep.equal({
      client_cert: path.join(dir, 'certs/c.pem'),
      client_key: path.join(dir, 'certs/c.key'),
      ca_cert: null,
    });
  });

  it('doc is the body without the step blocks', () => {
    const ir = compileOk(writeFlow(flow('', 'Intro text.\n\n' + step('id: a\ntype: log\nmessage: x') + 'Outro.\n\n```yaml\nnot: a step\n```\n')));
    expect(ir.doc).to.equal('# Test\n\nIntro text.\n\nOutro.\n\n```yaml\nnot: a step\n```\n');
  });

  it('the engine refuses an unknown major version, naming both', () => {
    expect(IR_VERSION).to.deep.equal({ major: 1, minor: 0 });
    expect(() => checkIrVersion({ meta: { version: { major: 1, minor: 7 } } })).to.not.throw();
    expect(() => checkIrVersion({ meta: { version: { major: 2, minor: 1 } } })).to.throw(/IR format version 2\.1 is not supported: this engine reads IR format 1\.0/);
    expect(() => checkIrVersion({})).to.throw(/no readable meta.version/);
    expect(() => checkIrVersion(null)).to.throw(/no readable meta.version/);
  });

  it('secret values never appear: only names', () => {
    const r = compileFlowFile(path.join(EXAMPLES, 'order-intake.flow.md'));
    if (!r.ok) throw new Error('must compile');
    expect(r.ir.secrets).to.deep.equal(['ERP_CLIENT_SECRET']);
    expect(r.json).to.not.match(/SVC_SECRET_/);
  });
});
