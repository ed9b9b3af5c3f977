import { createHash } from 'node:crypto';
import type { AuditEntry } from '../../domain/audit';

/** The hash a chain starts from: the first entry's `prev_hash`. */
export const GENESIS_HASH = '0'.repeat(64);

type Canonical = null | boolean | number | string | Canonical[] | { [key: string]: Canonical };

/** JSON with object keys sorted at every depth, so the same entry always hashes the same. */
export function canonicalJson(value: Canonical): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k] as Canonical)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** `sha256(prev_hash || canonical entry)` as DESIGN.md defines the chain. */
export function entryHash(entry: Omit<AuditEntry, 'hash'>): string {
  const canonical = canonicalJson({
    tenant: entry.tenant,
    seq: entry.seq,
    event_type: entry.eventType,
    created_at: entry.createdAt,
    correlation_id: entry.correlationId,
    details: { ...entry.details },
  });
  return createHash('sha256').update(entry.prevHash).update(canonical).digest('hex');
}
