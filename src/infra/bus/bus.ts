import type { Container, Newable } from 'inversify';
import type { Command, CommandResult, Query, QueryResult } from '../../domain/message';
import type { Handler, HandlerRegistry, MessageClass } from './handler-registry';

/** Resolves a message's handler from the container, loading and binding it on first use. */
class Dispatcher {
  private readonly resolved = new Map<MessageClass, Handler>();

  constructor(
    private readonly container: Container,
    private readonly registry: HandlerRegistry,
  ) {}

  /**
   * Once a message's handler is resolved, dispatch is a map look-up and a direct call that
   * hands back the handler's own promise (no extra async layer, no extra microtask).
   */
  dispatch(message: object): Promise<unknown> {
    const handler = this.resolved.get(message.constructor as MessageClass);
    if (handler !== undefined) {
      try {
        return handler.execute(message);
      } catch (err) {
        return Promise.reject(err);
      }
    }
    return this.resolveAndDispatch(message);
  }

  private async resolveAndDispatch(message: object): Promise<unknown> {
    const key = message.constructor as MessageClass;
    let handler = this.resolved.get(key);
    if (!handler) {
      const handlerClass: Newable<Handler> = await this.registry.loader(key)();
      if (!this.container.isBound(handlerClass)) this.container.bind(handlerClass).toSelf().inSingletonScope();
      handler = this.container.get(handlerClass);
      this.resolved.set(key, handler);
    }
    return handler.execute(message);
  }
}

export class CommandBus {
  private readonly dispatcher: Dispatcher;
  constructor(container: Container, registry: HandlerRegistry) {
    this.dispatcher = new Dispatcher(container, registry);
  }

  execute<C extends Command<unknown>>(command: C): Promise<CommandResult<C>> {
    return this.dispatcher.dispatch(command) as Promise<CommandResult<C>>;
  }
}

export class QueryBus {
  private readonly dispatcher: Dispatcher;
  constructor(container: Container, registry: HandlerRegistry) {
    this.dispatcher = new Dispatcher(container, registry);
  }

  execute<Q extends Query<unknown>>(query: Q): Promise<QueryResult<Q>> {
    return this.dispatcher.dispatch(query) as Promise<QueryResult<Q>>;
  }
}
