import { hash } from 'node:crypto';
import type { AuditEntry } from '../../domain/audit';

/** The hash a chain starts from: the first entry's `prev_hash`. */
export const GENESIS_HASH = '0'.repeat(64);

type Canonical = null | boolean | number | string | Canonical[] | { [key: string]: Canonical };

/** JSON with object keys sorted at every depth, so the same entry always hashes the same. */
export function canonicalJson(value: Canonical): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  let out: string;
  if (Array.isArray(value)) {
    out = '[';
    for (let i = 0; i < value.length; i++) out += (i === 0 ? '' : ',') + canonicalJson(value[i] as Canonical);
    return `${out}]`;
  }
  const keys = sortedKeys(value);
  out = '{';
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i] as string;
    out += `${i === 0 ? '' : ','}${JSON.stringify(k)}:${canonicalJson(value[k] as Canonical)}`;
  }
  return `${out}}`;
}

/**
 * Object.keys in the default sort order (UTF-16 code units), by insertion: audit details have a
 * handful of keys, and Array#sort allocates a work array on every call.
 */
function sortedKeys(value: object): string[] {
  const keys = Object.keys(value);
  for (let i = 1; i < keys.length; i++) {
    const k = keys[i] as string;
    let j = i - 1;
    while (j >= 0 && (keys[j] as string) > k) {
      keys[j + 1] = keys[j] as string;
      j--;
    }
    keys[j + 1] = k;
  }
  return keys;
}

/**
 * `sha256(prev_hash || canonical entry)` as DESIGN.md defines the chain. The canonical entry is
 * the object {tenant, seq, event_type, created_at, correlation_id, details} in canonical JSON;
 * its top-level keys are written here already in sorted order (the server appends thousands of
 * entries per second), which gives byte for byte what canonicalJson would.
 */
export function entryHash(entry: Omit<AuditEntry, 'hash'>): string {
  // prev_hash and the canonical entry are built as one string: hashing flattens it once.
  const hashed =
    `${entry.prevHash}{"correlation_id":${JSON.stringify(entry.correlationId)},"created_at":${JSON.stringify(entry.createdAt)},` +
    `"details":${canonicalJson(entry.details as Canonical)},"event_type":${JSON.stringify(entry.eventType)},` +
    `"seq":${JSON.stringify(entry.seq)},"tenant":${JSON.stringify(entry.tenant)}}`;
  return hash('sha256', hashed, 'hex');
}
