import { Flags } from '@oclif/core';
import { ReplayDeadLetter } from '../../../commands/dlq-commands';
import { SvcCommand, dbFlag } from '../../base-command';

export default class DlqReplay extends SvcCommand {
  static override summary = 'Copy a dead letter back into its queue and mark it handled.';
  static override description = 'The flow runs again from the start, with a fresh attempt counter, against the version that is latest when it is delivered. Safe while svc serve runs; a running server picks it up.';
  static override flags = {
    tenant: Flags.string({ required: true, description: 'tenant id' }),
    flow: Flags.string({ required: true, description: 'flow name' }),
    id: Flags.integer({ required: true, min: 1, description: 'message id, as printed by svc dlq list' }),
    db: dbFlag,
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(DlqReplay);
    const app = this.openApp({ registry: flags.db });
    const e = await app.commands.execute(new ReplayDeadLetter(flags.tenant, flags.flow, flags.id));
    this.out(`replayed id=${e.id} tenant=${e.tenant} flow=${e.flow}`);
  }
}
