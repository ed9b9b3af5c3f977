import type { DeliveryOutcome, QueueMessage } from '../../domain/queue';
import type { FlowQueue, QueuedMessage } from '../queue';
import type { Logger } from '../logging/logger';

export type Deliver = (message: QueueMessage) => Promise<DeliveryOutcome>;

/** How often a queue looks for messages another process (svc dlq replay) appended. */
export const REFRESH_MS = 500;

const toMessage = (m: QueuedMessage): QueueMessage => ({
  id: m.id,
  tenant: m.tenant,
  flow: m.flow,
  body: m.body,
  correlationId: m.correlationId,
  enqueuedAt: m.enqueuedAt,
  attempt: m.attempt,
  event: m.event,
});

/**
 * The workers of one flow's queue: up to `concurrency` deliveries at once, woken by new
 * messages, by due retries and by a slow refresh; the outcome of each delivery is made durable
 * before the next is taken. When the queue runs dry it is drained (compacted).
 */
export class FlowLoop {
  private active = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly refresher: NodeJS.Timeout;
  private stopping = false;
  private idleWaiters: Array<() => void> = [];

  constructor(
    readonly queue: FlowQueue,
    private concurrency: number,
    private readonly deliver: Deliver,
    private readonly logger: Logger,
    private readonly label: string,
  ) {
    this.refresher = setInterval(() => {
      try {
        this.queue.refresh();
      } catch (err) {
        this.logger.log('error', 'queue refresh failed', { queue: this.label, error: (err as Error).message });
      }
      this.pump();
    }, REFRESH_MS);
    this.refresher.unref();
  }

  setConcurrency(n: number): void {
    this.concurrency = Math.max(1, n);
    this.pump();
  }

  pump(): void {
    if (this.stopping) return;
    while (this.active < this.concurrency) {
      const message = this.queue.take(Date.now());
      if (!message) break;
      this.active += 1;
      void this.run(message).finally(() => {
        this.active -= 1;
        if (this.active === 0) for (const w of this.idleWaiters.splice(0)) w();
        this.pump();
      });
    }
    this.arm();
    if (this.active === 0 && this.queue.pending === 0 && this.queue.inFlight === 0) {
      this.queue.drain().catch((err: unknown) => this.logger.log('error', 'queue drain failed', { queue: this.label, error: (err as Error).message }));
    }
  }

  /** Stop taking work; wait up to `graceMs` for deliveries in flight; release the rest. */
  async stop(graceMs: number): Promise<void> {
    this.stopping = true;
    clearInterval(this.refresher);
    if (this.timer) clearTimeout(this.timer);
    if (this.active > 0) {
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, graceMs);
        this.idleWaiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  private arm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const due = this.queue.nextDueAt();
    if (due === undefined || this.stopping) return;
    this.timer = setTimeout(() => this.pump(), Math.max(0, due - Date.now()));
    this.timer.unref();
  }

  private async run(message: QueuedMessage): Promise<void> {
    let outcome: DeliveryOutcome;
    try {
      outcome = await this.deliver(toMessage(message));
    } catch (err) {
      // A bug, not a flow failure: keep the message for a later attempt, uncounted.
      this.logger.log('error', 'delivery failed unexpectedly; the message stays queued', { queue: this.label, message_id: message.id, error: (err as Error).message });
      outcome = { kind: 'hold', notBefore: Date.now() + 5_000, reason: 'internal error during delivery' };
    }
    try {
      switch (outcome.kind) {
        case 'processed':
          // Not awaited: the next delivery need not wait for this fdatasync. An ack lost in a
          // crash means one more delivery, which at-least-once allows; it rides the next group commit.
          this.queue.ack(message.id).catch((err: unknown) =>
            this.logger.log('error', 'could not record an acknowledgement; the message will be delivered again after a restart', { queue: this.label, message_id: message.id, error: (err as Error).message }),
          );
          break;
        case 'retry':
          await this.queue.retry(message.id, outcome.nextAttempt, outcome.notBefore, outcome.lastError);
          break;
        case 'hold':
          await this.queue.retry(message.id, message.attempt, outcome.notBefore, outcome.reason);
          break;
        case 'dead':
          await this.queue.deadLetter(message.id, outcome.attempts, outcome.lastError);
          this.logger.log('warn', 'message dead-lettered', { queue: this.label, message_id: message.id, attempts: outcome.attempts, correlation_id: message.correlationId });
          break;
      }
    } catch (err) {
      // Not recorded: the message is redelivered after a restart (at-least-once).
      this.logger.log('error', 'could not record a delivery outcome; the message will be delivered again', { queue: this.label, message_id: message.id, error: (err as Error).message });
      this.queue.release(message.id);
    }
  }
}
