import { randomUUID } from 'node:crypto';

/** Metadata every command and query carries, so handlers never need an adapter's context. */
export interface MessageMeta {
  readonly id: string;
  readonly correlationId: string;
  readonly issuedAt: Date;
}

export function newMeta(correlationId?: string): MessageMeta {
  return { id: randomUUID(), correlationId: correlationId ?? randomUUID(), issuedAt: new Date() };
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
