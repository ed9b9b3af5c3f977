import type { Newable } from 'inversify';

/** A message class (command or query), used as the registry key. */
export type MessageClass = abstract new (...args: never[]) => object;

export interface Handler {
  execute(message: object): Promise<unknown>;
}

/** Loads a handler's module only when its message is first dispatched, so a command pays only for what it uses. */
export type HandlerLoader = () => Promise<Newable<Handler>>;

export class HandlerNotFound extends Error {
  constructor(messageName: string) {
    super(`no handler registered for ${messageName}`);
    this.name = 'HandlerNotFound';
  }
}

/** Maps message classes (by identity, not by name) to lazy handler loaders. */
export class HandlerRegistry {
  private readonly loaders = new Map<MessageClass, HandlerLoader>();

  register(message: MessageClass, loader: HandlerLoader): this {
    if (this.loaders.has(message)) throw new Error(`handler for ${message.name} registered twice`);
    this.loaders.set(message, loader);
    return this;
  }

  loader(message: MessageClass): HandlerLoader {
    const loader = this.loaders.get(message);
    if (!loader) throw new HandlerNotFound(message.name);
    return loader;
  }
}
