import type { AuditEntry, ChainVerdict } from '../domain/audit';
import { Query, type MessageMeta } from '../domain/message';

export class ListAuditEntries extends Query<AuditEntry[]> {
  constructor(readonly tenant: string, readonly limit: number, meta?: MessageMeta) {
    super(meta);
  }
}

export class VerifyAuditChain extends Query<ChainVerdict> {
  constructor(readonly tenant: string, meta?: MessageMeta) {
    super(meta);
  }
}
