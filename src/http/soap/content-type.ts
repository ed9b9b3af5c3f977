/** Recognising SOAP requests by their media type, and the media type of the answer. */
import type { SoapVersion } from './names';

function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/**
 * True for `text/xml` (SOAP 1.1) and `application/soap+xml` (SOAP 1.2); also for
 * `application/xml` when a SOAPAction header came with it. JSON and everything else: false.
 */
export function isSoapRequest(contentType: string | undefined, soapAction?: string): boolean {
  const type = mediaType(contentType);
  if (type === 'text/xml' || type === 'application/soap+xml') return true;
  return type === 'application/xml' && soapAction !== undefined;
}

/** The SOAP version a request's media type announces (used for faults raised before parsing). */
export function soapVersionOf(contentType: string | undefined): SoapVersion {
  return mediaType(contentType) === 'application/soap+xml' ? '1.2' : '1.1';
}

/** The Content-Type of a SOAP answer in the given version. */
export function soapContentType(version: SoapVersion = '1.1'): string {
  return version === '1.2' ? 'application/soap+xml; charset=utf-8' : 'text/xml; charset=utf-8';
}
