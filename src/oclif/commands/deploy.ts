import { Flags } from '@oclif/core';
import { DeployFlow } from '../../commands/deploy-flow';
import { SvcCommand, dbFlag } from '../base-command';
import { flowPathArg, libsFlag } from '../flow-flags';

export default class Deploy extends SvcCommand {
  static override summary = 'Compile a flow and publish it to the registry as a new version; latest moves to it.';
  static override description =
    'Tenant and flow name come from the front matter. The tenant must be registered (svc tenant create) and enabled. A published version is fixed: deploying an existing version is refused. TLS file paths are resolved to absolute paths.';
  static override examples = ['<%= config.bin %> deploy examples/order-intake.flow.md -v 1.0.0'];
  static override args = { path: flowPathArg };
  static override flags = {
    version: Flags.string({ char: 'v', required: true, description: 'version string (fixed once published)', helpValue: '<ver>' }),
    db: dbFlag,
    libs: libsFlag,
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Deploy);
    const app = this.openApp({ registry: flags.db });
    const d = await app.commands.execute(new DeployFlow(args.path, flags.version, flags.libs));
    this.out(
      [
        `flow:    ${d.name}`,
        `tenant:  ${d.tenant}`,
        `version: ${d.version}`,
        `hash:    ${d.hash}`,
        `db:      ${app.paths.registry}`,
        `latest:  ${d.version}${d.previousLatest === null ? ' (first version)' : ` (was ${d.previousLatest})`}`,
      ].join('\n'),
    );
  }
}
