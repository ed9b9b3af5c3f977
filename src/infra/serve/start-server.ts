import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AuditEvent } from '../../domain/audit';
import { SvcError } from '../../domain/errors';
import type { FlowRunner } from '../../domain/flow-runner';
import type { AccessDeniedRecord, RunRecord } from '../../domain/run-record';
import { DEFAULT_MAX_MESSAGE_BYTES, Gate } from '../../handlers/gate/gate';
import { deployedFlowCaller } from '../../handlers/run/called-flows';
import { stepEnqueuer } from '../../handlers/queue/step-enqueuer';
import { DeliverMessage } from '../../commands/queue-commands';
import { RunScheduledFlow } from '../../commands/run-scheduled-flow';
import { newMeta } from '../../domain/message';
import type { RegistrySnapshot } from '../../domain/registry-snapshot';
import { CronDoor } from '../cron/cron-door';
import { QueueRuntime } from '../queue-runtime/queue-runtime';
import { buildHttpApp } from '../../http/http-app';
import { CheckServeReadiness } from '../../queries/serve-readiness';
import { AccessLog } from '../access-log';
import { createApp, type App } from '../app';
import type { SqliteAuditLog } from '../audit/sqlite-audit-log';
import { BatchWriter } from '../batch-writer';
import type { RegistryDb } from '../db/registry-db';
import { LogDb } from '../log-db/log-db';
import { RunRecordColumns } from '../log-db/run-record-columns';
import { openLatestFlowsReader } from '../db/sqlite-latest-flows';
import type { LatestFlows } from '../../domain/flow-artifact';
import type { Logger } from '../logging/logger';
import { RateLimiter } from '../rate-limiter';
import { RegistryCache } from '../registry-cache/registry-cache';
import { tuneHeapForServing } from './heap-tuning';
import { TOKENS } from '../tokens';
import { openUiDb } from './ui-db';
import type { ServeContext, ServeSettings } from './serve-context';

export interface ServeOptions {
  readonly host: string;
  readonly port: number;
  readonly db?: string;
  readonly secret?: string;
  readonly auth: boolean;
  readonly maxMessageBytes?: number;
  readonly logger: Logger;
  /** Bound on reading a request (headers and body): slow senders get 408. */
  readonly requestTimeoutMs?: number;
  readonly env?: NodeJS.ProcessEnv;
  /** The flow engine; built from src/engine when not given. */
  readonly runner?: FlowRunner<unknown>;
}

export interface RunningServer {
  readonly url: string;
  readonly port: number;
  readonly banner: readonly string[];
  readonly context: ServeContext;
  readonly app: App;
  /** Stops taking requests, lets in-flight ones finish, writes every buffered record, closes files. */
  close(): Promise<void>;
}

function installationCeiling(options: ServeOptions, env: NodeJS.ProcessEnv): number {
  if (options.maxMessageBytes !== undefined) return options.maxMessageBytes;
  const raw = env.SVC_MAX_MESSAGE_BYTES;
  if (raw === undefined || raw === '') return DEFAULT_MAX_MESSAGE_BYTES;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n <= 0) throw new SvcError('usage', `SVC_MAX_MESSAGE_BYTES='${raw}' is not a positive whole number of bytes`);
  return n;
}

type Ports = Pick<import('../../engine').EnginePorts, 'callFlow' | 'enqueue'>;

function defaultRunner(logger: Logger, ports: Ports): FlowRunner<unknown> {
  const engine = require('../../engine') as typeof import('../../engine');
  return new engine.FlowEngine({ http: engine.createUndiciEgress(), logger, clock: { now: () => new Date() }, ...ports }) as FlowRunner<unknown>;
}

/** How often the registry is looked at without requests (cron and queue workers follow deploys). */
const REGISTRY_POLL_MS = 1_000;

/** `svc serve`: checks readiness, opens every store, and listens. The CLI command only renders. */
export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const env = options.env ?? process.env;
  const logger = options.logger;
  tuneHeapForServing();
  const app = createApp({ registry: options.db, env });
  try {
    // A registry at the current schema is read with plain SQLite; the ORM is loaded only to
    // create or upgrade the schema (and closed again before requests are taken).
    const reader = openLatestFlowsReader(app.paths.registry);
    if (reader) await app.container.rebind<LatestFlows>(TOKENS.LatestFlows).then((b) => b.toConstantValue(reader));
    const readiness = await app.queries.execute(new CheckServeReadiness());
    if (readiness.problems.length > 0) {
      throw new SvcError('refused', `svc serve refuses to start: ${readiness.problems.length} problem${readiness.problems.length === 1 ? '' : 's'} (listed above)`, 'run svc config check to see every variable the deployed flows need', {
        details: readiness.problems,
      });
    }
    // The readiness query (with the registry schema check it implies) is the ORM's only job in a
    // server: close it before taking requests, so its connection, metadata and identity maps can
    // be collected. Anything that needs it later opens it again.
    await app.container.get<RegistryDb>(TOKENS.RegistryDb).close();
    const settings: ServeSettings = { auth: options.auth, secret: options.secret, maxMessageBytes: installationCeiling(options, env) };
    const paths = app.paths;
    mkdirSync(paths.queues, { recursive: true });
    openUiDb(paths.ui);
    const logDb = new LogDb(paths.log);
    const audit = app.container.get<SqliteAuditLog>(TOKENS.AuditLog);
    const onFlushError = (what: string) => (err: unknown, pending: number) =>
      logger.log('error', `could not write ${what}; will retry`, { pending, error: err instanceof Error ? err.message : String(err) });
    // Runs wait in typed arrays, not objects: see RunRecordColumns.
    const runs = new BatchWriter<RunRecord>((items) => logDb.write(items, []), 250, onFlushError('run records'), new RunRecordColumns());
    const denied = new BatchWriter<AccessDeniedRecord>((items) => logDb.write([], items), 250, onFlushError('access records'));
    const auditWriter = new BatchWriter<AuditEvent>((items) => { audit.appendMany(items); }, 50, onFlushError('audit entries'));

    let cache: RegistryCache<unknown> | undefined;
    let doors: { queues: QueueRuntime; cron: CronDoor } | undefined;
    const snapshot = () => (cache as RegistryCache<unknown>).current();
    const callFlow = deployedFlowCaller<unknown>(snapshot, () => runner, readiness.values);
    const enqueue = stepEnqueuer(snapshot, () => (doors as { queues: QueueRuntime }).queues, auditWriter);
    const runner: FlowRunner<unknown> = options.runner ?? defaultRunner(logger, { callFlow, enqueue });
    const follow = (registry: RegistrySnapshot<unknown>): void => {
      for (const broken of registry.broken) logger.log('error', 'deployed flow cannot be run', { flow: broken });
      if (!doors) return;
      const flows = [...registry.flows()];
      doors.queues.sync(flows.map((f) => ({ tenant: f.tenant, name: f.name, concurrency: f.ir.concurrency })));
      doors.cron.sync(flows.map((f) => ({ tenant: f.tenant, name: f.name, schedule: f.ir.schedule })));
    };
    cache = new RegistryCache<unknown>(paths.registry, (ir) => runner.prepare(ir), follow);
    const limiter = new RateLimiter();
    const readsOf = runner.inputNeeds?.bind(runner);
    const gate = new Gate<unknown>(
      () => cache.current(),
      limiter,
      () => Date.now(),
      { auth: settings.auth, signatures: settings.secret !== undefined, maxMessageBytes: settings.maxMessageBytes },
      readsOf === undefined ? undefined : (prepared) => readsOf(prepared),
    );
    const queues = new QueueRuntime(paths.queues, (m) => app.commands.execute(new DeliverMessage(m, newMeta(m.correlationId))), logger);
    const cron = new CronDoor((tenant, flow, firedAt) => {
      app.commands.execute(new RunScheduledFlow(tenant, flow, firedAt)).catch((err: unknown) => logger.log('error', 'cron tick failed', { tenant, flow, error: err instanceof Error ? err.message : String(err) }));
    }, logger);
    const context: ServeContext = { settings, values: readiness.values, cache, gate, runner, accessLog: new AccessLog(logger, denied, auditWriter), runs, audit: auditWriter, queues, logger };
    app.container.bind<ServeContext>(TOKENS.ServeContext).toConstantValue(context);
    doors = { queues, cron };
    follow(cache.current());
    const poll = setInterval(() => {
      try {
        cache?.current();
      } catch (err) {
        logger.log('error', 'registry look-up failed', { error: err instanceof Error ? err.message : String(err) });
      }
    }, REGISTRY_POLL_MS);
    poll.unref();
    for (const f of readiness.flows) {
      if (f.inboundGrpc) logger.log('warn', 'flow declares inbound: grpc but the gRPC door is off (start with --grpc-port)', { tenant: f.tenant, flow: f.name });
    }

    const requestTimeout = options.requestTimeoutMs ?? 30_000;
    const koa = buildHttpApp(app.commands, app.queries, logger, requestTimeout);
    const server: Server = createServer(koa.callback());
    // Headers must arrive within the timeout (Node answers 408); the body is bounded by the
    // route (408 request_timeout); Node's own request timeout is the backstop.
    server.headersTimeout = requestTimeout;
    server.requestTimeout = requestTimeout + 5_000;
    server.keepAliveTimeout = 5_000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', (err: NodeJS.ErrnoException) =>
        reject(new SvcError('refused', `cannot listen on ${options.host}:${options.port}: ${err.code === 'EADDRINUSE' ? 'the address is already in use' : err.message}`, undefined, { cause: err })),
      );
      server.listen(options.port, options.host, () => resolve());
    });
    const port = (server.address() as AddressInfo).port;
    const hostForUrl = options.host.includes(':') ? `[${options.host}]` : options.host;
    const url = `http://${hostForUrl}:${port}`;
    const banner = [
      `svc serve listening on ${url}`,
      `registry db: ${paths.registry}`,
      `ui db:       ${paths.ui}`,
      `audit db:    ${paths.audit}`,
      `log db:      ${paths.log}`,
      `queue dir:   ${paths.queues}`,
      `flows:       ${readiness.flows.length} deployed${readiness.flows.length ? ` (${readiness.flows.map((f) => `${f.tenant}/${f.name}@${f.version}`).join(', ')})` : ''}`,
      `webhook signature verification: ${settings.secret === undefined ? 'disabled' : 'enabled'}`,
      `API key authentication: ${settings.auth ? 'enabled' : 'DISABLED (--no-auth)'}`,
    ];
    if (!settings.auth) logger.log('warn', 'API key authentication is DISABLED (--no-auth): run, enqueue, events and flow information answer without a key; development only');

    let closing: Promise<void> | undefined;
    const close = (): Promise<void> => {
      closing ??= (async () => {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeIdleConnections();
          setTimeout(() => server.closeAllConnections(), 10_000).unref();
        });
        clearInterval(poll);
        cron.close();
        await queues.close(10_000);
        runs.close();
        denied.close();
        auditWriter.close();
        cache.close();
        logDb.close();
        await app.close();
      })();
      return closing;
    };
    return { url, port, banner, context, app, close };
  } catch (err) {
    await app.close();
    throw err;
  }
}
