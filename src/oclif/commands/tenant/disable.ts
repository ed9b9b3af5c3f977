import { Flags } from '@oclif/core';
import { DisableTenant } from '../../../commands/tenant-commands';
import { SvcCommand, dbFlag } from '../../base-command';

export default class TenantDisable extends SvcCommand {
  static override summary = 'Disable a tenant: its keys stop working at once; callers get 404. Nothing is deleted.';
  static override flags = { id: Flags.string({ required: true, description: 'tenant id' }), db: dbFlag };

  async run(): Promise<void> {
    const { flags } = await this.parse(TenantDisable);
    const app = this.openApp({ registry: flags.db });
    const { tenant, changed } = await app.commands.execute(new DisableTenant(flags.id));
    this.out(changed ? `disabled tenant ${tenant.id}` : `tenant ${tenant.id} is already disabled; nothing changed`);
  }
}
