import { randomUUID } from 'node:crypto';

/** Metadata every command and query carries, so handlers never need an adapter's context. */
export interface MessageMeta {
  readonly id: string;
  readonly correlationId: string;
  readonly issuedAt: Date;
}

/**
 * Message metadata. The id and the issue time are made on first read: the request path reads
 * only the correlation id, so it pays for neither a UUID nor a Date per message.
 */
class LazyMeta implements MessageMeta {
  private idValue: string | undefined;
  private issuedValue: Date | undefined;
  private readonly issuedMs = Date.now();

  constructor(readonly correlationId: string) {}

  get id(): string {
    return (this.idValue ??= randomUUID());
  }

  get issuedAt(): Date {
    return (this.issuedValue ??= new Date(this.issuedMs));
  }

  toJSON(): { id: string; correlationId: string; issuedAt: Date } {
    return { id: this.id, correlationId: this.correlationId, issuedAt: this.issuedAt };
  }
}

export function newMeta(correlationId?: string): MessageMeta {
  return new LazyMeta(correlationId ?? randomUUID());
}

declare const commandResult: unique symbol;
declare const queryResult: unique symbol;

/** A request to change state. `TResult` types what the bus returns for it. */
export abstract class Command<TResult> {
  declare readonly [commandResult]?: TResult;
  readonly meta: MessageMeta;
  constructor(meta?: MessageMeta) {
    this.meta = meta ?? newMeta();
  }
}

/** A request to read state. `TResult` types what the bus returns for it (use `null`, not `undefined`, for "nothing"). */
export abstract class Query<TResult> {
  declare readonly [queryResult]?: TResult;
  readonly meta: MessageMeta;
  constructor(meta?: MessageMeta) {
    this.meta = meta ?? newMeta();
  }
}

export type CommandResult<C> = C extends Command<infer R> ? R : never;
export type QueryResult<Q> = Q extends Query<infer R> ? R : never;

export interface CommandHandler<C extends Command<unknown>> {
  execute(command: C): Promise<CommandResult<C>>;
}

export interface QueryHandler<Q extends Query<unknown>> {
  execute(query: Q): Promise<QueryResult<Q>>;
}
