import { CreateApiKey, RevokeApiKey } from '../commands/api-key-commands';
import { CreateTenant, DisableTenant, EnableTenant } from '../commands/tenant-commands';
import { ListApiKeys } from '../queries/api-key-queries';
import { ListAuditEntries, VerifyAuditChain } from '../queries/audit-queries';
import { ListTenants } from '../queries/tenant-queries';
import { DeployFlow } from '../commands/deploy-flow';
import { CheckConfig } from '../queries/config-check';
import { CompileFlowFile, ValidateFlowFile } from '../queries/flow-file-queries';
import { RunFlow } from '../commands/run-flow';
import { AdmitCall, VerifyBodySignature } from '../queries/gate-queries';
import { CheckServeReadiness } from '../queries/serve-readiness';
import { RecordRefusal } from '../commands/record-refusal';
import { FindPublicFlow, GetFlowInfo } from '../queries/flow-info';
import { DiscardDeadLetter, ReplayDeadLetter } from '../commands/dlq-commands';
import { ListDeadLetters } from '../queries/dlq-queries';
import { RunScheduledFlow } from '../commands/run-scheduled-flow';
import { AcceptEvent } from '../commands/accept-event';
import { DeliverMessage, EnqueueMessage } from '../commands/queue-commands';
import { AdmitEvent } from '../queries/gate-queries';
import type { HandlerRegistry } from './bus/handler-registry';

/**
 * Which handler serves which message. Handler modules are imported on first dispatch only, so
 * `svc --version` or `svc validate` never load the ORM.
 */
export function registerCommandHandlers(registry: HandlerRegistry): void {
  registry
    .register(CreateTenant, async () => (await import('../handlers/tenant/create-tenant.handler')).CreateTenantHandler)
    .register(DisableTenant, async () => (await import('../handlers/tenant/set-tenant-status.handler')).DisableTenantHandler)
    .register(EnableTenant, async () => (await import('../handlers/tenant/set-tenant-status.handler')).EnableTenantHandler)
    .register(CreateApiKey, async () => (await import('../handlers/keys/create-api-key.handler')).CreateApiKeyHandler)
    .register(RevokeApiKey, async () => (await import('../handlers/keys/revoke-api-key.handler')).RevokeApiKeyHandler)
    .register(ReplayDeadLetter, async () => (await import('../handlers/queue/dead-letter.handlers')).ReplayDeadLetterHandler)
    .register(DiscardDeadLetter, async () => (await import('../handlers/queue/dead-letter.handlers')).DiscardDeadLetterHandler)
    .register(RunScheduledFlow, async () => (await import('../handlers/cron/run-scheduled-flow.handler')).RunScheduledFlowHandler)
    .register(EnqueueMessage, async () => (await import('../handlers/queue/enqueue-message.handler')).EnqueueMessageHandler)
    .register(DeliverMessage, async () => (await import('../handlers/queue/deliver-message.handler')).DeliverMessageHandler)
    .register(AcceptEvent, async () => (await import('../handlers/events/accept-event.handler')).AcceptEventHandler)
    .register(DeployFlow, async () => (await import('../handlers/flow/deploy-flow.handler')).DeployFlowHandler)
    .register(RunFlow, async () => (await import('../handlers/run/run-flow.handler')).RunFlowHandler)
    .register(RecordRefusal, async () => (await import('../handlers/run/flow-info.handlers')).RecordRefusalHandler);
}

export function registerQueryHandlers(registry: HandlerRegistry): void {
  registry
    .register(ListDeadLetters, async () => (await import('../handlers/queue/dead-letter.handlers')).ListDeadLettersHandler)
    .register(AdmitEvent, async () => (await import('../handlers/gate/admit-event.handler')).AdmitEventHandler)
    .register(ListTenants, async () => (await import('../handlers/tenant/list-tenants.handler')).ListTenantsHandler)
    .register(ListApiKeys, async () => (await import('../handlers/keys/list-api-keys.handler')).ListApiKeysHandler)
    .register(ListAuditEntries, async () => (await import('../handlers/audit/audit-queries.handler')).ListAuditEntriesHandler)
    .register(VerifyAuditChain, async () => (await import('../handlers/audit/audit-queries.handler')).VerifyAuditChainHandler)
    .register(ValidateFlowFile, async () => (await import('../handlers/flow/flow-file.handlers')).ValidateFlowFileHandler)
    .register(CompileFlowFile, async () => (await import('../handlers/flow/flow-file.handlers')).CompileFlowFileHandler)
    .register(CheckConfig, async () => (await import('../handlers/flow/check-config.handler')).CheckConfigHandler)
    .register(CheckServeReadiness, async () => (await import('../handlers/serve/serve-readiness.handler')).CheckServeReadinessHandler)
    .register(AdmitCall, async () => (await import('../handlers/gate/admit-call.handler')).AdmitCallHandler)
    .register(VerifyBodySignature, async () => (await import('../handlers/gate/verify-signature.handler')).VerifyBodySignatureHandler)
    .register(GetFlowInfo, async () => (await import('../handlers/run/flow-info.handlers')).GetFlowInfoHandler)
    .register(FindPublicFlow, async () => (await import('../handlers/run/flow-info.handlers')).FindPublicFlowHandler);
}
