import { inject, injectable } from 'inversify';
import type { Clock } from '../../domain/clock';
import type { QueryHandler } from '../../domain/message';
import type { Refusal } from '../../domain/refusal';
import type { ServeContext } from '../../infra/serve/serve-context';
import { TOKENS } from '../../infra/tokens';
import type { AdmitEvent } from '../../queries/gate-queries';
import type { TenantAdmission } from './gate';

@injectable()
export class AdmitEventHandler implements QueryHandler<AdmitEvent> {
  constructor(
    @inject(TOKENS.ServeContext) private readonly serve: ServeContext,
    @inject(TOKENS.Clock) private readonly clock: Clock,
  ) {}

  async execute(query: AdmitEvent): Promise<TenantAdmission | Refusal> {
    const decision = this.serve.gate.admitTenant(query.call);
    if (decision.refused) this.serve.accessLog.denied(decision, 'event', query.meta.correlationId, this.clock.now());
    return decision;
  }
}
