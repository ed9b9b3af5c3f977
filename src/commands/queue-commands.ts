import type { Admission } from '../handlers/gate/gate';
import { Command, type MessageMeta } from '../domain/message';
import type { DeliveryOutcome, QueueMessage } from '../domain/queue';

export type EnqueueResult =
  | { readonly ok: true; readonly message_id: string; readonly correlation_id: string }
  | { readonly ok: false; readonly status: 400; readonly code: 'invalid_input'; readonly message: string };

/** Put an admitted, decoded body durably into the flow's queue (the /enqueue door). */
export class EnqueueMessage extends Command<EnqueueResult> {
  constructor(readonly admission: Admission<unknown>, readonly body: unknown, meta: MessageMeta) {
    super(meta);
  }
}

/** Deliver one queued message to the latest version of its flow and decide what happens next. */
export class DeliverMessage extends Command<DeliveryOutcome> {
  constructor(readonly message: QueueMessage, meta: MessageMeta) {
    super(meta);
  }
}
