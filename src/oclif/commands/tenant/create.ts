import { Flags } from '@oclif/core';
import { CreateTenant } from '../../../commands/tenant-commands';
import { SvcCommand, dbFlag } from '../../base-command';
import { splitList } from '../../parse-list';

export default class TenantCreate extends SvcCommand {
  static override summary = 'Register a tenant.';
  static override description = 'A tenant must be registered before flows can be deployed or API keys created for it. Only the api_key auth method can be performed; any other is refused.';
  static override examples = ['<%= config.bin %> tenant create --id acme --display-name "Acme Corp"'];
  static override flags = {
    id: Flags.string({ required: true, description: 'tenant id (lower-case letters, digits, dashes; appears in URLs)' }),
    'display-name': Flags.string({ required: true, description: 'human-readable name' }),
    'auth-methods': Flags.string({ default: 'api_key', description: 'ordered, comma-separated auth methods (only api_key is supported)' }),
    db: dbFlag,
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(TenantCreate);
    const app = this.openApp({ registry: flags.db });
    const tenant = await app.commands.execute(new CreateTenant(flags.id, flags['display-name'], splitList(flags['auth-methods'])));
    this.out(`created tenant ${tenant.id} (${tenant.displayName}), status ${tenant.status}, auth methods ${tenant.authMethods.join(',')}`);
  }
}
