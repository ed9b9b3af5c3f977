import type { Context } from 'koa';
import type { FlowRunResult } from '../domain/flow-runner';
import type { Refusal } from '../domain/refusal';
import type { FlowIR } from '../flow';
import { sendError } from './error-body';
import { isSoapRequest, soapContentType, soapVersionOf } from './soap/content-type';
import { renderSoapResponse } from './soap/envelope-render';
import { renderSoapFault } from './soap/fault';
import type { SoapVersion } from './soap/names';

type EnvelopeParse = typeof import('./soap/envelope-parse');
let envelopeParse: EnvelopeParse | undefined;
/** The XML parser is loaded by the first SOAP request, not by every server. */
const parseSoapRequest: EnvelopeParse['parseSoapRequest'] = (xml, flow) => (envelopeParse ??= require('./soap/envelope-parse') as EnvelopeParse).parseSoapRequest(xml, flow);

/** How a /run caller is answered: JSON, or SOAP envelopes for WSDL clients. */
export interface Answer {
  decode(raw: Buffer, contentType: string | undefined, ir: FlowIR): { ok: true; body: unknown } | { ok: false; status: 400 | 415; code: string; message: string };
  error(ctx: Context, status: number, code: string, message: string, headers?: Record<string, string>): void;
  result(ctx: Context, result: FlowRunResult, ir: FlowIR): void;
}

export function refuse(answer: Answer, ctx: Context, refusal: Refusal, bodyUnread: boolean): void {
  const headers: Record<string, string> = {};
  if (refusal.retryAfterSeconds !== undefined) headers['Retry-After'] = String(refusal.retryAfterSeconds);
  // A body we refused to read cannot be skipped on a kept-alive connection: close it.
  if (bodyUnread) headers.Connection = 'close';
  answer.error(ctx, refusal.status, refusal.code, refusal.message, headers);
}

/** What Koa's `ctx.type = 'application/json'` sets, without its MIME look-up per response. */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';
const JSON_TYPE = /^application\/([a-z0-9.+-]*\+)?json$/i;

type Decoded = ReturnType<Answer['decode']>;

/** JSON bodies: an empty body is `{}`; a non-JSON Content-Type is 415; a parse error 400. */
export function decodeJson(raw: Buffer, contentType: string | undefined): Decoded {
  return jsonAnswer.decode(raw, contentType, undefined as never);
}

export const jsonAnswer: Answer = {
  decode(raw, contentType) {
    if (raw.length === 0) return { ok: true, body: {} };
    const type = contentType === undefined || contentType === 'application/json' ? '' : (contentType.split(';')[0]?.trim() ?? '');
    if (type !== '' && !JSON_TYPE.test(type)) {
      return { ok: false, status: 415, code: 'unsupported_media_type', message: `Content-Type ${type} is not accepted here; send application/json (or a SOAP envelope as text/xml)` };
    }
    try {
      return { ok: true, body: JSON.parse(raw.toString('utf8')) as unknown };
    } catch (err) {
      return { ok: false, status: 400, code: 'invalid_input', message: `the body is not valid JSON: ${(err as Error).message}` };
    }
  },
  error: sendError,
  result(ctx, result) {
    if (result.error) return sendError(ctx, result.status, result.error.code, result.error.message, result.headers);
    ctx.status = result.status;
    const headers = result.headers;
    for (const k in headers) ctx.set(k, headers[k] as string);
    if (result.body !== undefined) {
      ctx.set('Content-Type', JSON_CONTENT_TYPE);
      ctx.body = JSON.stringify(result.body);
    }
  },
};

const soapFlow = (ir: FlowIR) => ({ tenant: ir.meta.tenant, name: ir.meta.name, description: ir.description, input: ir.input, output: ir.output });

function soapAnswer(initial: SoapVersion): Answer {
  let version = initial;
  const fault = (ctx: Context, status: number, code: string, message: string, headers: Record<string, string> = {}): void => {
    ctx.status = status;
    for (const [k, v] of Object.entries(headers)) ctx.set(k, v);
    ctx.type = soapContentType(version);
    ctx.body = renderSoapFault(status, code, message, version);
  };
  return {
    decode(raw, _contentType, ir) {
      const parsed = parseSoapRequest(raw.toString('utf8'), soapFlow(ir));
      if (!parsed.ok) return { ok: false, status: 400, code: 'invalid_input', message: parsed.message };
      version = parsed.version;
      return { ok: true, body: parsed.body };
    },
    error: fault,
    result(ctx, result, ir) {
      if (result.error) return fault(ctx, result.status, result.error.code, result.error.message);
      ctx.status = result.status;
      ctx.type = soapContentType(version);
      ctx.body = renderSoapResponse(result.body, soapFlow(ir), version);
    },
  };
}

/** SOAP envelopes (text/xml, application/soap+xml) get SOAP answers, faults included; everything else JSON. */
export function answerFor(ctx: Context): Answer {
  const contentType = ctx.req.headers['content-type'] || undefined;
  if (contentType === 'application/json') return jsonAnswer;
  return isSoapRequest(contentType, ctx.get('soapaction') || undefined) ? soapAnswer(soapVersionOf(contentType)) : jsonAnswer;
}
