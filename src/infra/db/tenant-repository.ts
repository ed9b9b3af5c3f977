import { inject, injectable } from 'inversify';
import { conflict } from '../../domain/errors';
import type { Tenant, TenantRepository, TenantStatus } from '../../domain/tenant';
import { TOKENS } from '../tokens';
import type { TenantRow } from './entities';
import type { RegistryDb } from './registry-db';
import { isUniqueViolation, sqliteFailure } from './sqlite-errors';

const toTenant = (row: TenantRow): Tenant => ({
  id: row.id,
  displayName: row.displayName,
  status: row.status === 'disabled' ? 'disabled' : 'active',
  authMethods: [...row.authMethods],
  createdAt: row.createdAt,
});

@injectable()
export class MikroTenantRepository implements TenantRepository {
  constructor(@inject(TOKENS.RegistryDb) private readonly db: RegistryDb) {}

  async find(id: string): Promise<Tenant | undefined> {
    const em = await this.db.em();
    const row = await this.guard(() => em.findOne<TenantRow>('Tenant', { id }));
    return row ? toTenant(row) : undefined;
  }

  async list(): Promise<Tenant[]> {
    const em = await this.db.em();
    const rows = await this.guard(() => em.find<TenantRow>('Tenant', {}, { orderBy: { id: 'asc' } }));
    return rows.map(toTenant);
  }

  async insert(tenant: Tenant): Promise<void> {
    const em = await this.db.em();
    try {
      await em.insert<TenantRow>('Tenant', { ...tenant, authMethods: [...tenant.authMethods] });
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict(`tenant '${tenant.id}' already exists`, 'see svc tenant list');
      throw sqliteFailure(this.db.file, 'registry', err);
    }
  }

  async setStatus(id: string, status: TenantStatus): Promise<void> {
    const em = await this.db.em();
    await this.guard(() => em.nativeUpdate<TenantRow>('Tenant', { id }, { status }));
  }

  private async guard<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      throw sqliteFailure(this.db.file, 'registry', err);
    }
  }
}
