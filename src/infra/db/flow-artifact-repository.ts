import { inject, injectable } from 'inversify';
import { conflict } from '../../domain/errors';
import type { FlowArtifact, FlowArtifactRepository } from '../../domain/flow-artifact';
import { TOKENS } from '../tokens';
import type { FlowArtifactRow, FlowHeadRow, TenantRow } from './entities';
import type { RegistryDb } from './registry-db';
import { isUniqueViolation, sqliteFailure } from './sqlite-errors';

type Row = Omit<FlowArtifactRow, 'tenant'> & { tenant: TenantRow | string };
const tenantId = (t: TenantRow | string): string => (typeof t === 'string' ? t : t.id);
const toArtifact = (row: Row): FlowArtifact => ({
  tenant: tenantId(row.tenant),
  name: row.name,
  version: row.version,
  hash: row.hash,
  ir: row.ir,
  deployedAt: row.deployedAt,
});

@injectable()
export class MikroFlowArtifactRepository implements FlowArtifactRepository {
  constructor(@inject(TOKENS.RegistryDb) private readonly db: RegistryDb) {}

  async publish(artifact: FlowArtifact): Promise<void> {
    const em = await this.db.em();
    try {
      await em.transactional(async (tx) => {
        await tx.insert<FlowArtifactRow>('FlowArtifact', { ...artifact } as unknown as FlowArtifactRow);
        const head = { tenant: artifact.tenant, name: artifact.name, latestVersion: artifact.version, updatedAt: artifact.deployedAt };
        await tx.upsert<FlowHeadRow>('FlowHead', head as unknown as FlowHeadRow);
      });
    } catch (err) {
      if (isUniqueViolation(err)) {
        throw conflict(
          `version ${artifact.version} of flow ${artifact.tenant}/${artifact.name} is already deployed; a published version is fixed`,
          'deploy under a new --version',
        );
      }
      throw sqliteFailure(this.db.file, 'registry', err);
    }
  }

  async find(tenant: string, name: string, version: string): Promise<FlowArtifact | undefined> {
    return this.guard(async () => {
      const em = await this.db.em();
      const row = await em.findOne<FlowArtifactRow>('FlowArtifact', { tenant: { id: tenant }, name, version });
      return row ? toArtifact(row) : undefined;
    });
  }

  async latest(tenant: string, name: string): Promise<FlowArtifact | undefined> {
    return this.guard(async () => {
      const em = await this.db.em();
      const head = await em.findOne<FlowHeadRow>('FlowHead', { tenant: { id: tenant }, name });
      if (!head) return undefined;
      const row = await em.findOne<FlowArtifactRow>('FlowArtifact', { tenant: { id: tenant }, name, version: head.latestVersion });
      return row ? toArtifact(row) : undefined;
    });
  }

  async listLatest(): Promise<FlowArtifact[]> {
    return this.guard(async () => {
      const em = await this.db.em();
      const rows = await em
        .getConnection()
        .execute<Row[]>(
          `SELECT a.tenant_id AS tenant, a.name, a.version, a.hash, a.ir, a.deployed_at AS deployedAt
             FROM flow_heads h JOIN flow_artifacts a
               ON a.tenant_id = h.tenant_id AND a.name = h.name AND a.version = h.latest_version
            ORDER BY a.tenant_id, a.name`,
        );
      return rows.map(toArtifact);
    });
  }

  async versions(tenant: string, name: string): Promise<Array<Omit<FlowArtifact, 'ir'>>> {
    return this.guard(async () => {
      const em = await this.db.em();
      const rows = await em.find<FlowArtifactRow>('FlowArtifact', { tenant: { id: tenant }, name }, { orderBy: { id: 'asc' } });
      return rows.map((r) => ({ tenant, name, version: r.version, hash: r.hash, deployedAt: r.deployedAt }));
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
