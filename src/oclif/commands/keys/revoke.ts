import { Flags } from '@oclif/core';
import { RevokeApiKey } from '../../../commands/api-key-commands';
import { SvcCommand, dbFlag } from '../../base-command';

export default class KeysRevoke extends SvcCommand {
  static override summary = 'Revoke an API key; a running server refuses it from the next request on.';
  static override description = 'Exits 1 when the key does not exist or is already revoked.';
  static override flags = { id: Flags.integer({ required: true, min: 1, description: 'key id, as printed by keys create / keys list' }), db: dbFlag };

  async run(): Promise<void> {
    const { flags } = await this.parse(KeysRevoke);
    const app = this.openApp({ registry: flags.db });
    const key = await app.commands.execute(new RevokeApiKey(flags.id));
    this.out(`revoked key ${key.id} (${key.label}) of tenant ${key.tenant}`);
  }
}
