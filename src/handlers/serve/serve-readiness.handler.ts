import { inject, injectable } from 'inversify';
import type { LatestFlows } from '../../domain/flow-artifact';
import { configVariable, declaredVariables, secretVariable, STATE_KEY_VARIABLE } from '../../domain/flow-variables';
import type { QueryHandler } from '../../domain/message';
import { TOKENS } from '../../infra/tokens';
import type { CheckServeReadiness, ServeReadiness } from '../../queries/serve-readiness';

/**
 * SPEC: `serve` refuses to boot when a deployed flow's SVC_CONFIG_<KEY> is unset (set but empty
 * counts as set), when a declared secret is unset, or when the state key is missing. The values
 * read here are the only ones the server uses: configuration is read once, at start.
 */
@injectable()
export class CheckServeReadinessHandler implements QueryHandler<CheckServeReadiness> {
  constructor(
    @inject(TOKENS.LatestFlows) private readonly artifacts: LatestFlows,
    @inject(TOKENS.Environment) private readonly env: NodeJS.ProcessEnv,
  ) {}

  async execute(): Promise<ServeReadiness> {
    const problems: string[] = [];
    const config: Record<string, string> = {};
    const secrets: Record<string, string> = {};
    const flows: Array<{ tenant: string; name: string; version: string; inboundGrpc: boolean }> = [];
    if (this.env[STATE_KEY_VARIABLE] === undefined) {
      problems.push(`the state key ${STATE_KEY_VARIABLE} is not set; svc serve needs it to fingerprint deduplication keys and encrypt correlation state`);
    }
    for (const artifact of await this.artifacts.listLatest()) {
      const declared = declaredVariables(artifact);
      if ('unreadable' in declared) {
        problems.push(`${declared.unreadable}; redeploy the flow`);
        continue;
      }
      flows.push({ tenant: declared.tenant, name: declared.flow, version: declared.version, inboundGrpc: declared.inboundGrpc });
      const where = `tenant ${declared.tenant}, flow ${declared.flow} (version ${declared.version})`;
      const read = (kind: 'config key' | 'secret', key: string, variable: string, into: Record<string, string>): void => {
        const value = this.env[variable];
        if (value === undefined) problems.push(`${where}: ${kind} ${key} needs the variable ${variable}, which is not set`);
        else into[key] = value;
      };
      for (const key of declared.config) read('config key', key, configVariable(key), config);
      for (const key of declared.secrets) read('secret', key, secretVariable(key), secrets);
    }
    return { problems, values: { config, secrets }, flows };
  }
}
