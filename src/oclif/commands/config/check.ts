import { CheckConfig } from '../../../queries/config-check';
import { SvcCommand, dbFlag } from '../../base-command';
import { renderTable } from '../../render/table';

export default class ConfigCheck extends SvcCommand {
  static override summary = 'Check that every config and secret variable of the deployed flows is set (values are never printed).';
  static override description =
    'For the latest version of each deployed flow, prints each config key with its variable SVC_CONFIG_<KEY> (and each secret with SVC_SECRET_<KEY>) and the verdict set, "set, empty" or MISSING. Exits 1 when a variable is missing, when a stored flow cannot be read, or when the registry cannot be read. An empty value counts as set.';
  static override flags = { db: dbFlag };

  async run(): Promise<void> {
    const { flags } = await this.parse(ConfigCheck);
    const app = this.openApp({ registry: flags.db });
    const report = await app.queries.execute(new CheckConfig());
    if (report.flows === 0) {
      this.out(`No flows deployed in ${app.paths.registry}.`);
      return;
    }
    if (report.rows.length > 0) {
      this.out(renderTable(['tenant', 'flow', 'version', 'key', 'variable', 'verdict'], report.rows.map((r) => [r.tenant, r.flow, r.version, r.key, r.variable, r.verdict])));
    } else {
      this.out(`${report.flows} deployed flow${report.flows === 1 ? '' : 's'}, none declares config or secrets.`);
    }
    for (const u of report.unreadable) this.note(`error: cannot read deployed flow ${u}`);
    const missing = report.rows.filter((r) => r.verdict === 'MISSING');
    if (report.stateKey === 'MISSING') this.note('note: SVC_SECRET_SVC_STATE_KEY is not set; svc serve refuses to start without it');
    if (missing.length > 0) {
      this.note(`error: ${missing.length} variable${missing.length === 1 ? ' is' : 's are'} missing: ${[...new Set(missing.map((m) => m.variable))].join(', ')}`);
      this.note('hint: export each one (an empty value counts as set) or put it in .env in the working directory');
    }
    if (missing.length > 0 || report.unreadable.length > 0) this.fail(1);
  }
}
