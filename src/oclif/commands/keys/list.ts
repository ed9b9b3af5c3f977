import { Flags } from '@oclif/core';
import { ListApiKeys } from '../../../queries/api-key-queries';
import { SvcCommand, dbFlag } from '../../base-command';
import { list, renderTable, truncate } from '../../render/table';

export default class KeysList extends SvcCommand {
  static override summary = "List a tenant's API keys (never their values).";
  static override flags = { tenant: Flags.string({ required: true, description: 'tenant id' }), db: dbFlag };

  async run(): Promise<void> {
    const { flags } = await this.parse(KeysList);
    const app = this.openApp({ registry: flags.db });
    const keys = await app.queries.execute(new ListApiKeys(flags.tenant));
    if (keys.length === 0) {
      this.out(`No API keys for tenant ${flags.tenant}.`);
      this.note(`hint: create one with: svc keys create --tenant ${flags.tenant} --label <label>`);
      return;
    }
    this.out(
      renderTable(
        ['id', 'label', 'status', 'flows', 'scopes', 'created_at'],
        keys.map((k) => [String(k.id), k.label, k.effectiveStatus, truncate(list(k.flows, '*'), 32), truncate(k.scopes.join(','), 32), k.createdAt]),
      ),
    );
  }
}
