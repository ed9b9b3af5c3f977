import type { AuditEvent } from '../../domain/audit';
import type { FlowRunner } from '../../domain/flow-runner';
import type { QueueAccess } from '../../domain/queue';
import type { RunRecord } from '../../domain/run-record';
import type { Gate } from '../../handlers/gate/gate';
import type { AccessLog } from '../access-log';
import type { BatchWriter } from '../batch-writer';
import type { Logger } from '../logging/logger';
import type { RegistryCache } from '../registry-cache/registry-cache';

export interface ServeSettings {
  readonly auth: boolean;
  /** HMAC secret of `serve --secret`; undefined when signatures are off. */
  readonly secret: string | undefined;
  readonly maxMessageBytes: number;
}

/** Values of SVC_CONFIG_* and SVC_SECRET_* read once at start-up, by key. */
export interface StartupValues {
  readonly config: Readonly<Record<string, string>>;
  readonly secrets: Readonly<Record<string, string>>;
}

/** The stateful pieces of a running server that the request-path handlers share. */
export interface ServeContext<P = unknown> {
  readonly settings: ServeSettings;
  readonly values: StartupValues;
  readonly cache: RegistryCache<P>;
  readonly gate: Gate<P>;
  readonly runner: FlowRunner<P>;
  readonly accessLog: AccessLog;
  readonly runs: BatchWriter<RunRecord>;
  /** Audit entries of the request path, appended within a second (never lost on a graceful stop). */
  readonly audit: BatchWriter<AuditEvent>;
  readonly queues: QueueAccess;
  readonly logger: Logger;
}
