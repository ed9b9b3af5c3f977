import type { Door } from '../domain/door';
import { Command, type MessageMeta } from '../domain/message';
import type { Refusal } from '../domain/refusal';

/** A refusal an adapter made itself (a body that outgrew its ceiling while streaming). */
export class RecordRefusal extends Command<void> {
  constructor(readonly refusal: Refusal, readonly door: Door, meta: MessageMeta) {
    super(meta);
  }
}
