/**
 * The SOAP door of `/flows/{tenant}/{name}`: WSDL generation and envelope translation, as pure
 * functions. The Koa routes own HTTP (gate, body ceiling, status); see docs/soap.md.
 */
export { renderWsdl } from './wsdl';
export { isSoapRequest, soapContentType, soapVersionOf } from './content-type';
export { parseSoapRequest, type SoapParseResult } from './envelope-parse';
export { renderSoapResponse } from './envelope-render';
export { renderSoapFault } from './fault';
export { targetNamespace, soapAction, OPERATION, REQUEST_ELEMENT, RESPONSE_ELEMENT, type SoapFlow, type SoapVersion } from './names';
export { MAX_XML_DEPTH } from './xml-tree';
