/**
 * The proof: a stock SOAP client (the `soap` npm package) reads the generated WSDL from a tiny
 * Koa server and calls the flow through it. The server here stands in for the real `/run`
 * route: isSoapRequest -> parseSoapRequest -> input validation -> the flow -> envelope or Fault.
 */
import { expect } from 'chai';
import type { AddressInfo } from 'node:net';
import { request as httpRequest, type Server } from 'node:http';
import Koa from 'koa';
import Ajv from 'ajv';
import * as soap from 'soap';
import { isSoapRequest, parseSoapRequest, renderSoapFault, renderSoapResponse, renderWsdl, soapContentType, soapVersionOf, type SoapFlow } from '../../../src/http/soap';

const flow: SoapFlow = {
  tenant: 'acme',
  name: 'echo',
  description: 'Totals an order & counts its lines.',
  input: {
    type: 'object',
    required: ['order_id', 'items'],
    properties: {
      order_id: { type: 'string', minLength: 1 },
      channel: { type: 'string', enum: ['web', 'phone'] },
      rush: { type: 'boolean' },
      items: {
        type: 'array',
        items: {
          type: 'object',
          required: ['sku', 'price', 'qty'],
          properties: { sku: { type: 'string' }, price: { type: 'number', minimum: 0 }, qty: { type: 'integer', minimum: 1 } },
        },
      },
    },
  },
  output: {
    type: 'object',
    required: ['order_id', 'total', 'lines'],
    properties: {
      order_id: { type: 'string' },
      total: { type: 'number' },
      lines: { type: 'integer' },
      rush: { type: 'boolean' },
      skus: { type: 'array', items: { type: 'string' } },
      channel: { type: 'string', enum: ['web', 'phone'] },
    },
  },
};

interface Item {
  sku: string;
  price: number;
  qty: number;
}
interface Order {
  order_id: string;
  channel?: string;
  rush?: boolean;
  items: Item[];
}

/** The fake flow: a failure for one magic order id, totals otherwise. */
function runFlow(order: Order): unknown {
  if (order.order_id === 'EXPLODE') throw new Error('upstream ledger refused the order');
  return {
    order_id: order.order_id,
    total: order.items.reduce((sum, i) => sum + i.price * i.qty, 0),
    lines: order.items.length,
    rush: order.rush ?? false,
    skus: order.items.map((i) => i.sku),
    ...(order.channel === undefined ? {} : { channel: order.channel }),
  };
}

const ajv = new Ajv({ allErrors: true });
const validateInput = ajv.compile<Order>(flow.input as object);

function startServer(): Promise<Server> {
  const app = new Koa();
  app.use(async (ctx) => {
    if (ctx.method === 'GET' && ctx.path === '/flows/acme/echo/wsdl') {
      ctx.type = 'text/xml; charset=utf-8';
      ctx.body = renderWsdl(flow, `${ctx.protocol}://${ctx.get('host')}/flows/acme/echo/run`);
      return;
    }
    if (ctx.method !== 'POST' || ctx.path !== '/flows/acme/echo/run') {
      ctx.status = 404;
      return;
    }
    const contentType = ctx.get('content-type');
    const soapActionHeader = ctx.get('soapaction');
    if (!isSoapRequest(contentType, soapActionHeader === '' ? undefined : soapActionHeader)) {
      ctx.status = 415;
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of ctx.req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const fault = (status: number, code: string, message: string, version = soapVersionOf(contentType)): void => {
      ctx.status = status;
      ctx.type = soapContentType(version);
      ctx.body = renderSoapFault(status, code, message, version);
    };
    const parsed = parseSoapRequest(raw, flow);
    if (!parsed.ok) return fault(400, 'invalid_input', parsed.message);
    if (!validateInput(parsed.body)) {
      const first = validateInput.errors?.[0];
      return fault(400, 'invalid_input', `input ${first?.instancePath || '/'} ${first?.message ?? 'is invalid'}`, parsed.version);
    }
    let result: unknown;
    try {
      result = runFlow(parsed.body);
    } catch (e) {
      return fault(500, 'flow_error', e instanceof Error ? e.message : 'flow failed', parsed.version);
    }
    ctx.type = soapContentType(parsed.version);
    ctx.body = renderSoapResponse(result, flow, parsed.version);
  });
  return new Promise((resolve) => {
    const server = app.listen(0, '127.0.0.1', () => resolve(server));
  });
}

/** The typed view of the client's generated method. */
interface RunClient {
  RunAsync(args: object): Promise<[unknown, string, unknown, string]>;
}

interface SoapClientError extends Error {
  response?: { status?: number };
  root?: { Envelope?: { Body?: { Fault?: { faultcode?: string; faultstring?: string; detail?: { error?: { code?: string; status?: string } } } } } };
}

async function rejection(p: Promise<unknown>): Promise<SoapClientError> {
  try {
    await p;
  } catch (e) {
    return e as SoapClientError;
  }
  throw new Error('expected the call to fail');
}

describe('SOAP door with a stock client (soap npm package)', () => {
  let server: Server;
  let base: string;

  before(async () => {
    server = await startServer();
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  async function client(options: soap.IOptions = {}): Promise<RunClient & soap.Client> {
    return (await soap.createClientAsync(`${base}/flows/acme/echo/wsdl`, options)) as RunClient & soap.Client;
  }

  it('reads the WSDL: one service, one port, one operation Run, endpoint from the Host header', async () => {
    const c = await client();
    const described = c.describe() as Record<string, Record<string, Record<string, unknown>>>;
    expect(Object.keys(described)).to.deep.equal(['FlowService']);
    expect(Object.keys(described.FlowService ?? {})).to.deep.equal(['FlowPort']);
    expect(Object.keys(described.FlowService?.FlowPort ?? {})).to.deep.equal(['Run']);
    const wsdl = c.wsdl as unknown as { services: Record<string, { ports: Record<string, { location: string }> }> };
    expect(wsdl.services.FlowService?.ports.FlowPort?.location).to.equal(`${base}/flows/acme/echo/run`);
  });

  it('calls Run and gets typed results: numbers are numbers, booleans booleans, arrays arrays', async () => {
    const c = await client();
    const [result] = await c.RunAsync({
      order_id: 'A-100',
      channel: 'phone',
      rush: true,
      items: [
        { sku: 'pen', price: 1.25, qty: 4 },
        { sku: 'ink', price: 7.5, qty: 1 },
      ],
    });
    expect(result).to.deep.equal({ order_id: 'A-100', total: 12.5, lines: 2, rush: true, skus: ['pen', 'ink'], channel: 'phone' });
    const r = result as { total: unknown; lines: unknown; rush: unknown; skus: unknown };
    expect(r.total).to.be.a('number');
    expect(r.lines).to.be.a('number');
    expect(r.rush).to.be.a('boolean');
    expect(r.skus).to.be.an('array');
  });

  it('keeps a one-element array an array', async () => {
    const c = await client();
    const [result] = await c.RunAsync({ order_id: 'A-1', items: [{ sku: 'pen', price: 2, qty: 3 }] });
    expect(result).to.deep.include({ total: 6, lines: 1, skus: ['pen'] });
  });

  it('turns a flow failure into a soap:Server Fault carrying the faultstring, code and status', async () => {
    const c = await client();
    const err = await rejection(c.RunAsync({ order_id: 'EXPLODE', items: [{ sku: 'x', price: 1, qty: 1 }] }));
    expect(err.message).to.contain('upstream ledger refused the order');
    expect(err.response?.status).to.equal(500);
    const fault = err.root?.Envelope?.Body?.Fault;
    expect(fault?.faultcode).to.equal('soap:Server');
    expect(fault?.faultstring).to.equal('upstream ledger refused the order');
    expect(fault?.detail?.error).to.deep.equal({ code: 'flow_error', status: '500' });
  });

  it('answers a missing required field with a soap:Client Fault (input schema violation)', async () => {
    const c = await client();
    const err = await rejection(c.RunAsync({ items: [{ sku: 'x', price: 1, qty: 1 }] }));
    expect(err.response?.status).to.equal(400);
    const fault = err.root?.Envelope?.Body?.Fault;
    expect(fault?.faultcode).to.equal('soap:Client');
    expect(fault?.faultstring).to.contain("must have required property 'order_id'");
    expect(fault?.detail?.error).to.deep.equal({ code: 'invalid_input', status: '400' });
  });

  it('answers a schema violation inside an array item with a Fault', async () => {
    const c = await client();
    const err = await rejection(c.RunAsync({ order_id: 'A', items: [{ sku: 'x', price: 1, qty: 0 }] }));
    expect(err.root?.Envelope?.Body?.Fault?.faultstring).to.contain('/items/0/qty');
  });

  it('answers text that is not of the declared type with a Fault naming the element', async () => {
    const c = await client();
    const err = await rejection(c.RunAsync({ order_id: 'A', items: [{ sku: 'x', price: 'cheap', qty: 1 }] }));
    expect(err.root?.Envelope?.Body?.Fault?.faultstring).to.equal('Run/items[0]/price: expected a finite number, got "cheap"');
  });

  it('speaks SOAP 1.2 when the client does (application/soap+xml)', async () => {
    const c = await client({ forceSoap12Headers: true });
    const [result] = await c.RunAsync({ order_id: 'B-2', items: [{ sku: 'pad', price: 3, qty: 2 }] });
    expect(result).to.deep.include({ order_id: 'B-2', total: 6, lines: 1 });
    expect(String(c.lastResponse)).to.contain('http://www.w3.org/2003/05/soap-envelope');
  });

  it('builds the WSDL address from the Host header the caller sent', async () => {
    const wsdl = await new Promise<string>((resolve, reject) => {
      const req = httpRequest(`${base}/flows/acme/echo/wsdl`, { headers: { host: 'soap.example.test:8443' } }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve(body));
      });
      req.on('error', reject);
      req.end();
    });
    expect(wsdl).to.contain('<soap:address location="http://soap.example.test:8443/flows/acme/echo/run"/>');
  });
});
