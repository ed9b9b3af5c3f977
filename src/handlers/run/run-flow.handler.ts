import { inject, injectable } from 'inversify';
import type { RunFlow, RunFlowResult } from '../../commands/run-flow';
import type { CommandHandler } from '../../domain/message';
import type { ServeContext } from '../../infra/serve/serve-context';
import { TOKENS } from '../../infra/tokens';
import { executeFlow } from '../execution/execute-flow';

/** Runs the latest version of an admitted flow and records the run (batched, off the request path). */
@injectable()
export class RunFlowHandler implements CommandHandler<RunFlow> {
  constructor(@inject(TOKENS.ServeContext) private readonly serve: ServeContext) {}

  execute(command: RunFlow): Promise<RunFlowResult> {
    const { flow } = command.admission;
    const run = { door: command.door, body: command.body, headers: command.headers, query: command.query, correlationId: command.meta.correlationId };
    return executeFlow(this.serve, flow, run);
  }
}
