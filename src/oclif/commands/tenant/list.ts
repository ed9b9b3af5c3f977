import { ListTenants } from '../../../queries/tenant-queries';
import { SvcCommand, dbFlag } from '../../base-command';
import { renderTable } from '../../render/table';

export default class TenantList extends SvcCommand {
  static override summary = 'List registered tenants.';
  static override flags = { db: dbFlag };

  async run(): Promise<void> {
    const { flags } = await this.parse(TenantList);
    const app = this.openApp({ registry: flags.db });
    const tenants = await app.queries.execute(new ListTenants());
    if (tenants.length === 0) {
      this.out('No tenants registered.');
      this.note('hint: register one with: svc tenant create --id <id> --display-name <name>');
      return;
    }
    this.out(
      renderTable(
        ['id', 'display name', 'status', 'auth methods', 'created_at'],
        tenants.map((t) => [t.id, t.displayName, t.status, t.authMethods.join(','), t.createdAt]),
      ),
    );
  }
}
