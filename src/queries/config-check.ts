import { Query, type MessageMeta } from '../domain/message';

import type { VariableVerdict } from '../domain/flow-variables';

export type { VariableVerdict };

export interface ConfigVariableRow {
  readonly tenant: string;
  readonly flow: string;
  readonly version: string;
  readonly kind: 'config' | 'secret';
  readonly key: string;
  readonly variable: string;
  readonly verdict: VariableVerdict;
}

export interface ConfigCheckReport {
  readonly flows: number;
  readonly rows: readonly ConfigVariableRow[];
  /** Deployed flows whose artifact could not be read: `tenant/name@version: why`. */
  readonly unreadable: readonly string[];
  readonly stateKey: VariableVerdict;
}

/** Which environment variables the deployed flows (latest versions) need, and whether each is set. */
export class CheckConfig extends Query<ConfigCheckReport> {
  constructor(meta?: MessageMeta) {
    super(meta);
  }
}
