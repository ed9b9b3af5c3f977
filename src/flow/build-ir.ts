/**
 * Compile-time checks of step and front-matter configuration, and assembly of the IR.
 * Keys are written in a fixed order so the same input always renders byte-identical JSON.
 */
import * as nodePath from 'path';
import { FlowRetry, ScheduleMap } from './codecs/front-matter.codec';
import { formatPath } from './codecs/kit';
import type { StepType } from './codecs/steps.codec';
import { canonicalTimeZone, checkCron, knownTimeZones } from './cron';
import { DiagnosticSink, closest, isPlainObject } from './diagnostics';
import { parseDuration } from './duration';
import { collectEffects } from './effects';
import {
  IR_VERSION,
  type DedupIR,
  type FlowIR,
  type JsonSchemaIR,
  type MaxMessageBytesIR,
  type ScheduleIR,
  type StepIR,
  type StepRetryIR,
  type ValueIR,
} from './ir';
import { checkSchema } from './json-schema';
import { type LowerContext, lowerValue, toJson } from './lower';
import type { ParsedFile, StepNode } from './model';
import type { PathSegment } from './yaml-located';

export interface BuildEnv {
  sink: DiagnosticSink;
  /** The flow declares TLS client material (tls: true on http/grpc steps needs it). */
  flowHasTls: boolean;
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const METADATA_KEY = /^[0-9A-Za-z._-]+$/;
const MAX_ATTEMPTS = 100;
const MAX_PARALLEL = 256;

export function buildSteps(nodes: readonly StepNode[], env: BuildEnv): StepIR[] | undefined {
  const out: StepIR[] = [];
  let ok = true;
  for (const n of nodes) {
    const s = buildStep(n, env);
    if (s === undefined) ok = false;
    else out.push(s);
  }
  return ok ? out : undefined;
}

function buildStep(node: StepNode, env: BuildEnv): StepIR | undefined {
  const label = `step '${node.id}'`;
  let ok = node.shapeOk;
  const report = (path: PathSegment[], message: string): void => {
    ok = false;
    env.sink.add(node.file, node.lineOf(path), `${label}: ${message}`);
  };
  const ctx: LowerContext = { refPrefix: node.refPrefix, report };
  const f = node.fields;
  const val = (field: string, kind: 'tpl' | 'expr' = 'tpl'): ValueIR => {
    const v = lowerValue(f[field], kind, [field], ctx);
    if (v === undefined) ok = false;
    return v ?? null;
  };
  const optVal = (field: string, kind: 'tpl' | 'expr' = 'tpl'): ValueIR | null => (f[field] === undefined ? null : val(field, kind));
  const orDefault = (field: string, fallback: unknown): ValueIR => {
    if (f[field] !== undefined) return val(field);
    return lowerValue(fallback, 'tpl', [field], ctx) ?? null;
  };
  const str = (field: string): string => {
    const v = f[field];
    return typeof v === 'string' ? v : '';
  };
  const optStr = (field: string): string | null => {
    const v = f[field];
    return typeof v === 'string' ? v : null;
  };
  const num = (field: string, fallback: number): number => {
    const v = f[field];
    return typeof v === 'number' ? v : fallback;
  };
  const bool = (field: string): boolean => f[field] === true;
  const head = {
    id: node.id,
    type: node.type as StepType,
    when: f['when'] === undefined ? null : val('when', 'expr'),
    on_error: f['on_error'] === 'continue' ? ('continue' as const) : ('fail' as const),
    timeout_ms: typeof f['timeout_ms'] === 'number' ? f['timeout_ms'] : null,
  };
  const retry = (): StepRetryIR | null => {
    const r = f['retry'];
    if (!isPlainObject(r)) return null;
    const attempts = typeof r['attempts'] === 'number' ? r['attempts'] : 3;
    const backoff = typeof r['backoff_ms'] === 'number' ? r['backoff_ms'] : 500;
    if (attempts > MAX_ATTEMPTS) report(['retry', 'attempts'], `'retry.attempts' must be at most ${MAX_ATTEMPTS}, got ${attempts}`);
    return { attempts, backoff_ms: backoff };
  };
  const tls = (): boolean => {
    const on = bool('tls');
    if (on && !env.flowHasTls) {
      report(['tls'], "'tls: true' needs TLS client material: set tls_client_cert and tls_client_key in the flow's front matter");
    }
    return on;
  };
  const checkKeys = (field: string, re: RegExp, what: string): void => {
    const m = f[field];
    if (!isPlainObject(m)) return;
    for (const k of Object.keys(m)) if (!re.test(k)) report([field, k], `'${field}': '${k}' is not a valid ${what}`);
  };
  const status = (field: string, fallback: number, lo: number, hi: number, what: string): ValueIR => {
    const v = f[field];
    if (typeof v === 'number' && (v < lo || v > hi)) report([field], `'${field}' must be ${what} (${lo}-${hi}), got ${v}`);
    return v === undefined ? fallback : val(field);
  };
  const nested = (list: readonly StepNode[] | undefined): StepIR[] => {
    const built = buildSteps(list ?? [], env);
    if (built === undefined) ok = false;
    return built ?? [];
  };

  let step: StepIR | undefined;
  switch (node.type) {
    case 'transform':
      step = { ...head, type: 'transform', value: val('value') };
      break;
    case 'validate': {
      const schema = f['schema'];
      for (const p of checkSchema(schema)) report(['schema', ...p.path], `'${formatPath(['schema', ...p.path])}': ${p.message}`);
      const json = toJson(schema, 0);
      step = { ...head, type: 'validate', value: orDefault('value', '${body}'), schema: isSchemaObject(json) ? json : {} };
      break;
    }
    case 'http': {
      checkKeys('headers', HEADER_NAME, 'HTTP header name');
      const method = f['method'];
      step = {
        ...head,
        type: 'http',
        method: method === 'POST' || method === 'PUT' || method === 'PATCH' || method === 'DELETE' || method === 'HEAD' || method === 'OPTIONS' ? method : 'GET',
        url: val('url'),
        headers: optVal('headers'),
        query: optVal('query'),
        body: optVal('body'),
        content_type: optStr('content_type'),
        expect: parseExpect(f['expect'], report),
        tls: tls(),
        retry: retry(),
      };
      break;
    }
    case 'oauth2_token':
      step = {
        ...head,
        type: 'oauth2_token',
        token_url: val('token_url'),
        client_id: val('client_id'),
        client_secret: val('client_secret'),
        scope: optVal('scope'),
        audience: optVal('audience'),
        retry: retry(),
      };
      break;
    case 'grpc': {
      const target = f['target'];
      if (typeof target === 'string' && !target.includes('${') && !/^(\[[0-9A-Fa-f:.]+\]|[^\s:[\]/]+):(\d{1,5})$/.test(target)) {
        report(['target'], `'target' must be host:port (for example 'erp.internal:443'), got '${target}'`);
      } else if (typeof target === 'string' && !target.includes('${')) {
        const port = Number(target.slice(target.lastIndexOf(':') + 1));
        if (port < 1 || port > 65535) report(['target'], `'target' port must be 1-65535, got ${port}`);
      }
      checkKeys('metadata', METADATA_KEY, 'gRPC metadata key');
      const pv = f['proto_version'];
      step = {
        ...head,
        type: 'grpc',
        target: val('target'),
        proto: str('proto'),
        proto_version: pv === undefined ? null : String(pv),
        service: str('service'),
        method: str('method'),
        message: orDefault('message', '${body}'),
        metadata: optVal('metadata'),
        tls: tls(),
        retry: retry(),
      };
      break;
    }
    case 'call_flow': {
      let lib: { name: string; steps: StepIR[] } | null = null;
      if (node.library !== undefined) lib = { name: node.library.name, steps: nested(node.library.steps) };
      else if (f['lib'] !== undefined) ok = false;
      step = { ...head, type: 'call_flow', lib, flow: optStr('flow'), input: orDefault('input', '${body}') };
      break;
    }
    case 'include':
      // Spliced away by the library loader; one left here failed to load (already reported).
      return undefined;
    case 'foreach': {
      const parallel = num('parallel', 1);
      if (parallel > MAX_PARALLEL) report(['parallel'], `'parallel' must be at most ${MAX_PARALLEL}, got ${parallel}`);
      step = { ...head, type: 'foreach', items: val('items', 'expr'), parallel, steps: nested(node.children) };
      break;
    }
    case 'switch': {
      const cases = (node.cases ?? []).map((c) => {
        const when = lowerValue(c.when, 'expr', [...c.path, 'when'], ctx);
        if (when === undefined) ok = false;
        return { when: when ?? null, steps: nested(c.steps) };
      });
      step = { ...head, type: 'switch', cases, default: nested(node.defaultSteps) };
      break;
    }
    case 'enqueue':
      step = { ...head, type: 'enqueue', flow: str('flow'), body: orDefault('body', '${body}') };
      break;
    case 'correlate_open': {
      const deadline = str('deadline');
      const d = parseDuration(deadline);
      if (!d.ok) report(['deadline'], `'deadline': ${d.message}`);
      step = {
        ...head,
        type: 'correlate_open',
        key: val('key', 'expr'),
        deadline,
        deadline_ms: d.ok ? d.ms : 0,
        on_timeout: optStr('on_timeout'),
        state: optVal('state'),
      };
      break;
    }
    case 'correlate_close':
      step = { ...head, type: 'correlate_close', key: val('key', 'expr') };
      break;
    case 'log': {
      const level = f['level'];
      step = {
        ...head,
        type: 'log',
        level: level === 'debug' || level === 'warn' || level === 'error' ? level : 'info',
        message: val('message'),
      };
      break;
    }
    case 'fail':
      step = {
        ...head,
        type: 'fail',
        status: status('status', 500, 400, 599, 'an error status'),
        code: orDefault('code', 'flow_error'),
        message: orDefault('message', `the flow failed at step '${node.id}'`),
      };
      break;
    case 'respond':
      checkKeys('headers', HEADER_NAME, 'HTTP header name');
      step = {
        ...head,
        type: 'respond',
        status: status('status', 200, 100, 599, 'an HTTP status'),
        headers: optVal('headers'),
        body: optVal('body'),
      };
      break;
  }
  return ok ? step : undefined;
}

function isSchemaObject(u: unknown): u is JsonSchemaIR {
  return isPlainObject(u);
}

/** `expect`: a status, a range 'a-b' or 'Nxx', or a list of them -> inclusive ranges. */
function parseExpect(raw: unknown, report: (path: PathSegment[], message: string) => void): Array<[number, number]> {
  if (raw === undefined) return [[200, 299]];
  const items = Array.isArray(raw) ? raw : [raw];
  const out: Array<[number, number]> = [];
  items.forEach((item, i) => {
    const path: PathSegment[] = Array.isArray(raw) ? ['expect', i] : ['expect'];
    const bad = (why: string): void => report(path, `'${formatPath(path)}': ${why}`);
    const inRange = (n: number): boolean => Number.isInteger(n) && n >= 100 && n <= 599;
    if (typeof item === 'number') {
      if (!inRange(item)) bad(`${item} is not an HTTP status (100-599)`);
      else out.push([item, item]);
      return;
    }
    const s = String(item).trim();
    let m = /^(\d{3})$/.exec(s);
    if (m !== null) {
      const n = Number(m[1]);
      if (!inRange(n)) bad(`${n} is not an HTTP status (100-599)`);
      else out.push([n, n]);
      return;
    }
    m = /^(\d{3})\s*-\s*(\d{3})$/.exec(s);
    if (m !== null) {
      const lo = Number(m[1]);
      const hi = Number(m[2]);
      if (!inRange(lo) || !inRange(hi) || lo > hi) bad(`'${s}' is not a range of HTTP statuses (100-599, low first)`);
      else out.push([lo, hi]);
      return;
    }
    m = /^([1-5])xx$/i.exec(s);
    if (m !== null) {
      const d = Number(m[1]) * 100;
      out.push([d, d + 99]);
      return;
    }
    bad(`'${s}' is not a status, a range such as '200-299' or a class such as '2xx'`);
  });
  return out;
}

export interface FlowBuildInput {
  parsed: ParsedFile;
  steps: readonly StepNode[];
  config: string[];
  secrets: string[];
  resolvePaths: boolean;
  sink: DiagnosticSink;
}

/**
 * Checks the front-matter settings and the steps, and assembles the IR. Every check runs on
 * the keys that decoded (`parsed.settings`), also when other keys failed their codecs, so one
 * bad key hides nothing; the IR itself is built only when the whole front matter decoded.
 */
export function buildFlowIr(input: FlowBuildInput): FlowIR | undefined {
  const { parsed, sink } = input;
  const fm = parsed.settings;
  const raw = parsed.raw;
  let ok = true;
  const report = (path: PathSegment[], message: string): void => {
    ok = false;
    sink.add(parsed.file, parsed.fmLine(path), `front matter: ${message}`);
  };

  // The parts of a schedule map that decoded are checked even when another part failed.
  const rawSchedule = raw['schedule'];
  let sched: { cron?: string; timezone?: string; body?: unknown; isMap: boolean } | undefined;
  if (typeof rawSchedule === 'string') sched = { cron: rawSchedule, isMap: false };
  else if (isPlainObject(rawSchedule)) sched = { ...ScheduleMap.decodeFields(rawSchedule).value, isMap: true };
  let schedule: ScheduleIR | null = null;
  if (sched !== undefined) {
    const cron = sched.cron ?? '';
    const cronPath: PathSegment[] = sched.isMap ? ['schedule', 'cron'] : ['schedule'];
    if (sched.cron !== undefined) for (const p of checkCron(cron)) report(cronPath, `'${formatPath(cronPath)}': ${p}`);
    const tz = sched.timezone ?? 'UTC';
    const canonical = canonicalTimeZone(tz);
    if (canonical === undefined) {
      const c = closest(tz, knownTimeZones());
      report(['schedule', 'timezone'], `'schedule.timezone': unknown time zone '${tz}' (an IANA name such as 'Europe/Berlin'${c !== undefined ? `; did you mean '${c}'?` : ''})`);
    }
    schedule = { cron: cron.trim().split(/\s+/).join(' '), timezone: canonical ?? tz, body: sched.isMap && sched.body !== undefined ? toJson(sched.body, 0) : {} };
  }

  const schema = (key: 'input' | 'output'): JsonSchemaIR | null => {
    const v = fm[key];
    if (v === undefined) return null;
    for (const p of checkSchema(v)) report([key, ...p.path], `'${formatPath([key, ...p.path])}': ${p.message}`);
    const json = toJson(v, 0);
    return isSchemaObject(json) ? json : null;
  };
  const inputSchema = schema('input');
  const outputSchema = schema('output');

  let maxBytes: MaxMessageBytesIR | null = null;
  const mmb = fm.max_message_bytes;
  if (typeof mmb === 'number') maxBytes = { run: mmb, enqueue: mmb, grpc: mmb, events: mmb };
  else if (mmb !== undefined) maxBytes = { run: mmb.run ?? null, enqueue: mmb.enqueue ?? null, grpc: mmb.grpc ?? null, events: mmb.events ?? null };

  // Like the schedule: the retry settings that decoded are compared even when another one failed.
  const rawRetry = raw['retry'];
  const retrySettings = fm.retry ?? (isPlainObject(rawRetry) ? FlowRetry.decodeFields(rawRetry).value : undefined);
  const retry = {
    max_attempts: retrySettings?.max_attempts ?? 5,
    backoff_ms: retrySettings?.backoff_ms ?? 500,
    max_backoff_ms: retrySettings?.max_backoff_ms ?? 60000,
  };
  if (retry.backoff_ms > retry.max_backoff_ms) {
    report(['retry'], `'retry.backoff_ms' (${retry.backoff_ms}) is larger than 'retry.max_backoff_ms' (${retry.max_backoff_ms})`);
  }

  let dedup: DedupIR | null = null;
  if (fm.dedup_key !== undefined) {
    const key = lowerValue(fm.dedup_key, 'expr', ['dedup_key'], { refPrefix: '', report: (p, m) => report(p, m) });
    dedup = {
      key: key ?? null,
      window_hours: fm.dedup_window_hours ?? 24,
      lease_seconds: fm.dedup_lease_seconds ?? 300,
      memoize_response: fm.dedup_memoize_response ?? false,
      on_failure: fm.dedup_on_failure ?? 'retry',
    };
  }

  const dir = nodePath.dirname(nodePath.resolve(parsed.file));
  const tlsPath = (p: string | undefined): string | null => {
    if (p === undefined) return null;
    return input.resolvePaths ? nodePath.resolve(dir, p) : p;
  };
  const hasTls = fm.tls_client_cert !== undefined || fm.tls_client_key !== undefined || fm.tls_ca_cert !== undefined;

  // Presence, not validity: a step's `tls: true` is not blamed for a badly written certificate path.
  const flowHasTls = 'tls_client_cert' in raw && 'tls_client_key' in raw;
  const steps = buildSteps(input.steps, { sink, flowHasTls });
  // Settings of keys that failed their codecs are missing: no IR then (the errors are reported).
  const whole = parsed.flow;
  if (steps === undefined || !ok || whole === undefined) return undefined;

  const ir: FlowIR = {
    meta: {
      name: whole.flow,
      tenant: whole.tenant,
      version: { major: IR_VERSION.major, minor: IR_VERSION.minor },
      effects: collectEffects(steps),
    },
    description: whole.description ?? null,
    required_scope: whole.required_scope ?? null,
    schedule,
    input: inputSchema,
    output: outputSchema,
    config: input.config,
    secrets: input.secrets,
    max_message_bytes: maxBytes,
    timeout_ms: whole.timeout_ms ?? 30000,
    retry,
    concurrency: whole.concurrency ?? 4,
    dedup,
    inbound: whole.inbound !== undefined ? { grpc: { proto: whole.inbound.grpc.proto, service: whole.inbound.grpc.service, method: whole.inbound.grpc.method } } : null,
    events: (whole.events ?? []).map((e) => ({ source: e.source, type: e.type })),
    tls: hasTls ? { client_cert: tlsPath(whole.tls_client_cert), client_key: tlsPath(whole.tls_client_key), ca_cert: tlsPath(whole.tls_ca_cert) } : null,
    steps,
    doc: parsed.doc,
  };
  return ir;
}
