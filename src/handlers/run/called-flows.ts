import type { FlowRunInput, FlowRunner, FlowRunResult } from '../../domain/flow-runner';
import type { RegistrySnapshot } from '../../domain/registry-snapshot';
import type { StartupValues } from '../../infra/serve/serve-context';
import { missingValuesError, valuesFor } from './flow-values';

/** How deep `call_flow: {flow}` may nest before the run fails (it stops A -> B -> A loops). */
export const MAX_CALL_DEPTH = 8;

const failure = (status: number, code: string, message: string): FlowRunResult => ({ status, headers: {}, body: { error: { code, message } }, error: { code, message }, stepsRun: 0 });

/**
 * The engine's `callFlow` port: runs the latest deployed version of another flow of the same
 * tenant, with that flow's own config and secrets, the caller's correlation id and door.
 */
export function deployedFlowCaller<P>(snapshot: () => RegistrySnapshot<P>, runner: () => FlowRunner<P>, values: StartupValues) {
  const depth = new WeakMap<FlowRunInput, number>();
  return async (tenant: string, name: string, input: unknown, parent: FlowRunInput): Promise<FlowRunResult> => {
    const level = (depth.get(parent) ?? 0) + 1;
    if (level > MAX_CALL_DEPTH) return failure(500, 'flow_error', `call_flow to ${name} nests deeper than ${MAX_CALL_DEPTH} flows; is there a loop?`);
    const registry = snapshot();
    const flow = registry.tenant(tenant)?.status === 'active' ? registry.flow(tenant, name) : undefined;
    if (!flow) return failure(500, 'flow_error', `call_flow: flow ${name} is not deployed for tenant ${tenant}`);
    const own = valuesFor(flow.ir, values);
    if (own.missing.length > 0) {
      const e = missingValuesError(flow.name, own.missing);
      return failure(500, e.code, e.message);
    }
    const child: FlowRunInput = { ...parent, flowName: flow.name, version: flow.version, body: input, config: own.values.config, secrets: own.values.secrets };
    depth.set(child, level);
    return runner().run(flow.prepared, child);
  };
}
