import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { QueueUnavailableError, type QueueAccess, type QueueMessage } from '../../domain/queue';
import type { Logger } from '../logging/logger';
import type { FlowQueue } from '../queue';
import { FlowLoop, type Deliver } from './flow-loop';

export interface QueuedFlow {
  readonly tenant: string;
  readonly name: string;
  readonly concurrency: number;
}

type QueueModule = typeof import('../queue');
const NAME = /^[a-z0-9][a-z0-9-]{0,62}$/;

/** Every flow queue of this engine and its workers; the `QueueAccess` the handlers use. */
export class QueueRuntime implements QueueAccess {
  private readonly loops = new Map<string, FlowLoop>();
  private readonly queue: QueueModule = require('../queue') as QueueModule;
  private closed = false;

  constructor(
    private readonly queuesDir: string,
    private readonly deliver: Deliver,
    private readonly logger: Logger,
  ) {}

  /** Opens the queue of every deployed flow and every queue left on disk, and starts their workers. */
  sync(flows: Iterable<QueuedFlow>): void {
    if (this.closed) return;
    const concurrency = new Map<string, number>();
    for (const f of flows) concurrency.set(`${f.tenant}/${f.name}`, f.concurrency);
    for (const key of this.onDisk()) if (!concurrency.has(key)) concurrency.set(key, 1);
    for (const [key, n] of concurrency) {
      const existing = this.loops.get(key);
      if (existing) existing.setConcurrency(n);
      else {
        try {
          this.open(key, n);
        } catch (err) {
          // One unusable queue must not stop the server: its /enqueue answers 503 until fixed.
          this.logger.log('error', 'queue cannot be opened; enqueues to it answer 503', { queue: key, error: err instanceof Error ? err.message : String(err) });
        }
      }
    }
  }

  async enqueue(tenant: string, flow: string, body: unknown, correlationId: string, event: QueueMessage['event']): Promise<QueueMessage> {
    const loop = this.loops.get(`${tenant}/${flow}`) ?? this.open(`${tenant}/${flow}`, 1);
    try {
      const m = await loop.queue.enqueue(body, correlationId, event);
      loop.pump();
      return { id: m.id, tenant: m.tenant, flow: m.flow, body: m.body, correlationId: m.correlationId, enqueuedAt: m.enqueuedAt, attempt: m.attempt, event: m.event };
    } catch (err) {
      if (err instanceof this.queue.QueueUnavailable) throw new QueueUnavailableError(err.message);
      throw err;
    }
  }

  /** Stop taking work, let deliveries in flight finish (up to `graceMs`), then close every queue. */
  async close(graceMs = 10_000): Promise<void> {
    this.closed = true;
    await Promise.all([...this.loops.values()].map((l) => l.stop(graceMs)));
    await Promise.all([...this.loops.values()].map((l) => l.queue.close()));
    this.loops.clear();
  }

  stats(): Array<{ queue: string; pending: number; inFlight: number }> {
    return [...this.loops].map(([queue, l]) => ({ queue, pending: l.queue.pending, inFlight: l.queue.inFlight }));
  }

  private open(key: string, concurrency: number): FlowLoop {
    const [tenant, flow] = key.split('/') as [string, string];
    let q: FlowQueue;
    try {
      q = this.queue.FlowQueue.open(this.queuesDir, tenant, flow, this.logger);
    } catch (err) {
      if (err instanceof this.queue.QueueUnavailable) throw new QueueUnavailableError(err.message);
      throw err;
    }
    const loop = new FlowLoop(q, Math.max(1, concurrency), this.deliver, this.logger, key);
    this.loops.set(key, loop);
    loop.pump();
    return loop;
  }

  private onDisk(): string[] {
    if (!existsSync(this.queuesDir)) return [];
    const keys: string[] = [];
    for (const tenant of readdirSync(this.queuesDir)) {
      if (!NAME.test(tenant)) continue;
      for (const flow of readdirSync(join(this.queuesDir, tenant))) if (NAME.test(flow)) keys.push(`${tenant}/${flow}`);
    }
    return keys;
  }
}
