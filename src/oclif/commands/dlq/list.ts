import { Flags } from '@oclif/core';
import { ListDeadLetters } from '../../../queries/dlq-queries';
import { SvcCommand, dbFlag } from '../../base-command';
import { renderTable, truncate } from '../../render/table';

export default class DlqList extends SvcCommand {
  static override summary = 'List pending dead letters: messages that used up every attempt.';
  static override description = 'Reads the queues/ directory beside the registry named by --db (the registry itself is not opened). Safe while svc serve runs.';
  static override flags = {
    tenant: Flags.string({ description: 'only this tenant (default all)' }),
    flow: Flags.string({ description: 'only this flow (default all)' }),
    db: dbFlag,
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(DlqList);
    const app = this.openApp({ registry: flags.db });
    const entries = await app.queries.execute(new ListDeadLetters(flags.tenant, flags.flow));
    if (entries.length === 0) {
      this.out('DLQ is empty.');
      return;
    }
    this.out(`${entries.length} pending`);
    this.out(
      renderTable(
        ['id', 'tenant', 'flow', 'enqueued_at', 'failed_at', 'attempts', 'last_error'],
        entries.map((e) => [String(e.id), e.tenant, e.flow, e.enqueuedAt, e.failedAt, String(e.attempts), truncate(e.lastError.replace(/\s+/g, ' '), 80)]),
      ),
    );
  }
}
