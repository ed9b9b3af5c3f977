import { inject, injectable } from 'inversify';
import { effectiveStatus, type ApiKeyRepository } from '../../domain/api-key';
import type { Clock } from '../../domain/clock';
import type { QueryHandler } from '../../domain/message';
import type { TenantRepository } from '../../domain/tenant';
import { TOKENS } from '../../infra/tokens';
import type { ApiKeyView, ListApiKeys } from '../../queries/api-key-queries';
import { requireTenant } from '../tenant/tenant-lookup';

@injectable()
export class ListApiKeysHandler implements QueryHandler<ListApiKeys> {
  constructor(
    @inject(TOKENS.TenantRepository) private readonly tenants: TenantRepository,
    @inject(TOKENS.ApiKeyRepository) private readonly keys: ApiKeyRepository,
    @inject(TOKENS.Clock) private readonly clock: Clock,
  ) {}

  async execute(query: ListApiKeys): Promise<ApiKeyView[]> {
    await requireTenant(this.tenants, query.tenant);
    const now = this.clock.now();
    const keys = await this.keys.listByTenant(query.tenant);
    return keys.map((k) => ({ ...k, effectiveStatus: effectiveStatus(k, now) }));
  }
}
