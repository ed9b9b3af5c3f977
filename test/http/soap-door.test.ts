import { expect } from 'chai';
import { join } from 'node:path';
import * as soap from 'soap';
import { keyValueFrom, REPO_ROOT, svc, useTempHome } from '../support/cli';
import { startServe, type ServeProcess } from '../support/serve';

describe('svc serve: a stock SOAP client calls a flow from its WSDL (real server)', function () {
  this.timeout(60_000);
  const env = useTempHome();
  let server: ServeProcess;
  let key: string;

  beforeEach(async () => {
    const { home } = env;
    svc(['tenant', 'create', '--id', 'acme', '--display-name', 'Acme'], { home });
    expect(svc(['deploy', join(REPO_ROOT, 'examples', 'hello.flow.md'), '-v', '1.0.0'], { home }).status).to.equal(0);
    key = keyValueFrom(svc(['keys', 'create', '--tenant', 'acme', '--label', 'soap'], { home }).stdout);
    server = await startServe(home);
  });
  afterEach(async () => {
    await server.stop();
  });

  it('runs the flow through Run and returns its output', async () => {
    const client = await soap.createClientAsync(`${server.url}/flows/acme/hello/wsdl`);
    client.addHttpHeader('Authorization', `Bearer ${key}`);
    const [result] = (await client.RunAsync({ name: 'ada', items: [{ sku: 'A', price: 2.5, qty: 2 }, { sku: 'B', price: 1, qty: 1 }] })) as [Record<string, unknown>];
    expect(JSON.stringify(result)).to.contain('Hello, Ada!');
    expect(JSON.stringify(result)).to.contain('6');
  });

  it('a caller without a key gets a SOAP Fault with HTTP 401', async () => {
    const client = await soap.createClientAsync(`${server.url}/flows/acme/hello/wsdl`);
    let fault: unknown;
    try {
      await client.RunAsync({ name: 'ada' });
    } catch (err) {
      fault = err;
    }
    const e = fault as { response?: { status?: number }; root?: unknown; message?: string };
    expect(e.response?.status).to.equal(401);
    expect(JSON.stringify(e.root)).to.contain('API key is required');
  });

  it('input that fails the flow schema is a SOAP Fault with HTTP 400', async () => {
    const client = await soap.createClientAsync(`${server.url}/flows/acme/hello/wsdl`);
    client.addHttpHeader('Authorization', `Bearer ${key}`);
    let fault: unknown;
    try {
      await client.RunAsync({ items: [] });
    } catch (err) {
      fault = err;
    }
    const e = fault as { response?: { status?: number }; root?: unknown };
    expect(e.response?.status).to.equal(400);
    expect(JSON.stringify(e.root)).to.contain('invalid_input');
  });
});
