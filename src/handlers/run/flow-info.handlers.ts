import { inject, injectable } from 'inversify';
import type { CommandHandler, QueryHandler } from '../../domain/message';
import type { CachedFlow } from '../../domain/registry-snapshot';
import type { Clock } from '../../domain/clock';
import type { RecordRefusal } from '../../commands/record-refusal';
import type { ServeContext } from '../../infra/serve/serve-context';
import { TOKENS } from '../../infra/tokens';
import type { FindPublicFlow, FlowInfoView, GetFlowInfo } from '../../queries/flow-info';

const NAME = /^[a-z0-9][a-z0-9-]{0,62}$/;

@injectable()
export class GetFlowInfoHandler implements QueryHandler<GetFlowInfo> {
  async execute(query: GetFlowInfo): Promise<FlowInfoView> {
    const { flow } = query.admission;
    const ir = flow.ir;
    const doors = ['run', 'enqueue'];
    if (ir.schedule) doors.push('cron');
    if (ir.inbound) doors.push('grpc');
    if (ir.events.length > 0) doors.push('event');
    return {
      tenant: flow.tenant,
      name: flow.name,
      version: flow.version,
      hash: flow.hash,
      deployed_at: flow.deployedAt,
      description: ir.description,
      effects: ir.meta.effects,
      doors,
      required_scope: ir.required_scope,
      schedule: ir.schedule,
      config: ir.config,
      input: ir.input,
      output: ir.output,
      steps: ir.steps.map((s) => ({ id: s.id, type: s.type })),
    };
  }
}

@injectable()
export class FindPublicFlowHandler implements QueryHandler<FindPublicFlow> {
  constructor(@inject(TOKENS.ServeContext) private readonly serve: ServeContext) {}

  async execute(query: FindPublicFlow): Promise<CachedFlow | null> {
    if (!NAME.test(query.tenant) || !NAME.test(query.name)) return null;
    const registry = this.serve.cache.current();
    if (registry.tenant(query.tenant)?.status !== 'active') return null;
    return registry.flow(query.tenant, query.name) ?? null;
  }
}

@injectable()
export class RecordRefusalHandler implements CommandHandler<RecordRefusal> {
  constructor(
    @inject(TOKENS.ServeContext) private readonly serve: ServeContext,
    @inject(TOKENS.Clock) private readonly clock: Clock,
  ) {}

  async execute(command: RecordRefusal): Promise<void> {
    this.serve.accessLog.denied(command.refusal, command.door, command.meta.correlationId, this.clock.now());
  }
}
