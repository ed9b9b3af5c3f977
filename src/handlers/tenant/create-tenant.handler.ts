import { inject, injectable } from 'inversify';
import type { CreateTenant } from '../../commands/tenant-commands';
import { isoSeconds, type Clock } from '../../domain/clock';
import { refused, usageError } from '../../domain/errors';
import type { CommandHandler } from '../../domain/message';
import { SUPPORTED_AUTH_METHODS, TENANT_ID_PATTERN, type Tenant, type TenantRepository } from '../../domain/tenant';
import { TOKENS } from '../../infra/tokens';

@injectable()
export class CreateTenantHandler implements CommandHandler<CreateTenant> {
  constructor(
    @inject(TOKENS.TenantRepository) private readonly tenants: TenantRepository,
    @inject(TOKENS.Clock) private readonly clock: Clock,
  ) {}

  async execute(command: CreateTenant): Promise<Tenant> {
    if (!TENANT_ID_PATTERN.test(command.id)) {
      throw usageError(`tenant id '${command.id}' is not valid`, 'use 1 to 63 lower-case letters, digits and dashes, starting with a letter or digit (it appears in URLs)');
    }
    const displayName = command.displayName.trim();
    if (displayName.length === 0) throw usageError('--display-name must not be empty');
    const methods = command.authMethods.map((m) => m.trim()).filter((m) => m.length > 0);
    if (methods.length === 0) throw usageError('--auth-methods must name at least one method', `supported: ${SUPPORTED_AUTH_METHODS.join(', ')}`);
    const unsupported = methods.filter((m) => !SUPPORTED_AUTH_METHODS.includes(m));
    if (unsupported.length > 0) {
      throw refused(
        `auth method${unsupported.length > 1 ? 's' : ''} ${unsupported.map((m) => `'${m}'`).join(', ')} cannot be performed by svc; only api_key is supported`,
        'identity-provider tokens are validated by the reverse proxy, which forwards the request with an svc API key',
      );
    }
    if (new Set(methods).size !== methods.length) throw usageError('--auth-methods lists a method twice');
    const tenant: Tenant = { id: command.id, displayName, status: 'active', authMethods: methods, createdAt: isoSeconds(this.clock.now()) };
    await this.tenants.insert(tenant);
    return tenant;
  }
}
