import { expect } from 'chai';
import { parseSoapRequest, renderSoapResponse, renderWsdl, type SoapFlow } from '../../../src/http/soap';
import { child, findAll, parseTree, wellFormed, type Node } from './xml-helpers';

const TNS = 'urn:svc:acme:orders';

function flow(output: SoapFlow['output'], input: SoapFlow['input'] = null): SoapFlow {
  return { tenant: 'acme', name: 'orders', description: null, input, output };
}

function responseElement(xml: string): Node {
  const tree = parseTree(xml);
  expect(tree.name).to.equal('soap:Envelope');
  const r = child(tree, ['soap:Body', 'RunResponse']);
  expect(r.attrs.xmlns).to.equal(TNS);
  return r;
}

const output = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    total: { type: 'number' },
    count: { type: 'integer' },
    ok: { type: 'boolean' },
    status: { type: 'string', enum: ['open', 'closed'] },
    note: { type: ['string', 'null'] },
    customer: { type: 'object', properties: { name: { type: 'string' }, address: { type: 'object', properties: { city: { type: 'string' } } } } },
    lines: { type: 'array', items: { type: 'object', properties: { sku: { type: 'string' }, qty: { type: 'integer' } } } },
    grid: { type: 'array', items: { type: 'array', items: { type: 'integer' } } },
    raw: {},
    'line count': { type: 'integer' },
  },
};

describe('renderSoapResponse', () => {
  it('renders RunResponse in the flow namespace, elements in schema order, typed lexical forms', () => {
    const xml = renderSoapResponse(
      {
        lines: [{ sku: 'pen', qty: 2 }, { sku: 'ink', qty: 1 }],
        id: 'A<1>&"2"',
        total: 12.5,
        count: 3,
        ok: false,
        status: 'open',
        note: null,
        customer: { name: 'Ann', address: { city: 'Oslo' } },
        grid: [[1, 2], []],
        raw: { any: ['thing', 1] },
        'line count': 2,
        undeclared: 'dropped',
      },
      flow(output),
    );
    wellFormed(xml);
    expect(xml).to.contain(
      `<RunResponse xmlns="${TNS}"><id>A&lt;1&gt;&amp;"2"</id><total>12.5</total><count>3</count><ok>false</ok><status>open</status>` +
        `<note xsi:nil="true"/><customer><name>Ann</name><address><city>Oslo</city></address></customer>` +
        `<lines><sku>pen</sku><qty>2</qty></lines><lines><sku>ink</sku><qty>1</qty></lines>` +
        `<grid><item>1</item><item>2</item></grid><grid/><raw>{"any":["thing",1]}</raw><line_x0020_count>2</line_x0020_count></RunResponse>`,
    );
    expect(xml).not.to.contain('undeclared');
    const tree = parseTree(xml);
    expect(tree.attrs['xmlns:soap']).to.equal('http://schemas.xmlsoap.org/soap/envelope/');
    expect(tree.attrs['xmlns:xsi']).to.equal('http://www.w3.org/2001/XMLSchema-instance');
  });

  it('leaves out absent and undefined fields, and a null array', () => {
    const r = responseElement(renderSoapResponse({ id: 'x', total: undefined, lines: null }, flow(output)));
    expect(r.children.map((c) => c.name)).to.deep.equal(['id']);
  });

  it('writes integers without exponent and -0 as 0', () => {
    const xml = renderSoapResponse({ count: 1e21, total: -0 }, flow(output));
    expect(xml).to.contain('<total>0</total><count>1000000000000000000000</count>');
  });

  it('renders a value that does not match the output schema best effort, still well-formed', () => {
    const xml = renderSoapResponse({ total: 'n/a', customer: 'nobody', count: { x: 1 } }, flow(output));
    wellFormed(xml);
    expect(xml).to.contain('<total>n/a</total><count>{"x":1}</count><customer>nobody</customer>');
  });

  it('wraps a non-object output in <value>: repeated for arrays, JSON text without a schema', () => {
    expect(renderSoapResponse([1, 2], flow({ type: 'array', items: { type: 'integer' } }))).to.contain(`<RunResponse xmlns="${TNS}"><value>1</value><value>2</value></RunResponse>`);
    expect(renderSoapResponse({ a: [1, { b: null }] }, flow(null))).to.contain('<value>{"a":[1,{"b":null}]}</value>');
    expect(renderSoapResponse('s', flow(null))).to.contain('<value>"s"</value>');
    expect(renderSoapResponse(null, flow(null))).to.contain('<value xsi:nil="true"/>');
    expect(renderSoapResponse(undefined, flow(null))).to.contain(`<RunResponse xmlns="${TNS}"></RunResponse>`);
  });

  it('an object output schema with a non-object result gives an empty RunResponse', () => {
    expect(renderSoapResponse('oops', flow(output))).to.contain(`<RunResponse xmlns="${TNS}"></RunResponse>`);
  });

  it('uses the SOAP 1.2 envelope namespace when asked', () => {
    const xml = renderSoapResponse({ id: 'a' }, flow(output), '1.2');
    expect(parseTree(xml).attrs['xmlns:soap']).to.equal('http://www.w3.org/2003/05/soap-envelope');
  });

  it('replaces characters XML cannot carry', () => {
    const xml = renderSoapResponse({ id: 'a\u0001b\uD800c' }, flow(output));
    wellFormed(xml);
    expect(xml).to.contain('<id>a\uFFFDb\uFFFDc</id>');
  });

  it('only uses element names the WSDL declares for RunResponse', () => {
    const wsdl = parseTree(renderWsdl(flow(output), 'http://h/run'));
    const declared = new Set(findAll(child(wsdl, ['wsdl:types', 'xsd:schema']), 'xsd:element').map((e) => e.attrs.name));
    const r = responseElement(
      renderSoapResponse({ id: 'a', customer: { name: 'n', address: { city: 'c' } }, lines: [{ sku: 's', qty: 1 }], grid: [[1]], 'line count': 1 }, flow(output)),
    );
    const used = new Set<string>();
    const walk = (n: Node): void => n.children.forEach((c) => (used.add(c.name), walk(c)));
    walk(r);
    for (const name of used) expect(declared.has(name), name).to.equal(true);
  });
});

describe('envelope round trip: what the response renders, the request parser reads back', () => {
  const values: Array<[string, SoapFlow['output'], unknown]> = [
    ['object with everything', output, { id: ' a & b ', total: -1.25e-7, count: 42, ok: true, status: 'closed', note: null, customer: { name: 'Ö', address: { city: '<x>' } }, lines: [{ sku: 's', qty: 1 }], grid: [[1, 2], [], [3]], raw: [1, 'x', { y: null }], 'line count': 7 }],
    ['array of strings', { type: 'array', items: { type: 'string' } }, ['a', '', ' b ']],
    ['no schema', null, { deep: { list: [true, false, 1.5] } }],
    ['integer', { type: 'integer' }, -9007199254740991],
  ];
  for (const [label, schema, value] of values) {
    it(label, () => {
      const response = renderSoapResponse(value, flow(schema));
      const request = response.replace(/<RunResponse /, '<Run ').replace('</RunResponse>', '</Run>');
      const parsed = parseSoapRequest(request, flow(null, schema));
      expect(parsed).to.deep.equal({ ok: true, body: value, version: '1.1' });
    });
  }
});
