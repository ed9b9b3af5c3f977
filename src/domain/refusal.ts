/** Why the gate refused a call; logged as `access_denied` with this reason. */
export type RefusalReason =
  | 'missing_key'
  | 'malformed_authorization'
  | 'unknown_key'
  | 'revoked_key'
  | 'expired_key'
  | 'tenant_unknown'
  | 'tenant_disabled'
  | 'tenant_mismatch'
  | 'flow_unknown'
  | 'bad_path'
  | 'scope_missing'
  | 'flow_not_allowed'
  | 'rate_limited'
  | 'signature_missing'
  | 'signature_invalid'
  | 'payload_too_large';

export type RefusalCode = 'unauthorized' | 'forbidden' | 'not_found' | 'payload_too_large' | 'rate_limited';

export interface Refusal {
  readonly refused: true;
  readonly status: 401 | 403 | 404 | 413 | 429;
  readonly code: RefusalCode;
  readonly message: string;
  readonly reason: RefusalReason;
  readonly retryAfterSeconds?: number;
  /** Who and what, where known: for the structured log and the tenant's audit chain. */
  readonly keyId?: number;
  readonly tenant?: string;
  readonly flow?: string;
}

/** The one answer for an unknown flow, an unregistered tenant and a disabled tenant. */
export const NOT_FOUND_MESSAGE = 'no such flow';

export function refusal(fields: Omit<Refusal, 'refused' | 'code'>): Refusal {
  const code: RefusalCode =
    fields.status === 401 ? 'unauthorized' : fields.status === 403 ? 'forbidden' : fields.status === 404 ? 'not_found' : fields.status === 413 ? 'payload_too_large' : 'rate_limited';
  return { refused: true, code, ...fields };
}
