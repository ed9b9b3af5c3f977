import type { FlowIR } from '../../flow';
import type { StartupValues } from '../../infra/serve/serve-context';

export interface FlowValues {
  readonly values: StartupValues;
  /** Variables a flow deployed after start-up declares but the server never read. */
  readonly missing: readonly string[];
}

const cache = new WeakMap<FlowIR, FlowValues>();

/** The config and secret values one flow may see: only the keys it declares. Computed once per IR. */
export function valuesFor(ir: FlowIR, all: StartupValues): FlowValues {
  let entry = cache.get(ir);
  if (!entry) {
    const { config, secrets } = all;
    entry = {
      values: {
        config: Object.fromEntries(ir.config.filter((k) => k in config).map((k) => [k, config[k] ?? ''])),
        secrets: Object.fromEntries(ir.secrets.filter((k) => k in secrets).map((k) => [k, secrets[k] ?? ''])),
      },
      missing: [...ir.config.filter((k) => !(k in config)).map((k) => `SVC_CONFIG_${k}`), ...ir.secrets.filter((k) => !(k in secrets)).map((k) => `SVC_SECRET_${k}`)],
    };
    cache.set(ir, entry);
  }
  return entry;
}

export function missingValuesError(flowName: string, missing: readonly string[]): { code: string; message: string } {
  return { code: 'flow_error', message: `flow ${flowName} needs ${missing.join(', ')}, which svc serve did not have at start-up; set it and restart` };
}
