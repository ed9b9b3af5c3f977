/**
 * The /run door copies the request's headers and query for a flow only when the flow can read
 * them (the engine's inputNeeds); a flow that does read them must still get them, credentials
 * removed. Bodies that arrive with the headers and bodies that trickle in are read alike.
 */
import { expect } from 'chai';
import { request as httpRequest } from 'node:http';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { keyValueFrom, svc, useTempHome } from '../support/cli';
import { startServe, type ServeProcess } from '../support/serve';

const flow = (name: string, value: string): string => `---
tenant: acme
flow: ${name}
---

\`\`\`yaml step
id: out
type: transform
value: ${value}
\`\`\`
`;

const FLOWS: Record<string, string> = {
  reads: flow('reads', `{ shop: "\${headers.'x-shop'}", auth: "\${headers.authorization}", page: "\${query.page}", body: "\${body.n}" }`),
  'reads-root': flow('reads-root', `\${$lookup($$.headers, 'x-shop') & "/" & $$.query.page}`),
  blind: flow('blind', `{ n: "\${body.n}" }`),
};

describe('svc serve: request headers and query reach the flows that read them', function () {
  this.timeout(60_000);
  const env = useTempHome();
  let server: ServeProcess;
  let key: string;

  beforeEach(async () => {
    const { home } = env;
    svc(['tenant', 'create', '--id', 'acme', '--display-name', 'Acme'], { home });
    for (const [name, text] of Object.entries(FLOWS)) {
      const file = join(home, `${name}.flow.md`);
      writeFileSync(file, text);
      const r = svc(['deploy', file, '-v', '1.0.0'], { home });
      expect(r.status, r.stderr).to.equal(0);
    }
    key = keyValueFrom(svc(['keys', 'create', '--tenant', 'acme', '--label', 'k'], { home }).stdout);
    server = await startServe(home, []);
  });

  afterEach(async () => {
    if (server.child.exitCode === null) await server.stop();
  });

  const run = async (name: string, query = ''): Promise<{ status: number; body: unknown }> => {
    const res = await fetch(`${server.url}/flows/acme/${name}/run${query}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'x-shop': 'north' },
      body: '{"n":"7"}',
    });
    return { status: res.status, body: (await res.json()) as unknown };
  };

  it('a flow naming headers and query gets them, without the caller credentials', async () => {
    const r = await run('reads', '?page=3');
    expect(r.status).to.equal(200);
    expect(r.body).to.deep.equal({ shop: 'north', page: '3', body: '7' });
  });

  it('a flow reaching them through $$ gets them too', async () => {
    const r = await run('reads-root', '?page=4');
    expect(r.status).to.equal(200);
    expect(r.body).to.equal('north/4');
  });

  it('a flow that reads neither runs the same', async () => {
    const r = await run('blind', '?page=5');
    expect(r.status).to.equal(200);
    expect(r.body).to.deep.equal({ n: '7' });
  });

  it('a body sent in pieces after the headers is read whole', async () => {
    const reply = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = httpRequest(`${server.url}/flows/acme/reads/run?page=9`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'x-shop': 'south', 'transfer-encoding': 'chunked' } }, (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (d: string) => (text += d)).on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      });
      req.on('error', reject);
      req.write('{"n":');
      setTimeout(() => req.end('"8"}'), 50);
    });
    expect(reply.status, reply.text).to.equal(200);
    expect(JSON.parse(reply.text)).to.deep.equal({ shop: 'south', page: '9', body: '8' });
  });
});
