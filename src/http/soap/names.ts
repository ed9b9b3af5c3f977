/** Names shared by the WSDL and the envelopes: one place, so they cannot drift apart. */
import type { JsonSchemaIR } from '../../flow/ir';

/** What the SOAP door needs to know about a flow (a subset of the compiled IR). */
export interface SoapFlow {
  tenant: string;
  name: string;
  description: string | null;
  input: JsonSchemaIR | null;
  output: JsonSchemaIR | null;
}

export type SoapVersion = '1.1' | '1.2';

export const NS = {
  wsdl: 'http://schemas.xmlsoap.org/wsdl/',
  wsdlSoap: 'http://schemas.xmlsoap.org/wsdl/soap/',
  xsd: 'http://www.w3.org/2001/XMLSchema',
  xsi: 'http://www.w3.org/2001/XMLSchema-instance',
  soap11: 'http://schemas.xmlsoap.org/soap/envelope/',
  soap12: 'http://www.w3.org/2003/05/soap-envelope',
  httpTransport: 'http://schemas.xmlsoap.org/soap/http',
  /** Namespace of the elements inside a Fault's detail. */
  fault: 'urn:svc:fault',
} as const;

export const OPERATION = 'Run';
export const REQUEST_ELEMENT = 'Run';
export const RESPONSE_ELEMENT = 'RunResponse';
export const SERVICE = 'FlowService';
export const PORT = 'FlowPort';
export const PORT_TYPE = 'FlowPortType';
export const BINDING = 'FlowSoapBinding';

/** `urn:svc:<tenant>:<name>`: the flow's target namespace in the WSDL and the envelopes. */
export function targetNamespace(flow: Pick<SoapFlow, 'tenant' | 'name'>): string {
  return `urn:svc:${urnPart(flow.tenant)}:${urnPart(flow.name)}`;
}

/** The SOAPAction the WSDL advertises (the door accepts any SOAPAction, or none). */
export function soapAction(flow: Pick<SoapFlow, 'tenant' | 'name'>): string {
  return `${targetNamespace(flow)}#${OPERATION}`;
}

/** Tenant ids and flow names are `[a-z0-9][a-z0-9-]*`; anything else is percent-encoded. */
function urnPart(s: string): string {
  return s.replace(/[^A-Za-z0-9._-]/g, (c) =>
    Array.from(Buffer.from(c, 'utf8'))
      .map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`)
      .join(''),
  );
}
