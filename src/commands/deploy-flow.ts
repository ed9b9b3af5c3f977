import { Command, type MessageMeta } from '../domain/message';

export interface DeployedFlow {
  readonly tenant: string;
  readonly name: string;
  readonly version: string;
  readonly hash: string;
  readonly previousLatest: string | null;
}

/** Compile a flow file and publish it as `version`, moving `latest` to it. */
export class DeployFlow extends Command<DeployedFlow> {
  constructor(readonly path: string, readonly version: string, readonly libsDir: string | undefined, meta?: MessageMeta) {
    super(meta);
  }
}
