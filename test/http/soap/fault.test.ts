import { expect } from 'chai';
import { isSoapRequest, renderSoapFault, soapContentType, soapVersionOf } from '../../../src/http/soap';
import { child, parseTree } from './xml-helpers';

describe('renderSoapFault', () => {
  it('4xx: SOAP 1.1 Fault with faultcode soap:Client, faultstring, detail code and status', () => {
    const xml = renderSoapFault(400, 'invalid_input', 'Run/qty: expected an integer, got "x" & <more>');
    const env = parseTree(xml);
    expect(env.name).to.equal('soap:Envelope');
    expect(env.attrs['xmlns:soap']).to.equal('http://schemas.xmlsoap.org/soap/envelope/');
    const fault = child(env, ['soap:Body', 'soap:Fault']);
    expect(fault.children.map((c) => c.name)).to.deep.equal(['faultcode', 'faultstring', 'detail']);
    expect(child(fault, ['faultcode']).text).to.equal('soap:Client');
    expect(child(fault, ['faultstring']).text).to.equal('Run/qty: expected an integer, got "x" & <more>');
    const error = child(fault, ['detail', 'svc:error']);
    expect(error.attrs['xmlns:svc']).to.equal('urn:svc:fault');
    expect(child(error, ['svc:code']).text).to.equal('invalid_input');
    expect(child(error, ['svc:status']).text).to.equal('400');
  });

  it('every 4xx is soap:Client, every 5xx soap:Server', () => {
    for (const status of [401, 403, 404, 409, 413, 429]) {
      expect(child(parseTree(renderSoapFault(status, 'x', 'm')), ['soap:Body', 'soap:Fault', 'faultcode']).text, String(status)).to.equal('soap:Client');
    }
    for (const status of [500, 502, 504]) {
      expect(child(parseTree(renderSoapFault(status, 'x', 'm')), ['soap:Body', 'soap:Fault', 'faultcode']).text, String(status)).to.equal('soap:Server');
    }
  });

  it('SOAP 1.2: Code/Value env:Sender or env:Receiver, Reason/Text, Detail', () => {
    const sender = parseTree(renderSoapFault(404, 'not_found', 'no such flow', '1.2'));
    expect(sender.attrs['xmlns:env']).to.equal('http://www.w3.org/2003/05/soap-envelope');
    const fault = child(sender, ['env:Body', 'env:Fault']);
    expect(child(fault, ['env:Code', 'env:Value']).text).to.equal('env:Sender');
    expect(child(fault, ['env:Reason', 'env:Text']).text).to.equal('no such flow');
    expect(child(fault, ['env:Detail', 'svc:error', 'svc:code']).text).to.equal('not_found');
    const receiver = parseTree(renderSoapFault(504, 'timeout', 't', '1.2'));
    expect(child(receiver, ['env:Body', 'env:Fault', 'env:Code', 'env:Value']).text).to.equal('env:Receiver');
  });
});

describe('isSoapRequest, soapVersionOf, soapContentType', () => {
  it('recognises SOAP 1.1 and 1.2 media types, with parameters and in any case', () => {
    expect(isSoapRequest('text/xml')).to.equal(true);
    expect(isSoapRequest('Text/XML; charset=utf-8', '"urn:x#Run"')).to.equal(true);
    expect(isSoapRequest('application/soap+xml; charset=utf-8; action="urn:x#Run"')).to.equal(true);
    expect(isSoapRequest('application/xml', '""')).to.equal(true);
  });
  it('leaves JSON and everything else to the JSON path', () => {
    expect(isSoapRequest('application/json')).to.equal(false);
    expect(isSoapRequest('application/json', 'urn:x#Run')).to.equal(false);
    expect(isSoapRequest('application/xml')).to.equal(false);
    expect(isSoapRequest(undefined)).to.equal(false);
    expect(isSoapRequest('')).to.equal(false);
    expect(isSoapRequest('text/xmlish')).to.equal(false);
  });
  it('answers in the version the request announced', () => {
    expect(soapVersionOf('text/xml; charset=utf-8')).to.equal('1.1');
    expect(soapVersionOf('application/soap+xml')).to.equal('1.2');
    expect(soapVersionOf(undefined)).to.equal('1.1');
    expect(soapContentType('1.1')).to.equal('text/xml; charset=utf-8');
    expect(soapContentType('1.2')).to.equal('application/soap+xml; charset=utf-8');
  });
});
