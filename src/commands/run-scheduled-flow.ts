import { Command, type MessageMeta } from '../domain/message';

export type ScheduledOutcome =
  | { readonly outcome: 'ran'; readonly status: number; readonly version: string }
  | { readonly outcome: 'skipped'; readonly reason: 'still_running' | 'tenant_disabled' | 'not_scheduled' };

/** A cron tick for a flow: run its latest version with the schedule's body, unless the previous run is still going. */
export class RunScheduledFlow extends Command<ScheduledOutcome> {
  constructor(readonly tenant: string, readonly flow: string, readonly firedAt: Date, meta?: MessageMeta) {
    super(meta);
  }
}
