/** Service identifiers for the container. Handlers depend on these, never on concrete classes. */
export const TOKENS = {
  StatePaths: Symbol.for('svc.StatePaths'),
  Clock: Symbol.for('svc.Clock'),
  Logger: Symbol.for('svc.Logger'),
  RegistryDb: Symbol.for('svc.RegistryDb'),
  TenantRepository: Symbol.for('svc.TenantRepository'),
  ApiKeyRepository: Symbol.for('svc.ApiKeyRepository'),
  AuditLog: Symbol.for('svc.AuditLog'),
  AuditDbFile: Symbol.for('svc.AuditDbFile'),
  FlowArtifactRepository: Symbol.for('svc.FlowArtifactRepository'),
  LatestFlows: Symbol.for('svc.LatestFlows'),
  FlowCompiler: Symbol.for('svc.FlowCompiler'),
  Environment: Symbol.for('svc.Environment'),
  ServeContext: Symbol.for('svc.ServeContext'),
  DeadLetterStore: Symbol.for('svc.DeadLetterStore'),
} as const;
