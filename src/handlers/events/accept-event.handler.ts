import { randomUUID } from 'node:crypto';
import { inject, injectable } from 'inversify';
import type { AcceptEvent, AcceptedEvent } from '../../commands/accept-event';
import type { CommandHandler } from '../../domain/message';
import type { ServeContext } from '../../infra/serve/serve-context';
import { TOKENS } from '../../infra/tokens';

/**
 * Connector events (DESIGN.md): delivered through the queue to every latest flow of the tenant
 * subscribed with `events:` (`type` may be `*`) that the key may call (scope and allowlist) and
 * whose `events` body ceiling the event fits. Each delivery is its own queued message.
 */
@injectable()
export class AcceptEventHandler implements CommandHandler<AcceptEvent> {
  constructor(@inject(TOKENS.ServeContext) private readonly serve: ServeContext) {}

  async execute(command: AcceptEvent): Promise<AcceptedEvent> {
    const eventId = randomUUID();
    const registry = this.serve.cache.current();
    const targets = [...registry.flows()]
      .filter((f) => f.tenant === command.tenant)
      .filter((f) => f.ir.events.some((e) => e.source === command.source && (e.type === '*' || e.type === command.type)))
      .filter((f) => command.key === null || this.serve.gate.mayCall(command.key, f))
      .filter((f) => command.bodyBytes <= (f.ir.max_message_bytes?.events ?? this.serve.settings.maxMessageBytes))
      .sort((a, b) => a.name.localeCompare(b.name));
    const event = { source: command.source, type: command.type, id: eventId };
    const delivered: string[] = [];
    for (const flow of targets) {
      const message = await this.serve.queues.enqueue(flow.tenant, flow.name, command.body, command.meta.correlationId, event);
      delivered.push(flow.name);
      this.serve.audit.push({
        tenant: flow.tenant,
        eventType: 'queue.message.enqueued',
        correlationId: command.meta.correlationId,
        at: new Date(),
        details: { flow: flow.name, message_id: message.id, door: 'event', source: command.source, type: command.type, event_id: eventId },
      });
    }
    return { event_id: eventId, delivered_to: delivered };
  }
}
