import { inject, injectable } from 'inversify';
import type { FlowArtifactRepository } from '../../domain/flow-artifact';
import { configVariable, declaredVariables, secretVariable, STATE_KEY_VARIABLE, verdictOf } from '../../domain/flow-variables';
import type { QueryHandler } from '../../domain/message';
import { TOKENS } from '../../infra/tokens';
import type { CheckConfig, ConfigCheckReport, ConfigVariableRow } from '../../queries/config-check';

@injectable()
export class CheckConfigHandler implements QueryHandler<CheckConfig> {
  constructor(
    @inject(TOKENS.FlowArtifactRepository) private readonly artifacts: FlowArtifactRepository,
    @inject(TOKENS.Environment) private readonly env: NodeJS.ProcessEnv,
  ) {}

  async execute(): Promise<ConfigCheckReport> {
    const flows = await this.artifacts.listLatest();
    const rows: ConfigVariableRow[] = [];
    const unreadable: string[] = [];
    for (const artifact of flows) {
      const declared = declaredVariables(artifact);
      if ('unreadable' in declared) {
        unreadable.push(declared.unreadable);
        continue;
      }
      const base = { tenant: declared.tenant, flow: declared.flow, version: declared.version };
      for (const key of declared.config) rows.push({ ...base, kind: 'config', key, variable: configVariable(key), verdict: verdictOf(this.env, configVariable(key)) });
      for (const key of declared.secrets) rows.push({ ...base, kind: 'secret', key, variable: secretVariable(key), verdict: verdictOf(this.env, secretVariable(key)) });
    }
    return { flows: flows.length, rows, unreadable, stateKey: verdictOf(this.env, STATE_KEY_VARIABLE) };
  }
}
