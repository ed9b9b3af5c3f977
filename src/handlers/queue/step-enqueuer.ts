import type { AuditEvent } from '../../domain/audit';
import type { FlowRunInput } from '../../domain/flow-runner';
import type { QueueAccess } from '../../domain/queue';
import type { RegistrySnapshot } from '../../domain/registry-snapshot';
import type { BatchWriter } from '../../infra/batch-writer';

/**
 * The engine's `enqueue` port (the `enqueue` step): queues a message for another deployed flow
 * of the same tenant, durably, with the running flow's correlation id; audited like /enqueue.
 */
export function stepEnqueuer<P>(snapshot: () => RegistrySnapshot<P>, queues: () => QueueAccess, audit: BatchWriter<AuditEvent>) {
  return async (tenant: string, flow: string, body: unknown, parent: FlowRunInput): Promise<{ message_id: string }> => {
    if (!snapshot().flow(tenant, flow)) throw new Error(`enqueue: flow ${flow} is not deployed for tenant ${tenant}`);
    const message = await queues().enqueue(tenant, flow, body, parent.correlationId, null);
    audit.push({
      tenant,
      eventType: 'queue.message.enqueued',
      correlationId: parent.correlationId,
      at: new Date(),
      details: { flow, message_id: message.id, door: 'step', from_flow: parent.flowName },
    });
    return { message_id: String(message.id) };
  };
}
