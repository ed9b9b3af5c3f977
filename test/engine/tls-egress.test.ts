/** http steps with `tls: true` use the flow's client certificate, key and CA (mutual TLS). */
import { expect } from 'chai';
import * as fs from 'node:fs';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { haveOpenssl, makeCerts, type TestCerts } from './support/certs';
import { compile, Harness, tmpDir } from './support/harness';

describe('engine: TLS client material', function () {
  let certs: TestCerts;
  let server: https.Server;
  let base: string;
  let h: Harness;

  before(async function () {
    if (!haveOpenssl()) this.skip();
    certs = makeCerts(tmpDir());
    server = https.createServer(
      {
        key: fs.readFileSync(certs.serverKey),
        cert: fs.readFileSync(certs.serverCert),
        ca: fs.readFileSync(certs.caCert),
        requestCert: true,
        rejectUnauthorized: true,
      },
      (req, res) => {
        const peer = (req.socket as TLSSocket).getPeerCertificate();
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ client: peer.subject?.CN ?? null }));
      },
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    if (server === undefined) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  beforeEach(() => {
    h = new Harness();
  });
  afterEach(() => h.close());

  const flow = (c: TestCerts): ReturnType<typeof compile> =>
    compile({
      fm: `config: [API]\ntls_client_cert: ${c.clientCert}\ntls_client_key: ${c.clientKey}\ntls_ca_cert: ${c.caCert}`,
      steps: [`id: mtls\ntype: http\nurl: \${config.API}/who\ntls: true`],
    });

  it('presents the client certificate and trusts the flow CA', async () => {
    const r = await h.run(flow(certs), { config: { API: base } });
    expect(r.status).to.equal(200);
    expect(r.body).to.deep.include({ status: 200, body: { client: 'acme-client' } });
  });

  it('reads the files once per prepared flow', async () => {
    const dir = tmpDir();
    const copy: TestCerts = { ...certs, dir, clientCert: `${dir}/c.pem`, clientKey: `${dir}/c.key`, caCert: `${dir}/ca.pem` };
    fs.copyFileSync(certs.clientCert, copy.clientCert);
    fs.copyFileSync(certs.clientKey, copy.clientKey);
    fs.copyFileSync(certs.caCert, copy.caCert);
    const prepared = h.engine.prepare(flow(copy));
    expect((await h.engine.run(prepared, h.input({ config: { API: base } }))).status).to.equal(200);
    fs.rmSync(dir, { recursive: true });
    expect((await h.engine.run(prepared, h.input({ config: { API: base } }))).status).to.equal(200);
    // a fresh preparation reads again, and names the missing file
    const again = await h.engine.run(h.engine.prepare(flow(copy)), h.input({ config: { API: base } }));
    expect(again.status).to.equal(500);
    expect(again.error?.message).to.contain("step 'mtls'").and.contain('c.pem');
  });

  it('without tls: true the same server refuses the handshake: 502', async () => {
    const ir = compile({ fm: 'config: [API]', steps: [`id: plain\ntype: http\nurl: \${config.API}/who`] });
    const r = await h.run(ir, { config: { API: base } });
    expect(r.status).to.equal(502);
    expect(r.error?.code).to.equal('upstream_error');
  });
});
