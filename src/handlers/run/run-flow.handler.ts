import { inject, injectable } from 'inversify';
import type { RunFlow, RunFlowResult } from '../../commands/run-flow';
import type { CommandHandler } from '../../domain/message';
import type { ServeContext } from '../../infra/serve/serve-context';
import { TOKENS } from '../../infra/tokens';
import { missingValuesError, valuesFor } from './flow-values';

/** Runs the latest version of an admitted flow and records the run (batched, off the request path). */
@injectable()
export class RunFlowHandler implements CommandHandler<RunFlow> {
  constructor(@inject(TOKENS.ServeContext) private readonly serve: ServeContext) {}

  async execute(command: RunFlow): Promise<RunFlowResult> {
    const started = Date.now();
    const t0 = performance.now();
    const { flow } = command.admission;
    const { values, missing } = valuesFor(flow.ir, this.serve.values);
    const result =
      missing.length > 0
        ? {
            status: 500,
            headers: {},
            body: undefined,
            error: missingValuesError(flow.name, missing),
            stepsRun: 0,
          }
        : await this.serve.runner.run(flow.prepared, {
            tenant: flow.tenant,
            flowName: flow.name,
            version: flow.version,
            door: command.door,
            body: command.body,
            headers: command.headers,
            query: command.query,
            correlationId: command.meta.correlationId,
            config: values.config,
            secrets: values.secrets,
          });
    this.serve.runs.push({
      startedAt: started,
      tenant: flow.tenant,
      flow: flow.name,
      version: flow.version,
      door: command.door,
      status: result.status,
      durationMs: Math.round((performance.now() - t0) * 1000) / 1000,
      correlationId: command.meta.correlationId,
      errorCode: result.error?.code ?? null,
    });
    return { ...result, version: flow.version };
  }
}
