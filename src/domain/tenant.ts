export type TenantStatus = 'active' | 'disabled';

export interface Tenant {
  readonly id: string;
  readonly displayName: string;
  readonly status: TenantStatus;
  readonly authMethods: readonly string[];
  readonly createdAt: string;
}

/** Tenant ids appear in route paths: lower-case letters, digits and dashes. */
export const TENANT_ID_PATTERN = /^[a-z0-9][a-z0-9-]{0,62}$/;

/** The only authentication method the platform can perform. */
export const SUPPORTED_AUTH_METHODS: readonly string[] = ['api_key'];

export interface TenantRepository {
  find(id: string): Promise<Tenant | undefined>;
  list(): Promise<Tenant[]>;
  /** Inserts; throws a `conflict` SvcError when the id exists. */
  insert(tenant: Tenant): Promise<void>;
  setStatus(id: string, status: TenantStatus): Promise<void>;
}
