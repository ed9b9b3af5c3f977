/** The WSDL 1.1 document of a flow: SOAP 1.1, document/literal (wrapped), one operation `Run`. */
import { BINDING, NS, OPERATION, PORT, PORT_TYPE, REQUEST_ELEMENT, RESPONSE_ELEMENT, SERVICE, soapAction, targetNamespace, type SoapFlow } from './names';
import { messageShape } from './schema-shape';
import { messageElement } from './xsd-types';
import { escapeAttr, escapeText } from './xml-escape';

export function renderWsdl(flow: SoapFlow, endpointUrl: string): string {
  const tns = escapeAttr(targetNamespace(flow));
  const doc = flow.description === null || flow.description === '' ? '' : `  <wsdl:documentation>${escapeText(flow.description)}</wsdl:documentation>\n`;
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<wsdl:definitions targetNamespace="${tns}" xmlns:tns="${tns}" xmlns:wsdl="${NS.wsdl}" xmlns:soap="${NS.wsdlSoap}" xmlns:xsd="${NS.xsd}">\n` +
    doc +
    `  <wsdl:types>\n` +
    `    <xsd:schema targetNamespace="${tns}" elementFormDefault="qualified">\n` +
    messageElement(REQUEST_ELEMENT, messageShape(flow.input), '      ') +
    messageElement(RESPONSE_ELEMENT, messageShape(flow.output), '      ') +
    `    </xsd:schema>\n` +
    `  </wsdl:types>\n` +
    `  <wsdl:message name="${OPERATION}Request">\n    <wsdl:part name="parameters" element="tns:${REQUEST_ELEMENT}"/>\n  </wsdl:message>\n` +
    `  <wsdl:message name="${OPERATION}Response">\n    <wsdl:part name="parameters" element="tns:${RESPONSE_ELEMENT}"/>\n  </wsdl:message>\n` +
    `  <wsdl:portType name="${PORT_TYPE}">\n` +
    `    <wsdl:operation name="${OPERATION}">\n` +
    `      <wsdl:input message="tns:${OPERATION}Request"/>\n` +
    `      <wsdl:output message="tns:${OPERATION}Response"/>\n` +
    `    </wsdl:operation>\n` +
    `  </wsdl:portType>\n` +
    `  <wsdl:binding name="${BINDING}" type="tns:${PORT_TYPE}">\n` +
    `    <soap:binding style="document" transport="${NS.httpTransport}"/>\n` +
    `    <wsdl:operation name="${OPERATION}">\n` +
    `      <soap:operation soapAction="${escapeAttr(soapAction(flow))}" style="document"/>\n` +
    `      <wsdl:input><soap:body use="literal"/></wsdl:input>\n` +
    `      <wsdl:output><soap:body use="literal"/></wsdl:output>\n` +
    `    </wsdl:operation>\n` +
    `  </wsdl:binding>\n` +
    `  <wsdl:service name="${SERVICE}">\n` +
    `    <wsdl:port name="${PORT}" binding="tns:${BINDING}">\n` +
    `      <soap:address location="${escapeAttr(endpointUrl)}"/>\n` +
    `    </wsdl:port>\n` +
    `  </wsdl:service>\n` +
    `</wsdl:definitions>\n`
  );
}
