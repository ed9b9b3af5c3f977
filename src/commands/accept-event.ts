import type { CachedKey } from '../domain/registry-snapshot';
import { Command, type MessageMeta } from '../domain/message';

export interface AcceptedEvent {
  readonly event_id: string;
  readonly delivered_to: string[];
}

/** A connector event for a tenant, admitted by the gate: fan it out through the queue. */
export class AcceptEvent extends Command<AcceptedEvent> {
  constructor(
    readonly tenant: string,
    readonly source: string,
    readonly type: string,
    readonly body: unknown,
    readonly key: CachedKey | null,
    readonly bodyBytes: number,
    meta: MessageMeta,
  ) {
    super(meta);
  }
}
