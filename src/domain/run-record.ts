import type { Door } from './door';

/** One run of a flow, as operators and the UI see it (svc-log.db). */
export interface RunRecord {
  /** ms since the epoch (written as ISO 8601 UTC). */
  readonly startedAt: number;
  readonly tenant: string;
  readonly flow: string;
  readonly version: string;
  readonly door: Door;
  readonly status: number;
  readonly durationMs: number;
  readonly correlationId: string;
  readonly errorCode: string | null;
}

/** One refusal by the gate (svc-log.db and the structured log). */
export interface AccessDeniedRecord {
  readonly at: string;
  readonly door: Door;
  readonly status: number;
  readonly reason: string;
  readonly tenant: string | null;
  readonly flow: string | null;
  readonly keyId: number | null;
  readonly correlationId: string;
}
