export type StoredKeyStatus = 'active' | 'revoked';
export type ApiKeyStatus = StoredKeyStatus | 'expired';

export interface ApiKey {
  readonly id: number;
  readonly tenant: string;
  readonly label: string;
  /** SHA-256 (hex) of the key value; the value itself is never stored. */
  readonly keyHash: string;
  readonly scopes: readonly string[];
  /** Flow allowlist; `null` means every flow of the tenant. */
  readonly flows: readonly string[] | null;
  /** Instant (ISO 8601 UTC) from which the key no longer works; `null` for never. */
  readonly expiresAt: string | null;
  /** Sustained requests per second; `null` for unlimited. Burst capacity is twice this. */
  readonly rateLimit: number | null;
  readonly status: StoredKeyStatus;
  readonly createdAt: string;
  readonly revokedAt: string | null;
}

export type NewApiKey = Omit<ApiKey, 'id' | 'revokedAt' | 'status'>;

/** The status a caller sees: a stored `active` key past its expiry is `expired`. */
export function effectiveStatus(key: Pick<ApiKey, 'status' | 'expiresAt'>, now: Date): ApiKeyStatus {
  if (key.status === 'revoked') return 'revoked';
  if (key.expiresAt !== null && now.getTime() >= Date.parse(key.expiresAt)) return 'expired';
  return 'active';
}

export interface ApiKeyRepository {
  insert(key: NewApiKey): Promise<ApiKey>;
  find(id: number): Promise<ApiKey | undefined>;
  listByTenant(tenant: string): Promise<ApiKey[]>;
  revoke(id: number, at: string): Promise<void>;
}
