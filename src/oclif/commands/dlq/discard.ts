import { Flags } from '@oclif/core';
import { DiscardDeadLetter } from '../../../commands/dlq-commands';
import { SvcCommand, dbFlag } from '../../base-command';

export default class DlqDiscard extends SvcCommand {
  static override summary = 'Mark a dead letter handled without re-enqueuing it.';
  static override description = 'It disappears from svc dlq list at once; its body leaves the disk at the flow\'s next queue drain, when the dead-letter log is rewritten without handled rows. No command restores it.';
  static override flags = {
    tenant: Flags.string({ required: true, description: 'tenant id' }),
    flow: Flags.string({ required: true, description: 'flow name' }),
    id: Flags.integer({ required: true, min: 1, description: 'message id, as printed by svc dlq list' }),
    db: dbFlag,
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(DlqDiscard);
    const app = this.openApp({ registry: flags.db });
    const e = await app.commands.execute(new DiscardDeadLetter(flags.tenant, flags.flow, flags.id));
    this.out(`discarded id=${e.id} tenant=${e.tenant} flow=${e.flow}`);
    this.out('note: the message body leaves the disk at the flow\'s next queue drain, when the dead-letter log is rewritten without handled rows');
  }
}
