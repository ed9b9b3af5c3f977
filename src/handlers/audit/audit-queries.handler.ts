import { inject, injectable } from 'inversify';
import type { AuditEntry, AuditLog, ChainVerdict } from '../../domain/audit';
import { usageError } from '../../domain/errors';
import type { QueryHandler } from '../../domain/message';
import { TOKENS } from '../../infra/tokens';
import type { ListAuditEntries, VerifyAuditChain } from '../../queries/audit-queries';

@injectable()
export class ListAuditEntriesHandler implements QueryHandler<ListAuditEntries> {
  constructor(@inject(TOKENS.AuditLog) private readonly audit: AuditLog) {}

  execute(query: ListAuditEntries): Promise<AuditEntry[]> {
    if (!Number.isInteger(query.limit) || query.limit < 1) throw usageError(`--limit must be a whole number of at least 1, got '${query.limit}'`);
    return this.audit.recent(query.tenant, query.limit);
  }
}

@injectable()
export class VerifyAuditChainHandler implements QueryHandler<VerifyAuditChain> {
  constructor(@inject(TOKENS.AuditLog) private readonly audit: AuditLog) {}

  execute(query: VerifyAuditChain): Promise<ChainVerdict> {
    return this.audit.verify(query.tenant);
  }
}
