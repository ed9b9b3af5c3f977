/**
 * `oauth2_token`: the client-credentials grant (form POST to `token_url`). Tokens are cached per
 * flow, token URL, client (and scope/audience) until 30 s before they expire; the token is handed
 * to the next http step of the same list.
 */
import type { OAuth2TokenStepIR } from '../../flow';
import { EgressError } from '../egress/http-egress';
import { AbortReason, flowError, upstreamError } from '../errors';
import { then } from '../maybe-promise';
import type { Scope } from '../run-context';
import { evaluateEach, templateString, type CompiledValue } from '../templates';
import type { AccessToken } from '../token-cache';
import { callUpstream, target, type UpstreamCall } from './egress-call';
import { parseUrl } from './http-step';
import type { PrepareTools, StepExec } from './step-kit';

const ABSENT: CompiledValue = { constant: true, evaluate: () => undefined };

export interface TokenOutput {
  access_token: string;
  token_type: string;
  expires_in: number | null;
}

interface TokenRequest {
  url: URL;
  clientId: string;
  clientSecret: string;
  scope: string | undefined;
  audience: string | undefined;
}

function isAbort(e: unknown): boolean {
  return e instanceof AbortReason || (e instanceof EgressError && e.kind === 'aborted');
}

function safeWord(v: unknown): string | undefined {
  return typeof v === 'string' && /^[\w.\- ]{1,100}$/.test(v) ? v : undefined;
}

function expiresIn(v: unknown): number | null {
  if (typeof v === 'number' && Number.isFinite(v) && v >= 0) return v;
  if (typeof v === 'string' && /^\d+$/.test(v)) return Number(v);
  return null;
}

export function prepareOAuth2(ir: OAuth2TokenStepIR, t: PrepareTools): StepExec {
  const step = ir.id;
  const fields = [
    t.value(ir.token_url, 'token_url'),
    t.value(ir.client_id, 'client_id'),
    t.value(ir.client_secret, 'client_secret'),
    ir.scope === null ? ABSENT : t.value(ir.scope, 'scope'),
    ir.audience === null ? ABSENT : t.value(ir.audience, 'audience'),
  ];
  const site = t.site('scope');

  const requireString = (v: unknown, field: string): string => {
    if (typeof v === 'string' && v.length > 0) return v;
    throw flowError(step, `step '${step}': ${field} must be a non-empty string`);
  };

  const fetchToken = async (scope: Scope, req: TokenRequest): Promise<AccessToken> => {
    const form = new URLSearchParams({ grant_type: 'client_credentials', client_id: req.clientId, client_secret: req.clientSecret });
    if (req.scope !== undefined) form.append('scope', req.scope);
    if (req.audience !== undefined) form.append('audience', req.audience);
    const call: UpstreamCall = {
      step,
      method: 'POST',
      url: req.url,
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: form.toString(),
      tls: false,
      retry: ir.retry,
      expected: (s) => s >= 200 && s <= 299,
    };
    const { response, attempts } = await callUpstream(scope, call);
    let parsed: unknown;
    try {
      parsed = response.body.length === 0 ? undefined : (JSON.parse(response.body.toString('utf8')) as unknown);
    } catch {
      parsed = undefined;
    }
    const answer = typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
    if (response.status < 200 || response.status > 299) {
      const code = safeWord(answer['error']);
      const tries = attempts > 1 ? ` after ${attempts} attempts` : '';
      throw upstreamError(step, `step '${step}': token endpoint ${target(call)} answered ${response.status}${tries}${code === undefined ? '' : ` (${code})`}`);
    }
    if (parsed === undefined) {
      throw upstreamError(step, `step '${step}': token endpoint ${target(call)} answered ${response.status} with a body that is not JSON`);
    }
    const accessToken = answer['access_token'];
    if (typeof accessToken !== 'string' || accessToken.length === 0) {
      throw upstreamError(step, `step '${step}': token endpoint ${target(call)} answered without an access_token`);
    }
    const seconds = expiresIn(answer['expires_in']);
    return {
      accessToken,
      tokenType: safeWord(answer['token_type']) ?? 'Bearer',
      expiresAt: seconds === null ? null : scope.run.services.tokens.now() + seconds * 1000,
    };
  };

  const obtain = async (scope: Scope, req: TokenRequest): Promise<TokenOutput> => {
    const run = scope.run;
    const tokens = run.services.tokens;
    const key = [run.input.tenant, run.input.flowName, req.url.href, req.clientId, req.scope ?? '', req.audience ?? ''].join('\0');
    const signal = scope.signal();
    const { token } = await tokens.obtain(
      key,
      () => fetchToken(scope, req),
      (e) => signal.aborted || !isAbort(e),
    );
    scope.bearer.token = token.accessToken;
    return {
      access_token: token.accessToken,
      token_type: token.tokenType,
      expires_in: token.expiresAt === null ? null : Math.max(0, Math.floor((token.expiresAt - tokens.now()) / 1000)),
    };
  };

  return (scope) =>
    then(evaluateEach(fields, scope.root), ([u, id, secret, sc, aud]) =>
      obtain(scope, {
        url: parseUrl(u, step),
        clientId: requireString(id, 'client_id'),
        clientSecret: requireString(secret, 'client_secret'),
        scope: sc === undefined || sc === null ? undefined : templateString(sc, site),
        audience: aud === undefined || aud === null ? undefined : templateString(aud, site),
      }),
    );
}
