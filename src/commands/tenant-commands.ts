import { Command, type MessageMeta } from '../domain/message';
import type { Tenant } from '../domain/tenant';

export class CreateTenant extends Command<Tenant> {
  constructor(
    readonly id: string,
    readonly displayName: string,
    readonly authMethods: readonly string[],
    meta?: MessageMeta,
  ) {
    super(meta);
  }
}

export interface TenantStatusChange {
  readonly tenant: Tenant;
  /** false when the tenant already had the asked-for status (nothing recorded). */
  readonly changed: boolean;
}

export class DisableTenant extends Command<TenantStatusChange> {
  constructor(readonly id: string, meta?: MessageMeta) {
    super(meta);
  }
}

export class EnableTenant extends Command<TenantStatusChange> {
  constructor(readonly id: string, meta?: MessageMeta) {
    super(meta);
  }
}
