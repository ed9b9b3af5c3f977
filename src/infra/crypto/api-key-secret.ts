import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const API_KEY_PREFIX = 'svck_';

/** A new key value: `svck_` + 32 random bytes in base64url. Printed once, never stored. */
export function generateApiKeyValue(): string {
  return API_KEY_PREFIX + randomBytes(32).toString('base64url');
}

/** What the registry stores instead of the key: SHA-256, lowercase hex. */
export function hashApiKey(value: string): string {
  return apiKeyDigest(value).toString('hex');
}

export function apiKeyDigest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/** Constant-time comparison of two hex digests of equal length. */
export function sameDigest(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}
