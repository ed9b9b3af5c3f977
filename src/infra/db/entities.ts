import { EntitySchema } from '@mikro-orm/core';

/**
 * Registry tables as MikroORM entity schemas. Rows are plain objects; timestamps are stored as
 * ISO 8601 UTC strings so every process and every tool reads the same text.
 * Adding a column or a table here is a migration: `RegistryDb` brings older files up to date
 * on open (see SCHEMA_VERSION in registry-db.ts), keeping their rows.
 */
export interface TenantRow {
  id: string;
  displayName: string;
  status: string;
  authMethods: string[];
  createdAt: string;
}

export interface ApiKeyRow {
  id: number;
  tenant: TenantRow;
  label: string;
  keyHash: string;
  scopes: string[];
  flows: string[] | null;
  expiresAt: string | null;
  rateLimit: number | null;
  status: string;
  createdAt: string;
  revokedAt: string | null;
}

export const TenantSchema = new EntitySchema<TenantRow>({
  name: 'Tenant',
  tableName: 'tenants',
  properties: {
    id: { type: 'string', primary: true },
    displayName: { type: 'string' },
    status: { type: 'string' },
    authMethods: { type: 'json' },
    createdAt: { type: 'string' },
  },
});

export const ApiKeySchema = new EntitySchema<ApiKeyRow>({
  name: 'ApiKey',
  tableName: 'api_keys',
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    tenant: { kind: 'm:1', entity: () => TenantSchema, deleteRule: 'restrict' },
    label: { type: 'string' },
    keyHash: { type: 'string', unique: true },
    scopes: { type: 'json' },
    flows: { type: 'json', nullable: true },
    expiresAt: { type: 'string', nullable: true },
    rateLimit: { type: 'double', nullable: true },
    status: { type: 'string' },
    createdAt: { type: 'string' },
    revokedAt: { type: 'string', nullable: true },
  },
});

export interface FlowArtifactRow {
  id: number;
  tenant: TenantRow;
  name: string;
  version: string;
  hash: string;
  ir: string;
  deployedAt: string;
}

/** The `latest` pointer of one flow: one row per (tenant, name), moved by each deploy. */
export interface FlowHeadRow {
  tenant: TenantRow;
  name: string;
  latestVersion: string;
  updatedAt: string;
}

export const FlowArtifactSchema = new EntitySchema<FlowArtifactRow>({
  name: 'FlowArtifact',
  tableName: 'flow_artifacts',
  uniques: [{ properties: ['tenant', 'name', 'version'] }],
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    tenant: { kind: 'm:1', entity: () => TenantSchema, deleteRule: 'restrict' },
    name: { type: 'string' },
    version: { type: 'string' },
    hash: { type: 'string' },
    ir: { type: 'text' },
    deployedAt: { type: 'string' },
  },
});

export const FlowHeadSchema = new EntitySchema<FlowHeadRow>({
  name: 'FlowHead',
  tableName: 'flow_heads',
  properties: {
    tenant: { kind: 'm:1', entity: () => TenantSchema, primary: true, deleteRule: 'restrict' },
    name: { type: 'string', primary: true },
    latestVersion: { type: 'string' },
    updatedAt: { type: 'string' },
  },
});

export const REGISTRY_ENTITIES = [TenantSchema, ApiKeySchema, FlowArtifactSchema, FlowHeadSchema];
