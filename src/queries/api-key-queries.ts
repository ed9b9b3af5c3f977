import type { ApiKey, ApiKeyStatus } from '../domain/api-key';
import { Query, type MessageMeta } from '../domain/message';

export interface ApiKeyView extends ApiKey {
  readonly effectiveStatus: ApiKeyStatus;
}

export class ListApiKeys extends Query<ApiKeyView[]> {
  constructor(readonly tenant: string, meta?: MessageMeta) {
    super(meta);
  }
}
