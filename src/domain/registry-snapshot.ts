import type { FlowIR } from '../flow';

export interface CachedTenant {
  readonly id: string;
  readonly status: 'active' | 'disabled';
}

export interface CachedKey {
  readonly id: number;
  readonly tenant: string;
  readonly keyHash: Buffer;
  /** null: every scope (`*`). */
  readonly scopes: ReadonlySet<string> | null;
  /** null: every flow of the tenant. */
  readonly flows: ReadonlySet<string> | null;
  /** ms since epoch from which the key no longer works; null: never. */
  readonly expiresAt: number | null;
  readonly rateLimit: number | null;
  readonly revoked: boolean;
}

/** The latest version of a deployed flow, parsed and prepared for the engine once per hash. */
export interface CachedFlow<P = unknown> {
  readonly tenant: string;
  readonly name: string;
  readonly version: string;
  readonly hash: string;
  readonly deployedAt: string;
  readonly ir: FlowIR;
  readonly prepared: P;
}

/** What the request path reads: an immutable picture of the registry at one data_version. */
export interface RegistrySnapshot<P = unknown> {
  tenant(id: string): CachedTenant | undefined;
  keyByHash(hashHex: string): CachedKey | undefined;
  flow(tenant: string, name: string): CachedFlow<P> | undefined;
  flows(): Iterable<CachedFlow<P>>;
  /** Flows whose artifact could not be parsed or prepared: `tenant/name@version: why`. */
  readonly broken: readonly string[];
}
