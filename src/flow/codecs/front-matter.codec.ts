/** io-ts codecs of the front matter of flow files and library files (FLOW-LANGUAGE.md section 2). */
import * as t from 'io-ts';
import { isPlainObject } from '../diagnostics';
import { KEY_ID, KEY_ID_TEXT, NAME_ID, NAME_ID_TEXT, suggestKey, suggestName } from '../ids';
import {
  AnyValue,
  Bool,
  MapValue,
  NonEmptyStr,
  NonNegInt,
  PositiveInt,
  PositiveNumber,
  Str,
  alt,
  listOf,
  oneOf,
  pattern,
  refined,
  struct,
} from './kit';

export const NameId = pattern(`a name matching ${NAME_ID_TEXT}`, NAME_ID, suggestName);
export const KeyName = pattern(`a key matching ${KEY_ID_TEXT}`, KEY_ID, suggestKey);
export const KeyList = listOf('a list of keys', KeyName);

/** An expression: a `${...}` template or a bare JSONata expression. */
export const ExprString = NonEmptyStr;

export const ScheduleMap = struct('a map {cron, timezone, body}', { cron: Str }, { timezone: NonEmptyStr, body: AnyValue });
export const Schedule = alt<string | t.TypeOf<typeof ScheduleMap>>('a cron string or a map {cron, timezone, body}', [
  { when: (u) => typeof u === 'string', codec: Str },
  { when: isPlainObject, codec: ScheduleMap },
]);

export const DOORS = ['run', 'enqueue', 'grpc', 'events'] as const;
export const MaxBytesMap = struct('a map of door (run, enqueue, grpc, events) to a positive integer', {}, {
  run: PositiveInt,
  enqueue: PositiveInt,
  grpc: PositiveInt,
  events: PositiveInt,
});
export const MaxMessageBytes = alt<number | t.TypeOf<typeof MaxBytesMap>>(
  'a positive integer or a map of door (run, enqueue, grpc, events) to a positive integer',
  [
    { when: (u) => typeof u === 'number', codec: PositiveInt },
    { when: isPlainObject, codec: MaxBytesMap },
  ],
);

export const FlowRetry = struct('a map {max_attempts, backoff_ms, max_backoff_ms}', {}, {
  max_attempts: PositiveInt,
  backoff_ms: NonNegInt,
  max_backoff_ms: NonNegInt,
});

export const Inbound = struct('a map {grpc: {proto, service, method}}', {
  grpc: struct('a map {proto, service, method}', { proto: NonEmptyStr, service: NonEmptyStr, method: NonEmptyStr }, {}),
}, {});

export const EventType = refined("an event type, or '*' for all", (u): u is string => typeof u === 'string' && u.trim() !== '');
export const Events = listOf('a list of {source, type}', struct('a map {source, type}', { source: NonEmptyStr, type: EventType }, {}));

export const JsonSchemaValue = MapValue;

const flowKeys = {
  description: Str,
  required_scope: NonEmptyStr,
  schedule: Schedule,
  input: JsonSchemaValue,
  output: JsonSchemaValue,
  config: KeyList,
  secrets: KeyList,
  max_message_bytes: MaxMessageBytes,
  timeout_ms: PositiveInt,
  retry: FlowRetry,
  concurrency: PositiveInt,
  dedup_key: ExprString,
  dedup_window_hours: PositiveNumber,
  dedup_lease_seconds: PositiveInt,
  dedup_memoize_response: Bool,
  dedup_on_failure: oneOf(['retry', 'absorb'] as const),
  inbound: Inbound,
  events: Events,
  tls_client_cert: NonEmptyStr,
  tls_client_key: NonEmptyStr,
  tls_ca_cert: NonEmptyStr,
};

const libraryOnly = (key: string): string | undefined =>
  key === 'library' ? "'library' marks a library file, which has no 'tenant' or 'flow'" : undefined;

export const FlowFrontMatter = struct('the front matter of a flow', { tenant: NameId, flow: NameId }, flowKeys, libraryOnly);
export type FlowFrontMatter = t.TypeOf<typeof FlowFrontMatter>;

const LIBRARY_ALLOWED = ['library', 'description', 'config', 'secrets'];
export const LibraryFrontMatter = struct(
  'the front matter of a library',
  { library: NameId },
  { description: Str, config: KeyList, secrets: KeyList },
  (key) =>
    key in flowKeys || key === 'tenant' || key === 'flow'
      ? `a library file takes only ${LIBRARY_ALLOWED.join(', ')}; '${key}' belongs to the flow that uses it`
      : undefined,
);
export type LibraryFrontMatter = t.TypeOf<typeof LibraryFrontMatter>;

export const FRONT_MATTER_KEYS = ['tenant', 'flow', ...Object.keys(flowKeys)];
