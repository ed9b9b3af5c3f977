import 'reflect-metadata';
import { expect } from 'chai';
import { Container, injectable } from 'inversify';
import { CommandBus, QueryBus } from '../../src/infra/bus/bus';
import { HandlerNotFound, HandlerRegistry } from '../../src/infra/bus/handler-registry';
import { Command, Query, type CommandHandler, type QueryHandler } from '../../src/domain/message';

class Add extends Command<number> {
  constructor(readonly a: number, readonly b: number) {
    super();
  }
}
// Same class name as another message: the bus must key by identity, not by name.
const Shadow = (() => {
  class Add extends Command<string> {}
  return Add;
})();
class Ask extends Query<string> {}

@injectable()
class AddHandler implements CommandHandler<Add> {
  static instances = 0;
  constructor() {
    AddHandler.instances += 1;
  }
  async execute(c: Add): Promise<number> {
    return c.a + c.b;
  }
}

@injectable()
class AskHandler implements QueryHandler<Ask> {
  async execute(q: Ask): Promise<string> {
    return `answer to ${q.meta.correlationId}`;
  }
}

describe('command and query buses', () => {
  it('dispatch to the handler registered for the message class, typed by the message', async () => {
    let loads = 0;
    const registry = new HandlerRegistry().register(Add, async () => {
      loads += 1;
      return AddHandler;
    });
    const bus = new CommandBus(new Container(), registry);
    expect(loads).to.equal(0);
    const sum: number = await bus.execute(new Add(2, 3));
    expect(sum).to.equal(5);
    expect(await bus.execute(new Add(1, 1))).to.equal(2);
    expect(loads, 'the handler module is loaded once, on first dispatch').to.equal(1);
  });

  it('keys handlers by class identity, not by constructor name', async () => {
    const bus = new CommandBus(new Container(), new HandlerRegistry().register(Add, async () => AddHandler));
    let error: unknown;
    try {
      await bus.execute(new Shadow());
    } catch (e) {
      error = e;
    }
    expect(error).to.be.instanceOf(HandlerNotFound);
  });

  it('refuses to register two handlers for one message', () => {
    const registry = new HandlerRegistry().register(Add, async () => AddHandler);
    expect(() => registry.register(Add, async () => AddHandler)).to.throw(/registered twice/);
  });

  it('carries metadata (id, correlation id, time) on every message', async () => {
    const bus = new QueryBus(new Container(), new HandlerRegistry().register(Ask, async () => AskHandler));
    const ask = new Ask();
    expect(ask.meta.id).to.match(/^[0-9a-f-]{36}$/);
    expect(ask.meta.issuedAt).to.be.instanceOf(Date);
    expect(await bus.execute(ask)).to.equal(`answer to ${ask.meta.correlationId}`);
  });
});
