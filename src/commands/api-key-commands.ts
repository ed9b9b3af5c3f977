import type { ApiKey } from '../domain/api-key';
import { Command, type MessageMeta } from '../domain/message';

export interface CreatedApiKey {
  readonly key: ApiKey;
  /** The key value; shown once, never stored. */
  readonly value: string;
}

export class CreateApiKey extends Command<CreatedApiKey> {
  constructor(
    readonly tenant: string,
    readonly label: string,
    readonly scopes: readonly string[],
    readonly flows: readonly string[] | null,
    /** Raw `--expires-at` text, parsed by the handler against its clock. */
    readonly expiresAt: string | null,
    readonly rateLimit: number | null,
    meta?: MessageMeta,
  ) {
    super(meta);
  }
}

export class RevokeApiKey extends Command<ApiKey> {
  constructor(readonly id: number, meta?: MessageMeta) {
    super(meta);
  }
}
