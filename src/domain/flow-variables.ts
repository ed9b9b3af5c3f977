import type { FlowArtifact } from './flow-artifact';

export type VariableVerdict = 'set' | 'set, empty' | 'MISSING';

/** What a deployed flow needs from the environment, read from its stored IR. */
export interface DeclaredVariables {
  readonly tenant: string;
  readonly flow: string;
  readonly version: string;
  readonly config: readonly string[];
  readonly secrets: readonly string[];
  readonly inboundGrpc: boolean;
}

const names = (v: unknown): string[] | undefined => (Array.isArray(v) && v.every((x) => typeof x === 'string') ? v : undefined);

/** The variables an artifact declares, or why its IR cannot be read. */
export function declaredVariables(artifact: FlowArtifact): DeclaredVariables | { unreadable: string } {
  const where = `${artifact.tenant}/${artifact.name}@${artifact.version}`;
  let ir: { config?: unknown; secrets?: unknown; inbound?: unknown };
  try {
    ir = JSON.parse(artifact.ir) as typeof ir;
  } catch (err) {
    return { unreadable: `${where}: the stored IR is not valid JSON (${(err as Error).message})` };
  }
  const config = names(ir.config);
  const secrets = names(ir.secrets);
  if (config === undefined || secrets === undefined) return { unreadable: `${where}: the stored IR has no readable config/secrets lists` };
  return { tenant: artifact.tenant, flow: artifact.name, version: artifact.version, config, secrets, inboundGrpc: ir.inbound !== null && ir.inbound !== undefined };
}

/** `set`, `set, empty` (an empty value counts as set) or `MISSING`. */
export function verdictOf(env: NodeJS.ProcessEnv, variable: string): VariableVerdict {
  const value = env[variable];
  if (value === undefined) return 'MISSING';
  return value === '' ? 'set, empty' : 'set';
}

export const configVariable = (key: string): string => `SVC_CONFIG_${key}`;
export const secretVariable = (key: string): string => `SVC_SECRET_${key}`;
export const STATE_KEY_VARIABLE = 'SVC_SECRET_SVC_STATE_KEY';
