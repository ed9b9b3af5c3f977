/**
 * The platform's extra expression functions. They are registered on every
 * compiled expression (fast path and jsonata fallback alike), with jsonata
 * signatures so argument checking and context substitution behave the same on
 * both paths.
 */
import { createHash, createHmac, randomUUID } from 'node:crypto';
import { exprError } from './errors';

export interface PlatformFunction {
  readonly implementation: (...args: unknown[]) => unknown;
  /** jsonata signature used for validation on both paths */
  readonly signature: string;
}

const asString = (v: unknown): string => v as string;

export const PLATFORM_FUNCTIONS: Readonly<Record<string, PlatformFunction>> = {
  uuid: {
    signature: '<:s>',
    implementation: () => randomUUID(),
  },
  sha256: {
    signature: '<s-:s>',
    implementation: (s: unknown) => (s === undefined ? undefined : createHash('sha256').update(asString(s), 'utf8').digest('hex')),
  },
  hmac_sha256: {
    signature: '<ss:s>',
    implementation: (key: unknown, s: unknown) =>
      key === undefined || s === undefined
        ? undefined
        : createHmac('sha256', asString(key)).update(asString(s), 'utf8').digest('hex'),
  },
  base64_encode: {
    signature: '<s-:s>',
    implementation: (s: unknown) => (s === undefined ? undefined : Buffer.from(asString(s), 'utf8').toString('base64')),
  },
  base64_decode: {
    signature: '<s-:s>',
    implementation: (s: unknown) => (s === undefined ? undefined : Buffer.from(asString(s), 'base64').toString('utf8')),
  },
  parse_json: {
    signature: '<s-:j>',
    implementation: (s: unknown) => {
      if (s === undefined) return undefined;
      try {
        return JSON.parse(asString(s)) as unknown;
      } catch {
        throw exprError('D3900', { value: s });
      }
    },
  },
  to_json: {
    signature: '<x-:s>',
    implementation: (v: unknown) => (v === undefined ? undefined : JSON.stringify(v)),
  },
};
