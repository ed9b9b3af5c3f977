import type { DeadLetterEntry } from '../domain/dead-letter';
import { Query, type MessageMeta } from '../domain/message';

export class ListDeadLetters extends Query<DeadLetterEntry[]> {
  constructor(readonly tenant: string | undefined, readonly flow: string | undefined, meta?: MessageMeta) {
    super(meta);
  }
}
