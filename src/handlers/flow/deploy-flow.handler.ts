import { inject, injectable } from 'inversify';
import type { DeployFlow, DeployedFlow } from '../../commands/deploy-flow';
import type { AuditLog } from '../../domain/audit';
import type { Clock } from '../../domain/clock';
import { notFound, refused, usageError } from '../../domain/errors';
import { FLOW_VERSION_PATTERN, type FlowArtifactRepository } from '../../domain/flow-artifact';
import type { FlowCompiler } from '../../domain/flow-compiler';
import type { CommandHandler } from '../../domain/message';
import type { TenantRepository } from '../../domain/tenant';
import { TOKENS } from '../../infra/tokens';
import { flowFileError } from './diagnostics-error';

@injectable()
export class DeployFlowHandler implements CommandHandler<DeployFlow> {
  constructor(
    @inject(TOKENS.FlowCompiler) private readonly compiler: FlowCompiler,
    @inject(TOKENS.TenantRepository) private readonly tenants: TenantRepository,
    @inject(TOKENS.FlowArtifactRepository) private readonly artifacts: FlowArtifactRepository,
    @inject(TOKENS.AuditLog) private readonly audit: AuditLog,
    @inject(TOKENS.Clock) private readonly clock: Clock,
  ) {}

  async execute(command: DeployFlow): Promise<DeployedFlow> {
    if (!FLOW_VERSION_PATTERN.test(command.version)) {
      throw usageError(`--version '${command.version}' is not a valid version string`, 'use letters, digits, dots, dashes, underscores or plus signs, e.g. 1.0.0 or 2026-11-22.1');
    }
    const compiled = this.compiler.compile(command.path, { libsDir: command.libsDir, resolvePaths: true });
    if (!compiled.ok) throw flowFileError(command.path, compiled.diagnostics);
    const { tenant: tenantId, name } = compiled.ir.meta;

    const tenant = await this.tenants.find(tenantId);
    if (!tenant) {
      throw notFound(`tenant '${tenantId}' (from the front matter of ${command.path}) is not registered`, `register it first with: svc tenant create --id ${tenantId} --display-name <name>`);
    }
    if (tenant.status === 'disabled') {
      throw refused(`tenant '${tenantId}' is disabled; deploying to a disabled tenant is refused`, `enable it with: svc tenant enable --id ${tenantId}`);
    }

    const previous = await this.artifacts.latest(tenantId, name);
    const deployedAt = this.clock.now().toISOString();
    await this.artifacts.publish({ tenant: tenantId, name, version: command.version, hash: compiled.hash, ir: compiled.json, deployedAt });
    await this.audit.append({
      tenant: tenantId,
      eventType: 'flow.deployed',
      correlationId: command.meta.correlationId,
      details: { actor: 'cli', flow: name, version: command.version, hash: compiled.hash, previous_latest: previous?.version ?? null },
    });
    return { tenant: tenantId, name, version: command.version, hash: compiled.hash, previousLatest: previous?.version ?? null };
  }
}
