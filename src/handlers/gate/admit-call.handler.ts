import { inject, injectable } from 'inversify';
import type { Clock } from '../../domain/clock';
import type { QueryHandler } from '../../domain/message';
import type { Refusal } from '../../domain/refusal';
import type { ServeContext } from '../../infra/serve/serve-context';
import { TOKENS } from '../../infra/tokens';
import type { AdmitCall } from '../../queries/gate-queries';
import type { Admission } from './gate';

@injectable()
export class AdmitCallHandler implements QueryHandler<AdmitCall> {
  constructor(
    @inject(TOKENS.ServeContext) private readonly serve: ServeContext,
    @inject(TOKENS.Clock) private readonly clock: Clock,
  ) {}

  execute(query: AdmitCall): Promise<Admission<unknown> | Refusal> {
    // The gate decides synchronously, from the in-memory registry: no async layer of our own.
    try {
      const decision = this.serve.gate.admit(query.call);
      if (decision.refused) this.serve.accessLog.denied(decision, query.call.door, query.meta.correlationId, this.clock.now());
      return Promise.resolve(decision);
    } catch (err) {
      return Promise.reject(err);
    }
  }
}
