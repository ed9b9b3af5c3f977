import { Query, type MessageMeta } from '../domain/message';
import type { StartupValues } from '../infra/serve/serve-context';

export interface ServeReadiness {
  /** Why the server must not start: each names tenant, flow, key and variable. Empty when ready. */
  readonly problems: readonly string[];
  readonly values: StartupValues;
  readonly flows: ReadonlyArray<{ tenant: string; name: string; version: string; inboundGrpc: boolean }>;
}

/** Reads the environment once for every deployed flow's config and secrets, and the state key. */
export class CheckServeReadiness extends Query<ServeReadiness> {
  constructor(meta?: MessageMeta) {
    super(meta);
  }
}
