import { expect } from 'chai';
import { renderWsdl, type SoapFlow } from '../../../src/http/soap';
import { xsdPattern } from '../../../src/http/soap/xsd-types';
import { child, findAll, parseTree, wellFormed, xsdElement, type Node } from './xml-helpers';

const URL = 'https://api.example.test/flows/acme/orders/run';

function flow(input: SoapFlow['input'], output: SoapFlow['output'] = null, description: string | null = null): SoapFlow {
  return { tenant: 'acme', name: 'orders', description, input, output };
}

/** The xsd:element declaring the request (`Run`) or response (`RunResponse`). */
function message(tree: Node, name: 'Run' | 'RunResponse'): Node {
  const schema = child(tree, ['wsdl:types', 'xsd:schema']);
  const el = schema.children.find((c) => c.name === 'xsd:element' && c.attrs.name === name);
  if (el === undefined) throw new Error(`no ${name}`);
  return el;
}

/** The direct child element declarations of an element with an anonymous complex type. */
function fields(el: Node): Node[] {
  return child(el, ['xsd:complexType', 'xsd:sequence']).children.filter((c) => c.name === 'xsd:element');
}

function field(el: Node, name: string): Node {
  const f = fields(el).find((c) => c.attrs.name === name);
  if (f === undefined) throw new Error(`no field ${name} in ${el.attrs.name}`);
  return f;
}

describe('renderWsdl', () => {
  const schema = {
    type: 'object',
    required: ['id', 'lines'],
    properties: {
      id: { type: 'string', description: 'Order id <external>' },
      qty: { type: 'integer', minimum: 1, maximum: 99 },
      price: { type: 'number', minimum: 0.5 },
      paid: { type: 'boolean' },
      note: { type: ['string', 'null'] },
      status: { type: 'string', enum: ['open', 'closed'] },
      level: { enum: [1, 2, 3] },
      code: { type: 'string', minLength: 2, maxLength: 8, pattern: '^[A-Z]+$' },
      loose: { type: 'string', pattern: '(?=x)y' },
      lines: { type: 'array', items: { type: 'object', required: ['sku'], properties: { sku: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } } } },
      grid: { type: 'array', items: { type: 'array', items: { type: 'integer' } } },
      address: { type: 'object', properties: { city: { type: 'string' } } },
      extra: {},
      bag: { type: 'object' },
      either: { type: ['string', 'number'] },
      'order id': { type: 'string' },
    },
  };
  const xml = renderWsdl(flow(schema, { type: 'object', properties: { total: { type: 'number' } } }, 'Books & "orders" <today>'), URL);
  const tree = parseTree(xml);

  it('is a well-formed WSDL 1.1 document in the flow namespace', () => {
    wellFormed(xml);
    expect(tree.name).to.equal('wsdl:definitions');
    expect(tree.attrs.targetNamespace).to.equal('urn:svc:acme:orders');
    expect(tree.attrs['xmlns:tns']).to.equal('urn:svc:acme:orders');
    expect(tree.attrs['xmlns:wsdl']).to.equal('http://schemas.xmlsoap.org/wsdl/');
    expect(tree.attrs['xmlns:soap']).to.equal('http://schemas.xmlsoap.org/wsdl/soap/');
    const s = child(tree, ['wsdl:types', 'xsd:schema']);
    expect(s.attrs).to.include({ targetNamespace: 'urn:svc:acme:orders', elementFormDefault: 'qualified' });
  });

  it('carries the description as wsdl:documentation, escaped', () => {
    expect(child(tree, ['wsdl:documentation']).text).to.equal('Books & "orders" <today>');
    expect(xml).to.contain('<wsdl:documentation>Books &amp; "orders" &lt;today&gt;</wsdl:documentation>');
    expect(findAll(parseTree(renderWsdl(flow(null), URL)), 'wsdl:documentation')).to.have.length(0);
  });

  it('declares one operation Run, document/literal over SOAP 1.1 HTTP, at the endpoint', () => {
    const messages = findAll(tree, 'wsdl:message');
    expect(messages.map((m) => m.attrs.name)).to.deep.equal(['RunRequest', 'RunResponse']);
    expect(child(messages[0] as Node, ['wsdl:part']).attrs).to.deep.equal({ name: 'parameters', element: 'tns:Run' });
    expect(child(messages[1] as Node, ['wsdl:part']).attrs).to.deep.equal({ name: 'parameters', element: 'tns:RunResponse' });
    const ops = findAll(child(tree, ['wsdl:portType']), 'wsdl:operation');
    expect(ops.map((o) => o.attrs.name)).to.deep.equal(['Run']);
    const binding = child(tree, ['wsdl:binding']);
    expect(binding.attrs.type).to.equal('tns:FlowPortType');
    expect(child(binding, ['soap:binding']).attrs).to.deep.equal({ style: 'document', transport: 'http://schemas.xmlsoap.org/soap/http' });
    expect(child(binding, ['wsdl:operation', 'soap:operation']).attrs.soapAction).to.equal('urn:svc:acme:orders#Run');
    expect(child(binding, ['wsdl:operation', 'wsdl:input', 'soap:body']).attrs.use).to.equal('literal');
    expect(child(binding, ['wsdl:operation', 'wsdl:output', 'soap:body']).attrs.use).to.equal('literal');
    const port = child(tree, ['wsdl:service', 'wsdl:port']);
    expect(port.attrs).to.deep.equal({ name: 'FlowPort', binding: 'tns:FlowSoapBinding' });
    expect(child(port, ['soap:address']).attrs.location).to.equal(URL);
  });

  it('escapes the endpoint address', () => {
    const out = renderWsdl(flow(null), 'http://h/run?a=1&b="2"');
    expect(parseTree(out).name).to.equal('wsdl:definitions');
    expect(out).to.contain('location="http://h/run?a=1&amp;b=&quot;2&quot;"');
  });

  it('maps an object to a sequence, with minOccurs="0" for properties not in `required`', () => {
    const run = message(tree, 'Run');
    expect(fields(run).map((f) => f.attrs.name)).to.deep.equal([
      'id', 'qty', 'price', 'paid', 'note', 'status', 'level', 'code', 'loose', 'lines', 'grid', 'address', 'extra', 'bag', 'either', 'order_x0020_id',
    ]);
    expect(field(run, 'id').attrs.minOccurs).to.equal(undefined);
    expect(field(run, 'paid').attrs.minOccurs).to.equal('0');
    const address = field(run, 'address');
    expect(field(address, 'city').attrs).to.deep.equal({ name: 'city', minOccurs: '0', type: 'xsd:string' });
  });

  it('maps string/number/integer/boolean to xsd types', () => {
    const run = message(tree, 'Run');
    expect(field(run, 'id').attrs.type).to.equal('xsd:string');
    expect(field(run, 'paid').attrs.type).to.equal('xsd:boolean');
    expect(child(field(run, 'qty'), ['xsd:simpleType', 'xsd:restriction']).attrs.base).to.equal('xsd:long');
    expect(child(field(run, 'price'), ['xsd:simpleType', 'xsd:restriction']).attrs.base).to.equal('xsd:double');
    expect(field(message(tree, 'RunResponse'), 'total').attrs).to.deep.equal({ name: 'total', minOccurs: '0', type: 'xsd:double' });
  });

  it('maps arrays to a repeated element, and an array in an array to repeated <item>s', () => {
    const run = message(tree, 'Run');
    const lines = field(run, 'lines');
    expect(lines.attrs).to.include({ minOccurs: '0', maxOccurs: 'unbounded' });
    expect(field(lines, 'sku').attrs.type).to.equal('xsd:string');
    expect(field(lines, 'tags').attrs).to.deep.equal({ name: 'tags', minOccurs: '0', maxOccurs: 'unbounded', type: 'xsd:string' });
    const grid = field(run, 'grid');
    expect(grid.attrs).to.include({ maxOccurs: 'unbounded' });
    expect(field(grid, 'item').attrs).to.deep.equal({ name: 'item', minOccurs: '0', maxOccurs: 'unbounded', type: 'xsd:long' });
  });

  it('maps enum to a restriction with enumerations (type inferred when absent)', () => {
    const run = message(tree, 'Run');
    const status = child(field(run, 'status'), ['xsd:simpleType', 'xsd:restriction']);
    expect(status.attrs.base).to.equal('xsd:string');
    expect(findAll(status, 'xsd:enumeration').map((e) => e.attrs.value)).to.deep.equal(['open', 'closed']);
    const level = child(field(run, 'level'), ['xsd:simpleType', 'xsd:restriction']);
    expect(level.attrs.base).to.equal('xsd:long');
    expect(findAll(level, 'xsd:enumeration').map((e) => e.attrs.value)).to.deep.equal(['1', '2', '3']);
  });

  it('maps minimum/maximum, minLength/maxLength and pattern to facets', () => {
    const run = message(tree, 'Run');
    const qty = child(field(run, 'qty'), ['xsd:simpleType', 'xsd:restriction']);
    expect(child(qty, ['xsd:minInclusive']).attrs.value).to.equal('1');
    expect(child(qty, ['xsd:maxInclusive']).attrs.value).to.equal('99');
    expect(child(child(field(run, 'price'), ['xsd:simpleType', 'xsd:restriction']), ['xsd:minInclusive']).attrs.value).to.equal('0.5');
    const code = child(field(run, 'code'), ['xsd:simpleType', 'xsd:restriction']);
    expect(child(code, ['xsd:minLength']).attrs.value).to.equal('2');
    expect(child(code, ['xsd:maxLength']).attrs.value).to.equal('8');
    expect(child(code, ['xsd:pattern']).attrs.value).to.equal('[A-Z]+');
  });

  it('documents a pattern XSD cannot express instead of emitting a wrong facet', () => {
    const loose = field(message(tree, 'Run'), 'loose');
    expect(loose.attrs.type).to.equal('xsd:string');
    expect(findAll(loose, 'xsd:pattern')).to.have.length(0);
    expect(child(loose, ['xsd:annotation', 'xsd:documentation']).text).to.contain('(?=x)y');
  });

  it('marks types that allow null nillable, and carries property descriptions', () => {
    const run = message(tree, 'Run');
    expect(field(run, 'note').attrs).to.deep.equal({ name: 'note', minOccurs: '0', nillable: 'true', type: 'xsd:string' });
    expect(child(field(run, 'id'), ['xsd:annotation', 'xsd:documentation']).text).to.equal('Order id <external>');
  });

  it('carries what XSD cannot type (no type, bare object, type union) as JSON text in xsd:string', () => {
    const run = message(tree, 'Run');
    for (const name of ['extra', 'bag', 'either']) {
      const f = field(run, name);
      expect(f.attrs.type, name).to.equal('xsd:string');
      expect(child(f, ['xsd:annotation', 'xsd:documentation']).text, name).to.contain('JSON text');
    }
  });

  it('without an input or output schema, Run and RunResponse hold one optional <value> of JSON text', () => {
    const t = parseTree(renderWsdl(flow(null, null), URL));
    for (const name of ['Run', 'RunResponse'] as const) {
      const value = field(message(t, name), 'value');
      expect(value.attrs).to.include({ minOccurs: '0', nillable: 'true', type: 'xsd:string' });
    }
  });

  it('a non-object schema is carried in <value>: repeated for an array', () => {
    const t = parseTree(renderWsdl(flow({ type: 'array', items: { type: 'integer' } }, { type: 'string', enum: ['a', 'b'] }), URL));
    expect(field(message(t, 'Run'), 'value').attrs).to.deep.equal({ name: 'value', minOccurs: '0', maxOccurs: 'unbounded', type: 'xsd:long' });
    const out = field(message(t, 'RunResponse'), 'value');
    expect(out.attrs.minOccurs).to.equal(undefined);
    expect(findAll(out, 'xsd:enumeration').map((e) => e.attrs.value)).to.deep.equal(['a', 'b']);
  });

  it('encodes property names XML cannot spell, reversibly', () => {
    const t = parseTree(renderWsdl(flow({ type: 'object', properties: { '1st': { type: 'string' }, 'a:b': { type: 'string' }, _x0041_: { type: 'string' }, 'ü': { type: 'string' } } }), URL));
    expect(fields(message(t, 'Run')).map((f) => f.attrs.name)).to.deep.equal(['_x0031_st', 'a_x003A_b', '_x005F_x0041_', '_x00FC_']);
    expect(xsdElement(t, 'a_x003A_b').attrs.type).to.equal('xsd:string');
  });
});

describe('xsdPattern (JSON Schema pattern -> XSD pattern)', () => {
  it('strips anchors, and pads unanchored ends with .*', () => {
    expect(xsdPattern('^[a-z]+$')).to.equal('[a-z]+');
    expect(xsdPattern('abc')).to.equal('.*abc.*');
    expect(xsdPattern('^abc')).to.equal('abc.*');
    expect(xsdPattern('\\d{3}$')).to.equal('.*\\d{3}');
  });
  it('groups a top-level alternation when neither end is anchored', () => {
    expect(xsdPattern('cat|dog')).to.equal('.*(cat|dog).*');
    expect(xsdPattern('^cat|dog$')).to.equal(null);
    expect(xsdPattern('^(cat|dog)$')).to.equal('(cat|dog)');
  });
  it('drops identity escapes XSD does not know and refuses constructs it lacks', () => {
    expect(xsdPattern('^a\\/b\\$$')).to.equal('a/b$');
    expect(xsdPattern('^[^\\]]+$')).to.equal('[^\\]]+');
    for (const p of ['(?:a)', '(?=a)', '\\bword', 'a+?', '(a)\\1', '\\u0041', 'a^b', 'a$b', '[]', '(a']) {
      expect(xsdPattern(p), p).to.equal(null);
    }
  });
});
