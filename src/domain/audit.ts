/** One link of a tenant's tamper-evident audit chain. */
export interface AuditEntry {
  readonly tenant: string;
  readonly seq: number;
  readonly eventType: string;
  readonly createdAt: string;
  readonly correlationId: string;
  /** Extra facts (actor, subject, reason). Never a secret, a key value or a business key. */
  readonly details: Readonly<Record<string, string | number | boolean | null>>;
  readonly prevHash: string;
  readonly hash: string;
}

export interface AuditEvent {
  readonly tenant: string;
  readonly eventType: string;
  readonly correlationId: string;
  readonly details?: AuditEntry['details'];
  /** When it happened (a batched writer records later); default: now. */
  readonly at?: Date;
}

export interface ChainFault {
  readonly seq: number;
  readonly problem: string;
}

export interface ChainVerdict {
  readonly checked: number;
  readonly faults: readonly ChainFault[];
}

/** The one way every part of svc writes to and reads the audit chains. */
export interface AuditLog {
  append(event: AuditEvent): Promise<AuditEntry>;
  recent(tenant: string, limit: number): Promise<AuditEntry[]>;
  verify(tenant: string): Promise<ChainVerdict>;
}
