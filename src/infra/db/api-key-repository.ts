import { inject, injectable } from 'inversify';
import type { ApiKey, ApiKeyRepository, NewApiKey } from '../../domain/api-key';
import { TOKENS } from '../tokens';
import type { ApiKeyRow, TenantRow } from './entities';
import type { RegistryDb } from './registry-db';
import { sqliteFailure } from './sqlite-errors';

type StoredApiKeyRow = Omit<ApiKeyRow, 'tenant'> & { tenant: TenantRow | string };

const toApiKey = (row: StoredApiKeyRow): ApiKey => ({
  id: row.id,
  tenant: typeof row.tenant === 'string' ? row.tenant : row.tenant.id,
  label: row.label,
  keyHash: row.keyHash,
  scopes: [...row.scopes],
  flows: row.flows ? [...row.flows] : null,
  expiresAt: row.expiresAt,
  rateLimit: row.rateLimit,
  status: row.status === 'revoked' ? 'revoked' : 'active',
  createdAt: row.createdAt,
  revokedAt: row.revokedAt,
});

@injectable()
export class MikroApiKeyRepository implements ApiKeyRepository {
  constructor(@inject(TOKENS.RegistryDb) private readonly db: RegistryDb) {}

  async insert(key: NewApiKey): Promise<ApiKey> {
    return this.guard(async () => {
      const em = await this.db.em();
      const row = { ...key, scopes: [...key.scopes], flows: key.flows ? [...key.flows] : null, status: 'active', revokedAt: null };
      const id = await em.insert<ApiKeyRow>('ApiKey', row as unknown as ApiKeyRow);
      return toApiKey({ ...row, id: Number(id) });
    });
  }

  async find(id: number): Promise<ApiKey | undefined> {
    return this.guard(async () => {
      const em = await this.db.em();
      const row = await em.findOne<ApiKeyRow>('ApiKey', { id });
      return row ? toApiKey(row) : undefined;
    });
  }

  async listByTenant(tenant: string): Promise<ApiKey[]> {
    return this.guard(async () => {
      const em = await this.db.em();
      const rows = await em.find<ApiKeyRow>('ApiKey', { tenant: { id: tenant } }, { orderBy: { id: 'asc' } });
      return rows.map(toApiKey);
    });
  }

  async revoke(id: number, at: string): Promise<void> {
    await this.guard(async () => {
      const em = await this.db.em();
      await em.nativeUpdate<ApiKeyRow>('ApiKey', { id }, { status: 'revoked', revokedAt: at });
    });
  }

  private async guard<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      throw sqliteFailure(this.db.file, 'registry', err);
    }
  }
}
