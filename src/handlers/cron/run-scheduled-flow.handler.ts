import { inject, injectable } from 'inversify';
import type { RunScheduledFlow, ScheduledOutcome } from '../../commands/run-scheduled-flow';
import type { CommandHandler } from '../../domain/message';
import type { ServeContext } from '../../infra/serve/serve-context';
import { TOKENS } from '../../infra/tokens';
import { executeFlow } from '../execution/execute-flow';

/**
 * The cron door's rules: a tick runs the flow's latest version with `schedule.body` as `body`
 * (door `cron`); a tick that finds the previous run of the same flow still going is skipped and
 * logged, never stacked; a disabled tenant's ticks are skipped (the gate's tenant check).
 */
@injectable()
export class RunScheduledFlowHandler implements CommandHandler<RunScheduledFlow> {
  private readonly running = new Set<string>();

  constructor(@inject(TOKENS.ServeContext) private readonly serve: ServeContext) {}

  async execute(command: RunScheduledFlow): Promise<ScheduledOutcome> {
    const key = `${command.tenant}/${command.flow}`;
    const log = this.serve.logger;
    const fields = { tenant: command.tenant, flow: command.flow, door: 'cron', fired_at: command.firedAt.toISOString(), correlation_id: command.meta.correlationId };
    if (this.running.has(key)) {
      log.log('warn', 'cron tick skipped: the previous run of this flow is still going', fields);
      return { outcome: 'skipped', reason: 'still_running' };
    }
    const registry = this.serve.cache.current();
    if (registry.tenant(command.tenant)?.status !== 'active') {
      log.log('info', 'cron tick skipped: the tenant is disabled', fields);
      return { outcome: 'skipped', reason: 'tenant_disabled' };
    }
    const flow = registry.flow(command.tenant, command.flow);
    if (!flow?.ir.schedule) return { outcome: 'skipped', reason: 'not_scheduled' };
    this.running.add(key);
    try {
      const result = await executeFlow(this.serve, flow, { door: 'cron', body: flow.ir.schedule.body, correlationId: command.meta.correlationId });
      const level = result.error ? 'warn' : 'info';
      log.log(level, 'cron run finished', { ...fields, version: flow.version, status: result.status, error_code: result.error?.code ?? null });
      return { outcome: 'ran', status: result.status, version: flow.version };
    } finally {
      this.running.delete(key);
    }
  }
}
