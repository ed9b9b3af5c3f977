import type { AuditEvent } from '../domain/audit';
import type { Door } from '../domain/door';
import type { Refusal } from '../domain/refusal';
import type { AccessDeniedRecord } from '../domain/run-record';
import type { BatchWriter } from './batch-writer';
import type { Logger } from './logging/logger';

/** Reasons where a valid key was denied something: these name a subject and reach the tenant's chain. */
const AUDITED: ReadonlySet<string> = new Set(['scope_missing', 'flow_not_allowed', 'tenant_disabled', 'tenant_mismatch']);

/**
 * Every refusal by the gate: an `access_denied` record in the structured log (at once) and in
 * svc-log.db (batched), and, when it names a subject, `access.denied` on the tenant's audit chain
 * (batched, within a second, flushed on shutdown).
 */
export class AccessLog {
  constructor(
    private readonly logger: Logger,
    private readonly records: BatchWriter<AccessDeniedRecord>,
    private readonly audit: BatchWriter<AuditEvent>,
  ) {}

  denied(refusal: Refusal, door: Door, correlationId: string, at: Date): void {
    this.logger.log('warn', 'access denied', {
      event: 'access_denied',
      status: refusal.status,
      reason: refusal.reason,
      door,
      tenant: refusal.tenant,
      flow: refusal.flow,
      key_id: refusal.keyId,
      correlation_id: correlationId,
    });
    this.records.push({
      at: at.toISOString(),
      door,
      status: refusal.status,
      reason: refusal.reason,
      tenant: refusal.tenant ?? null,
      flow: refusal.flow ?? null,
      keyId: refusal.keyId ?? null,
      correlationId,
    });
    if (AUDITED.has(refusal.reason) && refusal.tenant !== undefined && refusal.keyId !== undefined) {
      this.audit.push({
        tenant: refusal.tenant,
        eventType: 'access.denied',
        correlationId,
        at,
        details: { reason: refusal.reason, door, flow: refusal.flow ?? null, key_id: refusal.keyId, status: refusal.status },
      });
    }
  }
}
