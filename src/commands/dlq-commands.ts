import type { DeadLetterEntry } from '../domain/dead-letter';
import { Command, type MessageMeta } from '../domain/message';

/** Copy a dead letter back into its flow's queue (fresh attempts, latest version) and mark it handled. */
export class ReplayDeadLetter extends Command<DeadLetterEntry> {
  constructor(readonly tenant: string, readonly flow: string, readonly id: number, meta?: MessageMeta) {
    super(meta);
  }
}

/** Mark a dead letter handled without re-enqueuing it; its body leaves the disk at the next drain. */
export class DiscardDeadLetter extends Command<DeadLetterEntry> {
  constructor(readonly tenant: string, readonly flow: string, readonly id: number, meta?: MessageMeta) {
    super(meta);
  }
}
