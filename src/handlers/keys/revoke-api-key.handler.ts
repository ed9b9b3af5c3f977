import { inject, injectable } from 'inversify';
import type { RevokeApiKey } from '../../commands/api-key-commands';
import type { ApiKey, ApiKeyRepository } from '../../domain/api-key';
import type { AuditLog } from '../../domain/audit';
import type { Clock } from '../../domain/clock';
import { notFound, refused } from '../../domain/errors';
import type { CommandHandler } from '../../domain/message';
import { TOKENS } from '../../infra/tokens';

@injectable()
export class RevokeApiKeyHandler implements CommandHandler<RevokeApiKey> {
  constructor(
    @inject(TOKENS.ApiKeyRepository) private readonly keys: ApiKeyRepository,
    @inject(TOKENS.AuditLog) private readonly audit: AuditLog,
    @inject(TOKENS.Clock) private readonly clock: Clock,
  ) {}

  async execute(command: RevokeApiKey): Promise<ApiKey> {
    const key = await this.keys.find(command.id);
    if (!key) throw notFound(`API key ${command.id} does not exist`, 'see svc keys list --tenant <tenant>');
    if (key.status === 'revoked') throw refused(`API key ${command.id} is already revoked (since ${key.revokedAt ?? 'an earlier revoke'})`);
    const at = this.clock.now().toISOString();
    await this.keys.revoke(key.id, at);
    await this.audit.append({
      tenant: key.tenant,
      eventType: 'key.revoked',
      correlationId: command.meta.correlationId,
      details: { actor: 'cli', key_id: key.id, label: key.label },
    });
    return { ...key, status: 'revoked', revokedAt: at };
  }
}
