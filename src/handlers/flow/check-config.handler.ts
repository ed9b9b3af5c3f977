import { inject, injectable } from 'inversify';
import type { FlowArtifactRepository } from '../../domain/flow-artifact';
import type { QueryHandler } from '../../domain/message';
import { TOKENS } from '../../infra/tokens';
import type { CheckConfig, ConfigCheckReport, ConfigVariableRow, VariableVerdict } from '../../queries/config-check';

export const STATE_KEY_VARIABLE = 'SVC_SECRET_SVC_STATE_KEY';

const verdict = (env: NodeJS.ProcessEnv, variable: string): VariableVerdict => {
  const value = env[variable];
  if (value === undefined) return 'MISSING';
  return value === '' ? 'set, empty' : 'set';
};

function stringList(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((v) => typeof v === 'string') ? value : undefined;
}

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
    for (const flow of flows) {
      const where = `${flow.tenant}/${flow.name}@${flow.version}`;
      let ir: { config?: unknown; secrets?: unknown };
      try {
        ir = JSON.parse(flow.ir) as { config?: unknown; secrets?: unknown };
      } catch (err) {
        unreadable.push(`${where}: the stored IR is not valid JSON (${(err as Error).message})`);
        continue;
      }
      const config = stringList(ir.config);
      const secrets = stringList(ir.secrets);
      if (config === undefined || secrets === undefined) {
        unreadable.push(`${where}: the stored IR has no readable config/secrets lists`);
        continue;
      }
      const base = { tenant: flow.tenant, flow: flow.name, version: flow.version };
      for (const key of config) rows.push({ ...base, kind: 'config', key, variable: `SVC_CONFIG_${key}`, verdict: verdict(this.env, `SVC_CONFIG_${key}`) });
      for (const key of secrets) rows.push({ ...base, kind: 'secret', key, variable: `SVC_SECRET_${key}`, verdict: verdict(this.env, `SVC_SECRET_${key}`) });
    }
    return { flows: flows.length, rows, unreadable, stateKey: verdict(this.env, STATE_KEY_VARIABLE) };
  }
}
