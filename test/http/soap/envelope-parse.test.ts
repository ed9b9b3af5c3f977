import { expect } from 'chai';
import { MAX_XML_DEPTH, parseSoapRequest, type SoapFlow } from '../../../src/http/soap';

const S11 = 'http://schemas.xmlsoap.org/soap/envelope/';
const S12 = 'http://www.w3.org/2003/05/soap-envelope';
const TNS = 'urn:svc:acme:orders';

function flow(input: SoapFlow['input']): SoapFlow {
  return { tenant: 'acme', name: 'orders', description: null, input, output: null };
}

function envelope(run: string, opts: { ns?: string; header?: string } = {}): string {
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<s:Envelope xmlns:s="${opts.ns ?? S11}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">` +
    (opts.header ?? '') +
    `<s:Body>${run}</s:Body></s:Envelope>`
  );
}

function run(inner: string): string {
  return `<t:Run xmlns:t="${TNS}">${inner}</t:Run>`;
}

function ok(xml: string, f: SoapFlow): unknown {
  const r = parseSoapRequest(xml, f);
  if (!r.ok) throw new Error(`expected ok, got: ${r.message}`);
  return r.body;
}

function fail(xml: string, f: SoapFlow): string {
  const r = parseSoapRequest(xml, f);
  if (r.ok) throw new Error(`expected a failure, got ${JSON.stringify(r.body)}`);
  return r.message;
}

const order = flow({
  type: 'object',
  required: ['id', 'lines'],
  properties: {
    id: { type: 'string' },
    count: { type: 'integer' },
    price: { type: 'number' },
    paid: { type: 'boolean' },
    status: { type: 'string', enum: ['open', 'closed'] },
    level: { enum: [1, 2, 3] },
    note: { type: ['string', 'null'] },
    customer: {
      type: 'object',
      properties: { name: { type: 'string' }, address: { type: 'object', properties: { city: { type: 'string' }, zip: { type: 'integer' } } } },
    },
    lines: { type: 'array', items: { type: 'object', properties: { sku: { type: 'string' }, qty: { type: 'integer' }, tags: { type: 'array', items: { type: 'string' } } } } },
    grid: { type: 'array', items: { type: 'array', items: { type: 'number' } } },
    flags: { type: 'array', items: { type: 'boolean' } },
    extra: {},
    'order id': { type: 'string' },
  },
});

describe('parseSoapRequest: conversion by the input schema', () => {
  it('converts nested objects, arrays, enums and scalars to the JSON body', () => {
    const body = ok(
      envelope(
        run(
          `<t:id>A-1</t:id><t:count> 3 </t:count><t:price>-1.5e2</t:price><t:paid>1</t:paid><t:status>open</t:status><t:level>2</t:level>` +
            `<t:customer><t:name>Ann</t:name><t:address><t:city>Oslo</t:city><t:zip>0150</t:zip></t:address></t:customer>` +
            `<t:lines><t:sku>pen</t:sku><t:qty>2</t:qty><t:tags>blue</t:tags><t:tags>cheap</t:tags></t:lines>` +
            `<t:lines><t:sku>ink</t:sku></t:lines>` +
            `<t:grid><t:item>1</t:item><t:item>2.5</t:item></t:grid><t:grid/>` +
            `<t:flags>false</t:flags><t:extra>{"any":[1,"two",null]}</t:extra><t:order_x0020_id>x</t:order_x0020_id>`,
        ),
      ),
      order,
    );
    expect(body).to.deep.equal({
      id: 'A-1',
      count: 3,
      price: -150,
      paid: true,
      status: 'open',
      level: 2,
      customer: { name: 'Ann', address: { city: 'Oslo', zip: 150 } },
      lines: [{ sku: 'pen', qty: 2, tags: ['blue', 'cheap'] }, { sku: 'ink' }],
      grid: [[1, 2.5], []],
      flags: [false],
      extra: { any: [1, 'two', null] },
      'order id': 'x',
    });
  });

  it('accepts a default namespace, unqualified children, and a Run in no namespace', () => {
    expect(ok(envelope(`<Run xmlns="${TNS}"><id>a</id><lines><sku>s</sku></lines></Run>`), order)).to.deep.equal({ id: 'a', lines: [{ sku: 's' }] });
    expect(ok(envelope(`<Run><id>a</id></Run>`), order)).to.deep.equal({ id: 'a', lines: [] });
  });

  it('gives a required array with no elements as [], and leaves optional absent fields out', () => {
    expect(ok(envelope(run('<t:id>a</t:id>')), order)).to.deep.equal({ id: 'a', lines: [] });
  });

  it('leaves a missing required scalar out (the flow input validation reports it)', () => {
    expect(ok(envelope(run('')), order)).to.deep.equal({ lines: [] });
  });

  it('keeps string text exactly: whitespace, entities, character references, CDATA', () => {
    const body = ok(envelope(run(`<t:id>  a &amp; b &lt;c&gt; &#65;&#x42; <![CDATA[<raw & "x">]]> </t:id>`)), order);
    expect(body).to.deep.equal({ id: '  a & b <c> AB <raw & "x"> ', lines: [] });
    expect(ok(envelope(run('<t:id/>')), order)).to.deep.equal({ id: '', lines: [] });
  });

  it('reads xsi:nil as null', () => {
    expect(ok(envelope(run('<t:note xsi:nil="true"/><t:count xsi:nil="1"/>')), order)).to.deep.equal({ note: null, count: null, lines: [] });
  });

  it('ignores comments and processing instructions, and a leading BOM', () => {
    expect(ok('\uFEFF' + envelope(run('<!-- hi --><t:id>a<!-- x -->b</t:id><?pi data?>')), order)).to.deep.equal({ id: 'ab', lines: [] });
  });

  it('reads a SOAP 1.2 envelope and reports the version', () => {
    const r = parseSoapRequest(envelope(run('<t:id>a</t:id>'), { ns: S12 }), order);
    expect(r).to.deep.equal({ ok: true, body: { id: 'a', lines: [] }, version: '1.2' });
    expect(parseSoapRequest(envelope(run('<t:id>a</t:id>')), order)).to.deep.include({ version: '1.1' });
  });

  it('accepts a Header without mustUnderstand entries', () => {
    const header = '<s:Header><x:Trace xmlns:x="urn:x">1</x:Trace></s:Header>';
    expect(ok(envelope(run('<t:id>a</t:id>'), { header }), order)).to.deep.equal({ id: 'a', lines: [] });
  });

  it('without an input schema, reads <value> as JSON text (absent: {}, like an empty JSON body)', () => {
    const f = flow(null);
    expect(ok(envelope(run('<t:value>{"a":[1,2],"b":"c"}</t:value>')), f)).to.deep.equal({ a: [1, 2], b: 'c' });
    expect(ok(envelope(run('<t:value>42</t:value>')), f)).to.equal(42);
    expect(ok(envelope(run('')), f)).to.deep.equal({});
    expect(ok(envelope(run('<t:value xsi:nil="true"/>')), f)).to.equal(null);
    expect(fail(envelope(run('<t:value>{oops</t:value>')), f)).to.equal('Run/value: expected JSON text (this element carries a JSON value), got "{oops"');
  });

  it('a non-object input schema arrives in <value>: an array of integers', () => {
    const f = flow({ type: 'array', items: { type: 'integer' } });
    expect(ok(envelope(run('<t:value>1</t:value><t:value>2</t:value>')), f)).to.deep.equal([1, 2]);
    expect(ok(envelope(run('')), f)).to.deep.equal([]);
    const s = flow({ type: 'string' });
    expect(ok(envelope(run('<t:value>x</t:value>')), s)).to.equal('x');
    expect(ok(envelope(run('')), s)).to.equal(null);
  });

  it('keeps a property named __proto__ an own property, without touching prototypes', () => {
    // JSON.parse makes `__proto__` an ordinary own key, as a compiled IR would hold it.
    const schema = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"object","properties":{"polluted":{"type":"boolean"}}}}}') as SoapFlow['input'];
    const body = ok(envelope(run('<t:__proto__><t:polluted>true</t:polluted></t:__proto__>')), flow(schema)) as Record<string, unknown>;
    expect(Object.prototype.hasOwnProperty.call(body, '__proto__')).to.equal(true);
    expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
    expect(Object.getPrototypeOf(body)).to.equal(Object.prototype);
  });
});

describe('parseSoapRequest: refusals with clear messages', () => {
  it('malformed XML', () => {
    expect(fail('<s:Envelope xmlns:s="x"><s:Body></s:Envelope>', order)).to.match(/^malformed XML: Expected closing tag 's:Body'.*\(line 1, column \d+\)$/);
    expect(fail('not xml at all', order)).to.match(/^malformed XML: /);
    expect(fail('', order)).to.equal('the request body is empty; expected a SOAP envelope');
    expect(fail(envelope(run('<t:id>a & b</t:id>')), order)).to.match(/^malformed XML: char '&' is not expected/);
  });

  it('a DOCTYPE with an entity bomb (billion laughs) is refused before any expansion', () => {
    const bomb =
      '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">' +
      '<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>' +
      envelope(run('<t:id>&lol3;</t:id>')).replace('<?xml version="1.0" encoding="UTF-8"?>\n', '');
    const started = Date.now();
    expect(fail(bomb, order)).to.equal('a DOCTYPE is not allowed in a SOAP message (no DTD or entity declarations are processed)');
    expect(Date.now() - started).to.be.lessThan(1000);
  });

  it('an external entity (XXE) is refused with the DOCTYPE; an undeclared entity reference is refused', () => {
    const xxe = `<!DOCTYPE x [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>` + envelope(run('<t:id>&xxe;</t:id>')).replace(/^<\?xml[^>]*>\n/, '');
    expect(fail(xxe, order)).to.contain('DOCTYPE is not allowed');
    expect(fail(envelope(run('<t:id>&xxe;</t:id>')), order)).to.contain('entity reference &xxe; is not allowed');
    expect(fail(envelope(run('<t:id>&#0;</t:id>')), order)).to.contain('not a legal XML character');
  });

  it('nesting deeper than the cap', () => {
    const deep = '<a>'.repeat(10_000) + '</a>'.repeat(10_000);
    expect(fail(envelope(run(`<t:extra>${deep}</t:extra>`)), order)).to.equal(`XML nesting is deeper than ${MAX_XML_DEPTH} elements`);
  });

  it('not a SOAP envelope', () => {
    expect(fail(`<Envelope><Body/></Envelope>`, order)).to.contain('the root element must be a SOAP Envelope');
    expect(fail(`<x:Envelope xmlns:x="urn:other"/>`, order)).to.contain('found <x:Envelope> in namespace urn:other');
    expect(fail(`<s:Body xmlns:s="${S11}"/>`, order)).to.contain('found <s:Body>');
  });

  it('a missing or empty Body', () => {
    expect(fail(`<s:Envelope xmlns:s="${S11}"><s:Header/></s:Envelope>`, order)).to.equal(`the SOAP Envelope has no Body; expected Body/Run in namespace ${TNS}`);
    expect(fail(envelope(''), order)).to.equal(`the SOAP Body is empty; expected a <Run> element in namespace ${TNS}`);
    expect(fail(envelope(run('') + run('')), order)).to.equal('the SOAP Body holds 2 elements; expected exactly one <Run>');
    expect(fail(`<s:Envelope xmlns:s="${S11}"><s:Body/><s:Body/></s:Envelope>`, order)).to.contain('unexpected <s:Body> in the Envelope');
  });

  it('a wrong operation, or Run in another namespace', () => {
    expect(fail(envelope(`<t:Cancel xmlns:t="${TNS}"/>`), order)).to.equal(`unknown operation <t:Cancel>: this flow has one operation, Run (element Run in namespace ${TNS})`);
    expect(fail(envelope(`<t:Run xmlns:t="urn:svc:acme:other"/>`), order)).to.equal(`<t:Run> is in namespace urn:svc:acme:other; this flow's namespace is ${TNS}`);
  });

  it('an element the schema does not declare, a repeated scalar, stray text', () => {
    expect(fail(envelope(run('<t:idd>a</t:idd>')), order)).to.match(/^Run: unexpected element <t:idd>; expected one of id, count, /);
    expect(fail(envelope(run('<t:id>a</t:id><t:id>b</t:id>')), order)).to.equal('Run/id: appears 2 times, but it is not an array');
    expect(fail(envelope(run('hello<t:id>a</t:id>')), order)).to.equal('Run: unexpected text "hello"; this element holds elements only');
    expect(fail(envelope(run('<t:id><b>x</b></t:id>')), order)).to.equal('Run/id: expected text, found child element <b>');
    expect(fail(envelope(run('<t:grid><t:cell>1</t:cell></t:grid>')), order)).to.contain('the items of a nested array are <item> elements');
  });

  it('text that is not of the declared type, with the element path', () => {
    expect(fail(envelope(run('<t:count>3.5</t:count>')), order)).to.equal('Run/count: expected an integer, got "3.5"');
    expect(fail(envelope(run('<t:count>99999999999999999999</t:count>')), order)).to.contain('Run/count: integer 99999999999999999999 is outside the range');
    expect(fail(envelope(run('<t:price>NaN</t:price>')), order)).to.equal('Run/price: expected a finite number, got "NaN"');
    expect(fail(envelope(run('<t:price></t:price>')), order)).to.equal('Run/price: expected a finite number, got ""');
    expect(fail(envelope(run('<t:paid>yes</t:paid>')), order)).to.equal('Run/paid: expected a boolean (true, false, 1 or 0), got "yes"');
    expect(fail(envelope(run('<t:lines><t:qty>x</t:qty></t:lines><t:lines><t:qty>two</t:qty></t:lines>')), order)).to.equal('Run/lines[0]/qty: expected an integer, got "x"');
    expect(fail(envelope(run('<t:grid><t:item>1</t:item><t:item>z</t:item></t:grid>')), order)).to.equal('Run/grid[0]/item[1]: expected a finite number, got "z"');
  });

  it('a header marked mustUnderstand', () => {
    const header = `<s:Header><w:Security xmlns:w="urn:wsse" s:mustUnderstand="1"/></s:Header>`;
    expect(fail(envelope(run('<t:id>a</t:id>'), { header }), order)).to.contain('SOAP header <w:Security> is marked mustUnderstand');
  });

  it('an undeclared namespace prefix', () => {
    expect(fail(envelope('<q:Run/>'), order)).to.equal("malformed XML: namespace prefix 'q' of q:Run is not declared");
  });
});
