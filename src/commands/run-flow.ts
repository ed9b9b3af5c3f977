import type { FlowRunResult, RunDoor } from '../domain/flow-runner';
import { Command, type MessageMeta } from '../domain/message';
import type { Admission } from '../handlers/gate/gate';

export interface RunFlowResult extends FlowRunResult {
  readonly version: string;
}

/** Run the admitted flow's latest version with a decoded body. */
export class RunFlow extends Command<RunFlowResult> {
  constructor(
    readonly admission: Admission<unknown>,
    readonly door: RunDoor,
    readonly body: unknown,
    readonly headers: Record<string, string>,
    readonly query: Record<string, string | string[]>,
    meta: MessageMeta,
  ) {
    super(meta);
  }
}
