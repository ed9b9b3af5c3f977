import { Query, type MessageMeta } from '../domain/message';
import type { CachedFlow } from '../domain/registry-snapshot';
import type { Admission } from '../handlers/gate/gate';

export interface FlowInfoView {
  tenant: string;
  name: string;
  version: string;
  hash: string;
  deployed_at: string;
  description: string | null;
  effects: string[];
  doors: string[];
  required_scope: string | null;
  schedule: unknown;
  config: string[];
  input: unknown;
  output: unknown;
  steps: Array<{ id: string; type: string }>;
}

/** What `GET /flows/{tenant}/{name}` shows of an admitted flow. */
export class GetFlowInfo extends Query<FlowInfoView> {
  constructor(readonly admission: Admission<unknown>, meta: MessageMeta) {
    super(meta);
  }
}

/** A flow the public WSDL route may describe: tenant registered and enabled, flow deployed. */
export class FindPublicFlow extends Query<CachedFlow | null> {
  constructor(readonly tenant: string, readonly name: string, meta: MessageMeta) {
    super(meta);
  }
}
