import { inject, injectable } from 'inversify';
import type { DiscardDeadLetter, ReplayDeadLetter } from '../../commands/dlq-commands';
import type { AuditLog } from '../../domain/audit';
import type { DeadLetterEntry, DeadLetterStore } from '../../domain/dead-letter';
import type { CommandHandler, QueryHandler } from '../../domain/message';
import { TOKENS } from '../../infra/tokens';
import type { ListDeadLetters } from '../../queries/dlq-queries';

@injectable()
export class ListDeadLettersHandler implements QueryHandler<ListDeadLetters> {
  constructor(@inject(TOKENS.DeadLetterStore) private readonly store: DeadLetterStore) {}

  async execute(query: ListDeadLetters): Promise<DeadLetterEntry[]> {
    return this.store.list({ tenant: query.tenant, flow: query.flow });
  }
}

@injectable()
export class ReplayDeadLetterHandler implements CommandHandler<ReplayDeadLetter> {
  constructor(
    @inject(TOKENS.DeadLetterStore) private readonly store: DeadLetterStore,
    @inject(TOKENS.AuditLog) private readonly audit: AuditLog,
  ) {}

  async execute(command: ReplayDeadLetter): Promise<DeadLetterEntry> {
    const entry = await this.store.replay(command.tenant, command.flow, command.id);
    await this.audit.append({
      tenant: entry.tenant,
      eventType: 'queue.message.replayed',
      correlationId: entry.correlationId,
      details: { actor: 'cli', flow: entry.flow, message_id: entry.id, attempts_before: entry.attempts },
    });
    return entry;
  }
}

@injectable()
export class DiscardDeadLetterHandler implements CommandHandler<DiscardDeadLetter> {
  constructor(
    @inject(TOKENS.DeadLetterStore) private readonly store: DeadLetterStore,
    @inject(TOKENS.AuditLog) private readonly audit: AuditLog,
  ) {}

  async execute(command: DiscardDeadLetter): Promise<DeadLetterEntry> {
    const entry = await this.store.discard(command.tenant, command.flow, command.id);
    await this.audit.append({
      tenant: entry.tenant,
      eventType: 'queue.message.discarded',
      correlationId: entry.correlationId,
      details: { actor: 'cli', flow: entry.flow, message_id: entry.id },
    });
    return entry;
  }
}
