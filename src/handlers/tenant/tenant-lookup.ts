import { notFound } from '../../domain/errors';
import type { Tenant, TenantRepository } from '../../domain/tenant';

/** The tenant, or a `not_found` error that tells the user how to register it. */
export async function requireTenant(tenants: TenantRepository, id: string): Promise<Tenant> {
  const tenant = await tenants.find(id);
  if (!tenant) throw notFound(`tenant '${id}' is not registered`, `register it with: svc tenant create --id ${id} --display-name <name>`);
  return tenant;
}
