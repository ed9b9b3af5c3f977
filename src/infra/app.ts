import 'reflect-metadata';
import { Container } from 'inversify';
import type { AuditLog } from '../domain/audit';
import type { Clock } from '../domain/clock';
import { CommandBus, QueryBus } from './bus/bus';
import { HandlerRegistry } from './bus/handler-registry';
import { SqliteAuditLog } from './audit/sqlite-audit-log';
import type { DeadLetterStore } from '../domain/dead-letter';
import type { FlowCompiler } from '../domain/flow-compiler';
import { FileDeadLetterStore } from './dead-letter-store';
import { MikroApiKeyRepository } from './db/api-key-repository';
import { MikroFlowArtifactRepository } from './db/flow-artifact-repository';
import { FlowLanguageCompiler } from './flow-compiler';
import { RegistryDb } from './db/registry-db';
import { MikroTenantRepository } from './db/tenant-repository';
import { registerCommandHandlers, registerQueryHandlers } from './handler-catalog';
import { statePaths, type StatePaths } from './state-paths';
import { SystemClock } from './system-clock';
import { TOKENS } from './tokens';

export interface AppOptions {
  /** `--db`: the registry file; the other databases sit beside it. */
  readonly registry?: string;
  /** `svc audit --db`: the audit database itself. */
  readonly auditDb?: string;
  readonly clock?: Clock;
  /** The environment config checks read (default process.env, after .env was loaded). */
  readonly env?: NodeJS.ProcessEnv;
}

/** The composition root: one container, the two buses, and a way to release what was opened. */
export interface App {
  readonly container: Container;
  readonly commands: CommandBus;
  readonly queries: QueryBus;
  readonly paths: StatePaths;
  close(): Promise<void>;
}

export function createApp(options: AppOptions = {}): App {
  const paths = statePaths(options.registry);
  const auditFile = options.auditDb ?? paths.audit;
  const container = new Container();
  container.bind<StatePaths>(TOKENS.StatePaths).toConstantValue(paths);
  container.bind<string>(TOKENS.AuditDbFile).toConstantValue(auditFile);
  if (options.clock) container.bind<Clock>(TOKENS.Clock).toConstantValue(options.clock);
  else container.bind<Clock>(TOKENS.Clock).to(SystemClock).inSingletonScope();
  container.bind(TOKENS.RegistryDb).to(RegistryDb).inSingletonScope();
  container.bind(TOKENS.TenantRepository).to(MikroTenantRepository).inSingletonScope();
  container.bind(TOKENS.ApiKeyRepository).to(MikroApiKeyRepository).inSingletonScope();
  container.bind<AuditLog>(TOKENS.AuditLog).to(SqliteAuditLog).inSingletonScope();
  container.bind(TOKENS.FlowArtifactRepository).to(MikroFlowArtifactRepository).inSingletonScope();
  container.bind(TOKENS.LatestFlows).toService(TOKENS.FlowArtifactRepository);
  container.bind<FlowCompiler>(TOKENS.FlowCompiler).to(FlowLanguageCompiler).inSingletonScope();
  container.bind<DeadLetterStore>(TOKENS.DeadLetterStore).to(FileDeadLetterStore).inSingletonScope();
  container.bind<NodeJS.ProcessEnv>(TOKENS.Environment).toConstantValue(options.env ?? process.env);

  const commandHandlers = new HandlerRegistry();
  registerCommandHandlers(commandHandlers);
  const queryHandlers = new HandlerRegistry();
  registerQueryHandlers(queryHandlers);

  return {
    container,
    commands: new CommandBus(container, commandHandlers),
    queries: new QueryBus(container, queryHandlers),
    paths,
    async close() {
      // Both open their files lazily, so resolving them here costs nothing when unused.
      container.get<SqliteAuditLog>(TOKENS.AuditLog).close();
      await container.get<RegistryDb>(TOKENS.RegistryDb).close();
    },
  };
}
