import { inject, injectable } from 'inversify';
import type { CreateApiKey, CreatedApiKey } from '../../commands/api-key-commands';
import type { ApiKeyRepository } from '../../domain/api-key';
import type { AuditLog } from '../../domain/audit';
import { isoSeconds, type Clock } from '../../domain/clock';
import { usageError } from '../../domain/errors';
import { parseExpiry } from '../../domain/expiry';
import type { CommandHandler } from '../../domain/message';
import type { TenantRepository } from '../../domain/tenant';
import { generateApiKeyValue, hashApiKey } from '../../infra/crypto/api-key-secret';
import { TOKENS } from '../../infra/tokens';
import { requireTenant } from '../tenant/tenant-lookup';

const FLOW_NAME = /^[a-z0-9][a-z0-9-]{0,62}$/;
const SCOPE = /^[^\s,]+$/;

@injectable()
export class CreateApiKeyHandler implements CommandHandler<CreateApiKey> {
  constructor(
    @inject(TOKENS.TenantRepository) private readonly tenants: TenantRepository,
    @inject(TOKENS.ApiKeyRepository) private readonly keys: ApiKeyRepository,
    @inject(TOKENS.AuditLog) private readonly audit: AuditLog,
    @inject(TOKENS.Clock) private readonly clock: Clock,
  ) {}

  async execute(command: CreateApiKey): Promise<CreatedApiKey> {
    const now = this.clock.now();
    const label = command.label.trim();
    if (label.length === 0) throw usageError('--label must not be empty');
    if (command.scopes.length === 0) throw usageError('--scopes must name at least one scope', "use '*' for every scope");
    const badScope = command.scopes.find((s) => !SCOPE.test(s));
    if (badScope !== undefined) throw usageError(`scope '${badScope}' is not valid`, 'scopes are comma-separated words without spaces, e.g. orders:write,orders:read');
    if (command.flows !== null) {
      if (command.flows.length === 0) throw usageError('--flows must name at least one flow', 'leave --flows out to allow every flow of the tenant');
      const badFlow = command.flows.find((f) => !FLOW_NAME.test(f));
      if (badFlow !== undefined) throw usageError(`flow name '${badFlow}' in --flows is not valid`, 'flow names are lower-case letters, digits and dashes');
    }
    if (command.rateLimit !== null && !(Number.isFinite(command.rateLimit) && command.rateLimit > 0)) {
      throw usageError(`--rate-limit must be a positive number of requests per second, got '${command.rateLimit}'`);
    }
    const expiresAt = command.expiresAt === null ? null : parseExpiry(command.expiresAt, now).toISOString();
    await requireTenant(this.tenants, command.tenant);

    const value = generateApiKeyValue();
    const key = await this.keys.insert({
      tenant: command.tenant,
      label,
      keyHash: hashApiKey(value),
      scopes: [...new Set(command.scopes)],
      flows: command.flows === null ? null : [...new Set(command.flows)],
      expiresAt,
      rateLimit: command.rateLimit,
      createdAt: isoSeconds(now),
    });
    await this.audit.append({
      tenant: key.tenant,
      eventType: 'key.created',
      correlationId: command.meta.correlationId,
      details: { actor: 'cli', key_id: key.id, label: key.label },
    });
    return { key, value };
  }
}
