/**
 * SOAP Faults for every error the door answers. The HTTP error body's `code` and the status go
 * into the detail, so a SOAP caller sees the same error vocabulary as a JSON caller.
 */
import { NS, type SoapVersion } from './names';
import { escapeText } from './xml-escape';

export function renderSoapFault(status: number, code: string, message: string, version: SoapVersion = '1.1'): string {
  const server = status >= 500;
  const detail = `<svc:error xmlns:svc="${NS.fault}"><svc:code>${escapeText(code)}</svc:code><svc:status>${Math.trunc(status)}</svc:status></svc:error>`;
  if (version === '1.2') {
    return (
      `<?xml version="1.0" encoding="UTF-8"?>\n` +
      `<env:Envelope xmlns:env="${NS.soap12}"><env:Body><env:Fault>` +
      `<env:Code><env:Value>${server ? 'env:Receiver' : 'env:Sender'}</env:Value></env:Code>` +
      `<env:Reason><env:Text xml:lang="en">${escapeText(message)}</env:Text></env:Reason>` +
      `<env:Detail>${detail}</env:Detail>` +
      `</env:Fault></env:Body></env:Envelope>\n`
    );
  }
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<soap:Envelope xmlns:soap="${NS.soap11}"><soap:Body><soap:Fault>` +
    `<faultcode>${server ? 'soap:Server' : 'soap:Client'}</faultcode>` +
    `<faultstring>${escapeText(message)}</faultstring>` +
    `<detail>${detail}</detail>` +
    `</soap:Fault></soap:Body></soap:Envelope>\n`
  );
}
