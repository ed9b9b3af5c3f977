/** oauth2_token: client-credentials request, the token cache, and the hand-off to the next http step. */
import { expect } from 'chai';
import { compile, Harness } from './support/harness';
import { json, Upstream } from './support/upstream';

describe('engine: oauth2_token step', () => {
  let h: Harness;
  let idp: Upstream;
  let api: Upstream;
  let issued = 0;
  beforeEach(async () => {
    h = new Harness();
    issued = 0;
    idp = await Upstream.start((req, res) => {
      if (req.url === '/bad') return json(res, 401, { error: 'invalid_client', error_description: 'nope' });
      issued++;
      json(res, 200, { access_token: `tok-${issued}`, token_type: 'Bearer', expires_in: 120 });
    });
    api = await Upstream.start((_req, res) => json(res, 200, { ok: true }));
  });
  afterEach(async () => {
    await h.close();
    await idp.close();
    await api.close();
  });

  const flow = (extraHttp = ''): ReturnType<typeof compile> =>
    compile({
      fm: 'config: [IDP, API, CLIENT]\nsecrets: [CLIENT_SECRET]',
      steps: [
        `id: token
type: oauth2_token
token_url: \${config.IDP}/token
client_id: \${config.CLIENT}
client_secret: \${secrets.CLIENT_SECRET}
scope: orders.write`,
        `id: first\ntype: http\nurl: \${config.API}/first${extraHttp}`,
        `id: second\ntype: http\nurl: \${config.API}/second`,
        `id: out\ntype: transform\nvalue: { token: "\${steps.token.access_token}", type: "\${steps.token.token_type}", expires_in: "\${steps.token.expires_in}" }`,
      ],
    });
  const input = (): Parameters<Harness['run']>[1] => ({
    config: { IDP: idp.base, API: api.base, CLIENT: 'shop' },
    secrets: { CLIENT_SECRET: 'cs-very-secret' },
  });

  it('posts the client-credentials form and sends the token on the next http step only', async () => {
    const r = await h.run(flow(), input());
    expect(r.status).to.equal(200);
    expect(r.body).to.deep.equal({ token: 'tok-1', type: 'Bearer', expires_in: 120 });
    const tokenReq = idp.requests[0];
    expect(tokenReq?.method).to.equal('POST');
    expect(tokenReq?.headers['content-type']).to.equal('application/x-www-form-urlencoded');
    expect(tokenReq?.headers['x-correlation-id']).to.equal('corr-123');
    expect(Object.fromEntries(new URLSearchParams(tokenReq?.body))).to.deep.equal({
      grant_type: 'client_credentials',
      client_id: 'shop',
      client_secret: 'cs-very-secret',
      scope: 'orders.write',
    });
    expect(api.requests[0]?.headers['authorization']).to.equal('Bearer tok-1');
    expect(api.requests[1]?.headers['authorization']).to.equal(undefined);
  });

  it('reuses the cached token across runs until 30 s before expiry', async () => {
    const ir = flow();
    const prepared = h.engine.prepare(ir);
    await h.engine.run(prepared, h.input(input()));
    h.nowMs += 60_000; // 60 s left of 120
    const r2 = await h.engine.run(prepared, h.input(input()));
    expect(issued).to.equal(1);
    expect(r2.body).to.deep.include({ token: 'tok-1', expires_in: 60 });
    expect(api.requests[2]?.headers['authorization']).to.equal('Bearer tok-1');
    h.nowMs += 31_000; // 29 s left: within the margin
    const r3 = await h.engine.run(prepared, h.input(input()));
    expect(issued).to.equal(2);
    expect(r3.body).to.deep.include({ token: 'tok-2' });
    expect(api.requests[4]?.headers['authorization']).to.equal('Bearer tok-2');
  });

  it('concurrent runs share one token request', async () => {
    const prepared = h.engine.prepare(flow());
    const results = await Promise.all([1, 2, 3, 4].map(() => h.engine.run(prepared, h.input(input()))));
    expect(results.map((r) => r.status)).to.deep.equal([200, 200, 200, 200]);
    expect(issued).to.equal(1);
  });

  it('an http step that sets its own Authorization keeps it', async () => {
    const ir = compile({
      fm: 'config: [IDP, API]',
      steps: [
        `id: token\ntype: oauth2_token\ntoken_url: \${config.IDP}/token\nclient_id: c\nclient_secret: s`,
        `id: own\ntype: http\nurl: \${config.API}/own\nheaders: { Authorization: Basic abc }`,
      ],
    });
    await h.run(ir, { config: { IDP: idp.base, API: api.base } });
    expect(api.requests[0]?.headers['authorization']).to.equal('Basic abc');
  });

  it('a refusal of the token endpoint gives 502 upstream_error with its error code, no secret', async () => {
    const ir = compile({
      fm: 'config: [IDP]\nsecrets: [CS]',
      steps: [`id: token\ntype: oauth2_token\ntoken_url: \${config.IDP}/bad\nclient_id: c\nclient_secret: \${secrets.CS}`],
    });
    const r = await h.run(ir, { config: { IDP: idp.base }, secrets: { CS: 'top-secret-value' } });
    expect(r.status).to.equal(502);
    expect(r.error).to.deep.include({ code: 'upstream_error', step: 'token' });
    expect(r.error?.message).to.contain('answered 401').and.contain('invalid_client');
    expect(JSON.stringify(r)).not.to.contain('top-secret-value');
  });
});
