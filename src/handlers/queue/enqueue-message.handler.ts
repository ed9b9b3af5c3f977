import { inject, injectable } from 'inversify';
import type { EnqueueMessage, EnqueueResult } from '../../commands/queue-commands';
import type { CommandHandler } from '../../domain/message';
import type { ServeContext } from '../../infra/serve/serve-context';
import { TOKENS } from '../../infra/tokens';

/**
 * The /enqueue door: the body must pass the flow's `input` schema (400 at once, nothing queued);
 * the answer is given only once the message is durably on disk (QueueUnavailableError -> 503).
 */
@injectable()
export class EnqueueMessageHandler implements CommandHandler<EnqueueMessage> {
  constructor(@inject(TOKENS.ServeContext) private readonly serve: ServeContext) {}

  async execute(command: EnqueueMessage): Promise<EnqueueResult> {
    const { flow } = command.admission;
    const invalid = this.serve.runner.checkInput(flow.prepared, command.body);
    if (invalid) return { ok: false, status: 400, code: 'invalid_input', message: invalid };
    const correlationId = command.meta.correlationId;
    const message = await this.serve.queues.enqueue(flow.tenant, flow.name, command.body, correlationId, null);
    this.serve.audit.push({
      tenant: flow.tenant,
      eventType: 'queue.message.enqueued',
      correlationId,
      at: new Date(),
      details: { flow: flow.name, message_id: message.id, door: 'enqueue', key_id: command.admission.key?.id ?? null },
    });
    return { ok: true, message_id: String(message.id), correlation_id: correlationId };
  }
}
