import { Flags } from '@oclif/core';
import { EnableTenant } from '../../../commands/tenant-commands';
import { SvcCommand, dbFlag } from '../../base-command';

export default class TenantEnable extends SvcCommand {
  static override summary = 'Enable a disabled tenant: every non-revoked, unexpired key of it works again.';
  static override flags = { id: Flags.string({ required: true, description: 'tenant id' }), db: dbFlag };

  async run(): Promise<void> {
    const { flags } = await this.parse(TenantEnable);
    const app = this.openApp({ registry: flags.db });
    const { tenant, changed } = await app.commands.execute(new EnableTenant(flags.id));
    this.out(changed ? `enabled tenant ${tenant.id}` : `tenant ${tenant.id} is already active; nothing changed`);
  }
}
