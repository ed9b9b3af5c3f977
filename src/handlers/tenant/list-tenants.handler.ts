import { inject, injectable } from 'inversify';
import type { QueryHandler } from '../../domain/message';
import type { Tenant, TenantRepository } from '../../domain/tenant';
import { TOKENS } from '../../infra/tokens';
import type { ListTenants } from '../../queries/tenant-queries';

@injectable()
export class ListTenantsHandler implements QueryHandler<ListTenants> {
  constructor(@inject(TOKENS.TenantRepository) private readonly tenants: TenantRepository) {}

  execute(): Promise<Tenant[]> {
    return this.tenants.list();
  }
}
