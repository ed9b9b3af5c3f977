import { inject, injectable } from 'inversify';
import type { RunFlow, RunFlowResult } from '../../commands/run-flow';
import type { CommandHandler } from '../../domain/message';
import type { FlowRunInput, FlowRunResult } from '../../domain/flow-runner';
import type { ServeContext } from '../../infra/serve/serve-context';
import { TOKENS } from '../../infra/tokens';
import { missingValuesError, valuesFor } from './flow-values';

/** Runs the latest version of an admitted flow and records the run (batched, off the request path). */
@injectable()
export class RunFlowHandler implements CommandHandler<RunFlow> {
  constructor(@inject(TOKENS.ServeContext) private readonly serve: ServeContext) {}

  execute(command: RunFlow): Promise<RunFlowResult> {
    const started = Date.now();
    const t0 = performance.now();
    const { flow } = command.admission;
    const { values, missing } = valuesFor(flow.ir, this.serve.values);
    if (missing.length > 0) {
      const result: RunFlowResult = { status: 500, headers: {}, body: undefined, error: missingValuesError(flow.name, missing), stepsRun: 0, version: flow.version };
      this.record(command, started, t0, result);
      return Promise.resolve(result);
    }
    const input: FlowRunInput = {
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
    };
    // The engine hands back a fresh result: it gains the version instead of being copied.
    const finish = (result: FlowRunResult): RunFlowResult => {
      const answer = result as FlowRunResult & { version: string };
      answer.version = flow.version;
      this.record(command, started, t0, answer);
      return answer;
    };
    return this.serve.runner.run(flow.prepared, input).then(finish);
  }

  private record(command: RunFlow, started: number, t0: number, result: FlowRunResult): void {
    const { flow } = command.admission;
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
  }
}
