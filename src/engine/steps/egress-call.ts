/**
 * One outbound HTTP call of a step (http, oauth2_token): X-Correlation-ID, TLS material,
 * retries on connection errors, 429 and 5xx (not when the status is expected) with exponential
 * backoff, and the mapping of egress errors to step failures.
 */
import type { StepRetryIR } from '../../flow';
import { sleep } from '../cancellation';
import { EgressError, type EgressResponse } from '../egress/http-egress';
import { flowError, upstreamError } from '../errors';
import type { Scope } from '../run-context';

export interface UpstreamCall {
  readonly step: string;
  readonly method: string;
  readonly url: URL;
  readonly headers: Record<string, string>;
  readonly body?: string;
  readonly tls: boolean;
  readonly retry: StepRetryIR | null;
  /** Whether a status is a success for this call (retries skip expected statuses). */
  readonly expected: (status: number) => boolean;
}

const MAX_BACKOFF_MS = 60_000;

/** `METHOD origin/path`: how messages name a call (no query string: it may carry data). */
export function target(call: { method: string; url: URL }): string {
  return `${call.method} ${call.url.origin}${call.url.pathname}`;
}

function retryAfterMs(res: EgressResponse): number {
  const v = res.headers['retry-after'];
  if (v === undefined || !/^\d+$/.test(v.trim())) return 0;
  return Math.min(Number(v.trim()) * 1000, MAX_BACKOFF_MS);
}

export interface UpstreamAnswer {
  readonly response: EgressResponse;
  /** How many tries it took (1 without retries). */
  readonly attempts: number;
}

export async function callUpstream(scope: Scope, call: UpstreamCall): Promise<UpstreamAnswer> {
  const run = scope.run;
  const tls = call.tls ? run.flow.tls : undefined;
  if (call.tls && tls === null) {
    throw flowError(call.step, `step '${call.step}' uses tls: true but the flow declares no TLS client material (tls_client_cert, tls_client_key)`);
  }
  const headers = { ...call.headers, 'x-correlation-id': run.input.correlationId };
  const signal = scope.signal();
  const attempts = call.retry === null ? 1 : Math.max(1, call.retry.attempts);
  const backoff = call.retry === null ? 0 : call.retry.backoff_ms;
  for (let attempt = 1; ; attempt++) {
    let outcome: EgressResponse | EgressError;
    try {
      outcome = await run.services.ports.http.request({
        method: call.method,
        url: call.url.href,
        headers,
        ...(call.body === undefined ? {} : { body: call.body }),
        ...(tls === undefined || tls === null ? {} : { tls }),
        signal,
      });
    } catch (e) {
      if (signal.aborted) throw signal.reason;
      if (!(e instanceof EgressError)) throw e;
      if (e.kind === 'tls_material' || e.kind === 'invalid_request') {
        throw flowError(call.step, `step '${call.step}': ${target(call)} could not be sent: ${e.message}`);
      }
      outcome = e;
    }
    const retryable =
      outcome instanceof EgressError
        ? outcome.kind === 'connection'
        : (outcome.status === 429 || outcome.status >= 500) && !call.expected(outcome.status);
    if (!retryable || attempt >= attempts) {
      if (outcome instanceof EgressError) {
        const tries = attempt > 1 ? ` (after ${attempt} attempts)` : '';
        throw upstreamError(call.step, `step '${call.step}': ${target(call)} failed: ${outcome.message}${tries}`);
      }
      return { response: outcome, attempts: attempt };
    }
    const delay = Math.min(backoff * 2 ** (attempt - 1), MAX_BACKOFF_MS);
    const wait = outcome instanceof EgressError ? delay : Math.max(delay, retryAfterMs(outcome));
    const why = outcome instanceof EgressError ? outcome.message : `status ${outcome.status}`;
    run.log('debug', `step '${call.step}': ${target(call)} attempt ${attempt} of ${attempts} failed (${why}); retrying in ${wait} ms`, { step: call.step });
    await sleep(wait, signal);
  }
}

/** `200-299`, `201`, ... for messages. */
export function describeExpect(expect: ReadonlyArray<readonly [number, number]>): string {
  return expect.map(([lo, hi]) => (lo === hi ? String(lo) : `${lo}-${hi}`)).join(', ');
}
