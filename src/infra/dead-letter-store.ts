import { inject, injectable } from 'inversify';
import type { DeadLetterEntry, DeadLetterStore } from '../domain/dead-letter';
import { notFound, SvcError } from '../domain/errors';
import type { StatePaths } from './state-paths';
import { TOKENS } from './tokens';

type QueueModule = typeof import('./queue');

const entry = (d: DeadLetterEntry): DeadLetterEntry => ({
  id: d.id,
  tenant: d.tenant,
  flow: d.flow,
  enqueuedAt: d.enqueuedAt,
  failedAt: d.failedAt,
  attempts: d.attempts,
  lastError: d.lastError,
  correlationId: d.correlationId,
});

/** The dead-letter logs of `queues/` beside the registry; the registry itself is never opened. */
@injectable()
export class FileDeadLetterStore implements DeadLetterStore {
  constructor(@inject(TOKENS.StatePaths) private readonly paths: StatePaths) {}

  list(filter: { tenant?: string; flow?: string }): DeadLetterEntry[] {
    return this.queue().listDeadLetters(this.paths.queues, filter).map(entry);
  }

  replay(tenant: string, flow: string, id: number): Promise<DeadLetterEntry> {
    return this.mutate(() => this.queue().replayDeadLetter(this.paths.queues, tenant, flow, id));
  }

  discard(tenant: string, flow: string, id: number): Promise<DeadLetterEntry> {
    return this.mutate(() => this.queue().discardDeadLetter(this.paths.queues, tenant, flow, id));
  }

  private async mutate(work: () => Promise<DeadLetterEntry>): Promise<DeadLetterEntry> {
    const queue = this.queue();
    try {
      return entry(await work());
    } catch (err) {
      if (err instanceof queue.DeadLetterNotFound) throw notFound(err.message, 'see svc dlq list');
      if (err instanceof queue.FlowLockBusy) throw new SvcError('storage', err.message, 'retry in a moment');
      throw err;
    }
  }

  private queue(): QueueModule {
    return require('./queue') as QueueModule;
  }
}
