/** A queued message that used up every attempt (SPEC: dead-letter entry). */
export interface DeadLetterEntry {
  readonly id: number;
  readonly tenant: string;
  readonly flow: string;
  readonly enqueuedAt: string;
  readonly failedAt: string;
  readonly attempts: number;
  readonly lastError: string;
  readonly correlationId: string;
}

/** The dead-letter logs under `queues/`, as the CLI reaches them (also while a server runs). */
export interface DeadLetterStore {
  list(filter: { tenant?: string; flow?: string }): DeadLetterEntry[];
  replay(tenant: string, flow: string, id: number): Promise<DeadLetterEntry>;
  discard(tenant: string, flow: string, id: number): Promise<DeadLetterEntry>;
}
