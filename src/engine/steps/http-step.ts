/**
 * `http`: builds the request from its templates (URL + query, headers, body as JSON unless
 * `content_type` says otherwise), sends the pending oauth2 token, checks `expect`, and answers
 * `{status, headers, body}` with the body parsed when the upstream says it is JSON.
 */
import type { HttpStepIR } from '../../flow';
import type { EgressResponse } from '../egress/http-egress';
import { flowError, upstreamError } from '../errors';
import { then } from '../maybe-promise';
import type { Scope } from '../run-context';
import { evaluateEach, templateString, type CompiledValue, type ValueSite } from '../templates';
import { callUpstream, describeExpect, target, type UpstreamCall } from './egress-call';
import type { PrepareTools, StepExec } from './step-kit';

const ABSENT: CompiledValue = { constant: true, evaluate: () => undefined };

export interface HttpOutput {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function describeType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  return typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

export function parseUrl(u: unknown, step: string): URL {
  if (typeof u !== 'string') throw flowError(step, `step '${step}': url must be a string, got ${describeType(u)}`);
  let url: URL;
  try {
    url = new URL(u);
  } catch {
    throw flowError(step, `step '${step}': url '${u}' is not an absolute URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw flowError(step, `step '${step}': url '${u}' must use http or https, not ${url.protocol.replace(/:$/, '')}`);
  }
  return url;
}

function addQuery(url: URL, q: unknown, site: ValueSite): void {
  if (q === undefined || q === null) return;
  if (!isPlainObject(q)) throw flowError(site.step, `step '${site.step}': query must be a map, got ${describeType(q)}`);
  for (const [name, value] of Object.entries(q)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) {
      for (const item of value) if (item !== undefined && item !== null) url.searchParams.append(name, templateString(item, site));
    } else {
      url.searchParams.append(name, templateString(value, site));
    }
  }
}

/** Request headers: lower-cased names, string values; null/undefined values leave the header out. */
export function headerMap(h: unknown, step: string, field: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (h === undefined || h === null) return out;
  if (!isPlainObject(h)) throw flowError(step, `step '${step}': ${field} must be a map, got ${describeType(h)}`);
  for (const [name, value] of Object.entries(h)) {
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') {
      throw flowError(step, `step '${step}': ${field}.${name} must be a string, got ${describeType(value)}`);
    }
    const text = String(value);
    if (/[\r\n\0]/.test(text)) throw flowError(step, `step '${step}': ${field}.${name} contains a line break or NUL`);
    out[name.toLowerCase()] = text;
  }
  return out;
}

const FORM = /^application\/x-www-form-urlencoded\b/i;

function encodeBody(b: unknown, contentType: string | null, headers: Record<string, string>, site: ValueSite): string | undefined {
  if (b === undefined) return undefined;
  if (contentType === null) {
    headers['content-type'] ??= 'application/json';
    return JSON.stringify(b);
  }
  headers['content-type'] ??= contentType;
  if (typeof b === 'string') return b;
  if (FORM.test(contentType) && isPlainObject(b)) {
    const form = new URLSearchParams();
    for (const [k, v] of Object.entries(b)) if (v !== undefined && v !== null) form.append(k, templateString(v, site));
    return form.toString();
  }
  return JSON.stringify(b);
}

export function isJsonContentType(ct: string | undefined): boolean {
  if (ct === undefined) return false;
  const mime = (ct.split(';')[0] ?? '').trim().toLowerCase();
  return mime === 'application/json' || mime.endsWith('+json');
}

/** The body of an answer: parsed JSON when the upstream says JSON, else text; null when empty. */
export function readBody(res: EgressResponse, call: { step: string; method: string; url: URL }): unknown {
  if (res.body.length === 0) return null;
  const ct = res.headers['content-type'];
  const text = res.body.toString('utf8');
  if (!isJsonContentType(ct)) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw upstreamError(
      call.step,
      `step '${call.step}': ${target(call)} answered ${res.status} with content-type '${ct ?? ''}' but its body (${res.body.length} bytes) is not valid JSON`,
    );
  }
}

export function prepareHttp(ir: HttpStepIR, t: PrepareTools): StepExec {
  const step = ir.id;
  const fields = [
    t.value(ir.url, 'url'),
    ir.headers === null ? ABSENT : t.value(ir.headers, 'headers'),
    ir.query === null ? ABSENT : t.value(ir.query, 'query'),
    ir.body === null ? ABSENT : t.value(ir.body, 'body'),
  ];
  const expect = ir.expect;
  const expected = (status: number): boolean => expect.some(([lo, hi]) => status >= lo && status <= hi);
  const bodySite = t.site('body');
  const querySite = t.site('query');

  const send = async (scope: Scope, call: UpstreamCall): Promise<HttpOutput> => {
    const { response, attempts } = await callUpstream(scope, call);
    if (!expected(response.status)) {
      const tries = attempts > 1 ? ` after ${attempts} attempts` : '';
      throw upstreamError(step, `step '${step}': ${target(call)} answered ${response.status}${tries}, expected ${describeExpect(expect)}`);
    }
    return { status: response.status, headers: response.headers, body: readBody(response, call) };
  };

  return (scope) =>
    then(evaluateEach(fields, scope.root), ([u, h, q, b]) => {
      const url = parseUrl(u, step);
      addQuery(url, q, querySite);
      const headers = headerMap(h, step, 'headers');
      const body = encodeBody(b, ir.content_type, headers, bodySite);
      const token = scope.bearer.token;
      if (token !== undefined) {
        scope.bearer.token = undefined; // handed to this step only
        headers['authorization'] ??= `Bearer ${token}`;
      }
      const call: UpstreamCall = {
        step,
        method: ir.method,
        url,
        headers,
        ...(body === undefined ? {} : { body }),
        tls: ir.tls,
        retry: ir.retry,
        expected,
      };
      return send(scope, call);
    });
}
