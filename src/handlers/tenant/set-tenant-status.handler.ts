import { inject, injectable } from 'inversify';
import type { DisableTenant, EnableTenant, TenantStatusChange } from '../../commands/tenant-commands';
import type { AuditLog } from '../../domain/audit';
import type { CommandHandler } from '../../domain/message';
import type { TenantRepository, TenantStatus } from '../../domain/tenant';
import { TOKENS } from '../../infra/tokens';
import { requireTenant } from './tenant-lookup';

/** Moves a tenant between active and disabled; records the move on the tenant's audit chain. */
abstract class SetTenantStatusHandler {
  protected abstract readonly target: TenantStatus;
  protected abstract readonly event: string;

  constructor(
    private readonly tenants: TenantRepository,
    private readonly audit: AuditLog,
  ) {}

  async execute(command: DisableTenant | EnableTenant): Promise<TenantStatusChange> {
    const tenant = await requireTenant(this.tenants, command.id);
    if (tenant.status === this.target) return { tenant, changed: false };
    await this.tenants.setStatus(tenant.id, this.target);
    await this.audit.append({
      tenant: tenant.id,
      eventType: this.event,
      correlationId: command.meta.correlationId,
      details: { actor: 'cli', from: tenant.status, to: this.target },
    });
    return { tenant: { ...tenant, status: this.target }, changed: true };
  }
}

@injectable()
export class DisableTenantHandler extends SetTenantStatusHandler implements CommandHandler<DisableTenant> {
  protected readonly target = 'disabled';
  protected readonly event = 'tenant.disabled';
  constructor(@inject(TOKENS.TenantRepository) tenants: TenantRepository, @inject(TOKENS.AuditLog) audit: AuditLog) {
    super(tenants, audit);
  }
}

@injectable()
export class EnableTenantHandler extends SetTenantStatusHandler implements CommandHandler<EnableTenant> {
  protected readonly target = 'active';
  protected readonly event = 'tenant.enabled';
  constructor(@inject(TOKENS.TenantRepository) tenants: TenantRepository, @inject(TOKENS.AuditLog) audit: AuditLog) {
    super(tenants, audit);
  }
}
