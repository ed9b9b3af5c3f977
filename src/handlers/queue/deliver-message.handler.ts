import { inject, injectable } from 'inversify';
import type { DeliverMessage } from '../../commands/queue-commands';
import type { CommandHandler } from '../../domain/message';
import { backoffMs, type DeliveryOutcome } from '../../domain/queue';
import type { ServeContext } from '../../infra/serve/serve-context';
import { TOKENS } from '../../infra/tokens';
import { executeFlow } from '../execution/execute-flow';

/** How long a disabled tenant's messages wait before the next look. */
export const HOLD_MS = 5_000;

/**
 * Delivery rules of the queue door: at-least-once, against the flow's latest version at
 * delivery time; a run that ends in an error (or a 5xx) is retried with exponential backoff and
 * jitter per the flow's `retry:` key, and dead-lettered after `max_attempts` attempts; messages
 * of a disabled tenant wait, uncounted, until it is enabled.
 */
@injectable()
export class DeliverMessageHandler implements CommandHandler<DeliverMessage> {
  constructor(@inject(TOKENS.ServeContext) private readonly serve: ServeContext) {}

  async execute(command: DeliverMessage): Promise<DeliveryOutcome> {
    const m = command.message;
    const now = Date.now();
    const registry = this.serve.cache.current();
    const tenant = registry.tenant(m.tenant);
    if (tenant?.status === 'disabled') return { kind: 'hold', notBefore: now + HOLD_MS, reason: 'the tenant is disabled' };
    const flow = tenant ? registry.flow(m.tenant, m.flow) : undefined;
    if (!flow) return this.failed(command, 1, 1, `flow ${m.tenant}/${m.flow} is not deployed (or its tenant is not registered)`);

    const result = await executeFlow(this.serve, flow, {
      door: m.event ? 'event' : 'enqueue',
      body: m.body,
      correlationId: m.correlationId,
      message: { id: String(m.id), attempt: m.attempt },
      event: m.event ?? undefined,
    });
    if (!result.error && result.status < 500) {
      this.audit(command, 'queue.message.processed', { version: flow.version, attempt: m.attempt, status: result.status });
      return { kind: 'processed', status: result.status };
    }
    const lastError = `${result.status} ${result.error?.code ?? 'flow_error'}: ${result.error?.message ?? 'the flow answered a server error'}`;
    return this.failed(command, m.attempt, flow.ir.retry.max_attempts, lastError, flow.ir.retry);
  }

  private failed(command: DeliverMessage, attempt: number, maxAttempts: number, lastError: string, policy?: { max_attempts: number; backoff_ms: number; max_backoff_ms: number }): DeliveryOutcome {
    const dead = attempt >= maxAttempts || !policy;
    this.audit(command, 'queue.message.failed', { attempt, dead_lettered: dead, error: lastError.slice(0, 200) });
    if (dead) return { kind: 'dead', attempts: attempt, lastError };
    return { kind: 'retry', nextAttempt: attempt + 1, notBefore: Date.now() + backoffMs(policy, attempt), lastError };
  }

  private audit(command: DeliverMessage, eventType: string, details: Record<string, string | number | boolean | null>): void {
    const m = command.message;
    this.serve.audit.push({ tenant: m.tenant, eventType, correlationId: m.correlationId, at: new Date(), details: { flow: m.flow, message_id: m.id, ...details } });
  }
}
