/**
 * The run engine: executes a compiled flow (FlowIR) for one request. Pure of Koa, oclif and the
 * ORM: HTTP egress, logging, the clock, called flows and queues come through EnginePorts.
 */
export { FlowEngine } from './engine';
export type { PreparedFlow } from './prepared-flow';
export { inputNeedsOf, READS_ALL } from './input-needs';
export type { InputNeeds } from './input-needs';
export type { Door, EngineClock, EngineLogger, EnginePorts, LogFields, LogLevel, RunError, RunInput, RunResult } from './types';
export { EgressError } from './egress/http-egress';
export type { EgressErrorKind, EgressRequest, EgressResponse, HttpEgress, TlsClientFiles } from './egress/http-egress';
export { UndiciEgress, createUndiciEgress } from './egress/undici-egress';
export type { UndiciEgressOptions } from './egress/undici-egress';
