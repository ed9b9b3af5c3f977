/** io-ts codecs of the step types (FLOW-LANGUAGE.md section 4) and how each field is read. */
import * as t from 'io-ts';
import { STEP_ID, STEP_ID_TEXT, suggestStepId } from '../ids';
import { ExprString, NameId } from './front-matter.codec';
import {
  AnyValue,
  Bool,
  MapValue,
  NonEmptyStr,
  NonNegInt,
  PositiveInt,
  Str,
  alt,
  listOf,
  oneOf,
  pattern,
  refined,
  struct,
} from './kit';

export const STEP_TYPES = [
  'transform',
  'validate',
  'http',
  'oauth2_token',
  'grpc',
  'call_flow',
  'include',
  'foreach',
  'switch',
  'enqueue',
  'correlate_open',
  'correlate_close',
  'log',
  'fail',
  'respond',
] as const;
export type StepType = (typeof STEP_TYPES)[number];

export function isStepType(s: string): s is StepType {
  return (STEP_TYPES as readonly string[]).includes(s);
}

export const StepIdCodec = pattern(`a step id matching ${STEP_ID_TEXT}`, STEP_ID, suggestStepId);

/** `when`: an expression, or a literal boolean. */
export const WhenValue = alt<string | boolean>('an expression or true/false', [
  { when: (u) => typeof u === 'string', codec: ExprString },
  { when: (u) => typeof u === 'boolean', codec: Bool },
]);

/** A string field that may hold `${...}` templates. */
export const TplString = Str;

const hasTemplate = (s: string): boolean => s.includes('${');

/** An integer literal or a `${...}` expression yielding one (checked at run time). */
export const IntOrExpr = refined(
  'an integer or a ${...} expression',
  (u): u is number | string => (typeof u === 'number' && Number.isSafeInteger(u)) || (typeof u === 'string' && hasTemplate(u)),
);

/** A list of step maps (nested steps of foreach / switch). */
export const StepList = listOf('a list of steps', MapValue, { nonEmpty: true });

const ExpectItem = refined(
  "an HTTP status (e.g. 200) or a range ('200-299', '2xx')",
  (u): u is number | string => (typeof u === 'number' && Number.isSafeInteger(u)) || (typeof u === 'string' && u.trim() !== ''),
);
export const Expect = alt<number | string | Array<number | string>>("a status, a range such as '200-299' or '2xx', or a list of them", [
  { when: (u) => !Array.isArray(u), codec: ExpectItem },
  { when: (u) => Array.isArray(u), codec: listOf('a list of statuses or ranges', ExpectItem, { nonEmpty: true }) },
]);

export const StepRetry = struct('a map {attempts, backoff_ms}', {}, { attempts: PositiveInt, backoff_ms: NonNegInt });

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const;
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;

const LibName = NonEmptyStr;
const ProtoVersion = refined('a version string', (u): u is string | number => (typeof u === 'string' && u.trim() !== '') || (typeof u === 'number' && Number.isFinite(u)));

const base = { id: StepIdCodec, type: Str };
const common = { when: WhenValue, on_error: oneOf(['fail', 'continue'] as const), timeout_ms: PositiveInt };
const egress = { ...common, retry: StepRetry };

export const SwitchCase = struct('a map {when, steps}', { when: WhenValue, steps: StepList }, {});

export const STEP_CODECS: Record<StepType, t.Decoder<unknown, Record<string, unknown>>> = {
  transform: struct('a transform step', { ...base, value: AnyValue }, { ...common }),
  validate: struct('a validate step', { ...base, schema: MapValue }, { ...common, value: AnyValue }),
  http: struct('an http step', { ...base, url: TplString }, {
    ...egress,
    method: oneOf(HTTP_METHODS),
    headers: MapValue,
    query: MapValue,
    body: AnyValue,
    content_type: NonEmptyStr,
    expect: Expect,
    tls: Bool,
  }),
  oauth2_token: struct('an oauth2_token step', { ...base, token_url: TplString, client_id: TplString, client_secret: TplString }, {
    ...egress,
    scope: TplString,
    audience: TplString,
  }),
  grpc: struct('a grpc step', { ...base, target: TplString, proto: NonEmptyStr, service: NonEmptyStr, method: NonEmptyStr }, {
    ...egress,
    proto_version: ProtoVersion,
    message: AnyValue,
    metadata: MapValue,
    tls: Bool,
  }),
  call_flow: struct('a call_flow step', { ...base }, { ...common, lib: LibName, flow: NameId, input: AnyValue }),
  include: struct('an include step', { ...base, lib: LibName }, {}, (key) =>
    key in common ? `an include step takes only id, type and lib: its steps are spliced in place, put '${key}' on them or use call_flow` : undefined,
  ),
  foreach: struct('a foreach step', { ...base, items: ExprString, steps: StepList }, { ...common, parallel: PositiveInt }),
  switch: struct('a switch step', { ...base, cases: listOf('a list of {when, steps}', SwitchCase, { nonEmpty: true }) }, {
    ...common,
    default: StepList,
  }),
  enqueue: struct('an enqueue step', { ...base, flow: NameId }, { ...common, body: AnyValue }),
  correlate_open: struct('a correlate_open step', { ...base, key: ExprString, deadline: NonEmptyStr }, {
    ...common,
    on_timeout: NameId,
    state: AnyValue,
  }),
  correlate_close: struct('a correlate_close step', { ...base, key: ExprString }, { ...common }),
  log: struct('a log step', { ...base, message: AnyValue }, { ...common, level: oneOf(LOG_LEVELS) }),
  fail: struct('a fail step', { ...base }, { ...common, status: IntOrExpr, code: TplString, message: TplString }),
  respond: struct('a respond step', { ...base }, { ...common, status: IntOrExpr, headers: MapValue, body: AnyValue }),
};

/**
 * How each field's value is read:
 * - `tpl`: a template (strings with `${...}` are evaluated, everything else literal),
 * - `expr`: an expression (a `${...}` template or a bare JSONata expression; booleans literal),
 * - `lit`: a literal (never evaluated),
 * - `steps` / `cases`: nested steps.
 */
export type FieldKind = 'tpl' | 'expr' | 'lit' | 'steps' | 'cases';

const COMMON_KINDS: Record<string, FieldKind> = { id: 'lit', type: 'lit', when: 'expr', on_error: 'lit', timeout_ms: 'lit', retry: 'lit' };

export const FIELD_KINDS: Record<StepType, Record<string, FieldKind>> = {
  transform: { value: 'tpl' },
  validate: { value: 'tpl', schema: 'lit' },
  http: { method: 'lit', url: 'tpl', headers: 'tpl', query: 'tpl', body: 'tpl', content_type: 'lit', expect: 'lit', tls: 'lit' },
  oauth2_token: { token_url: 'tpl', client_id: 'tpl', client_secret: 'tpl', scope: 'tpl', audience: 'tpl' },
  grpc: { target: 'tpl', proto: 'lit', proto_version: 'lit', service: 'lit', method: 'lit', message: 'tpl', metadata: 'tpl', tls: 'lit' },
  call_flow: { lib: 'lit', flow: 'lit', input: 'tpl' },
  include: { lib: 'lit' },
  foreach: { items: 'expr', steps: 'steps', parallel: 'lit' },
  switch: { cases: 'cases', default: 'steps' },
  enqueue: { flow: 'lit', body: 'tpl' },
  correlate_open: { key: 'expr', deadline: 'lit', on_timeout: 'lit', state: 'tpl' },
  correlate_close: { key: 'expr' },
  log: { level: 'lit', message: 'tpl' },
  fail: { status: 'tpl', code: 'tpl', message: 'tpl' },
  respond: { status: 'tpl', headers: 'tpl', body: 'tpl' },
};

export function fieldKind(type: StepType, field: string): FieldKind {
  return FIELD_KINDS[type][field] ?? COMMON_KINDS[field] ?? 'lit';
}

export const EGRESS_TYPES: ReadonlySet<StepType> = new Set<StepType>(['http', 'oauth2_token', 'grpc']);

