/** A message waiting in a flow's queue, as a delivery sees it. */
export interface QueueMessage {
  readonly id: number;
  readonly tenant: string;
  readonly flow: string;
  readonly body: unknown;
  readonly correlationId: string;
  readonly enqueuedAt: string;
  /** This delivery's attempt, from 1. */
  readonly attempt: number;
  readonly event: { source: string; type: string; id: string } | null;
}

/** What the delivery rules decided; the worker makes it durable. */
export type DeliveryOutcome =
  | { readonly kind: 'processed'; readonly status: number }
  | { readonly kind: 'retry'; readonly nextAttempt: number; readonly notBefore: number; readonly lastError: string }
  | { readonly kind: 'dead'; readonly attempts: number; readonly lastError: string }
  /** Not delivered and not counted (the tenant is disabled): look again at `notBefore`. */
  | { readonly kind: 'hold'; readonly notBefore: number; readonly reason: string };

export interface RetryPolicy {
  readonly max_attempts: number;
  readonly backoff_ms: number;
  readonly max_backoff_ms: number;
}

/**
 * Exponential backoff with jitter: the n-th retry waits between half and all of
 * min(max_backoff_ms, backoff_ms * 2^(n-1)).
 */
export function backoffMs(policy: RetryPolicy, failedAttempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.max_backoff_ms, policy.backoff_ms * 2 ** Math.max(0, failedAttempt - 1));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/** Queue operations the server's handlers need (the file queues behind them are infra). */
export interface QueueAccess {
  enqueue(tenant: string, flow: string, body: unknown, correlationId: string, event: QueueMessage['event']): Promise<QueueMessage>;
}

/** Raised when a message could not be made durable (full disk, unwritable queues/): 503. */
export class QueueUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'QueueUnavailableError';
  }
}
