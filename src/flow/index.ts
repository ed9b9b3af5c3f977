/**
 * The flow language library: validate and compile `.flow.md` files into the JSON IR.
 * Pure and storage-free; file reading is synchronous. Bad input never throws: every problem
 * is a Diagnostic naming the file and line.
 */
import { createHash } from 'crypto';
import { buildFlowIr } from './build-ir';
import { DiagnosticSink, type Diagnostic } from './diagnostics';
import type { FlowIR } from './ir';
import { renderIr } from './ir';
import { LibraryLoader, union } from './libraries';
import type { ParsedFile, StepNode } from './model';
import { checkFrontMatterExpression, checkNames } from './names';
import { parseFile } from './parse-file';

export type { Diagnostic } from './diagnostics';
export type {
  FlowIR,
  StepIR,
  ValueIR,
  ExprIR,
  TplIR,
  JsonValue,
  JsonSchemaIR,
  EffectName,
  StepRetryIR,
  ScheduleIR,
  DedupIR,
  MaxMessageBytesIR,
  TransformStepIR,
  ValidateStepIR,
  HttpStepIR,
  OAuth2TokenStepIR,
  GrpcStepIR,
  CallFlowStepIR,
  CallFlowLibIR,
  ForeachStepIR,
  SwitchStepIR,
  SwitchCaseIR,
  EnqueueStepIR,
  CorrelateOpenStepIR,
  CorrelateCloseStepIR,
  LogStepIR,
  FailStepIR,
  RespondStepIR,
} from './ir';
export { IR_VERSION, checkIrVersion, renderIr } from './ir';
export { EXTRA_FUNCTIONS } from './lower';
export { MAX_FLOW_FILE_BYTES } from './source';
export { STEP_TYPES } from './codecs/steps.codec';

export interface FlowLoadOptions {
  /** Folder of library files for `include` and `call_flow: {lib}`. */
  libsDir?: string;
  /** Resolve tls_client_cert / tls_client_key / tls_ca_cert against the flow file's folder (deploy). */
  resolvePaths?: boolean;
}

export type ValidateResult =
  | { ok: true; file: string; tenant: string; name: string; stepCount: number }
  | { ok: false; diagnostics: Diagnostic[] };

export type CompileResult =
  | { ok: true; ir: FlowIR; json: string; hash: string }
  | { ok: false; diagnostics: Diagnostic[] };

interface Analysis {
  sink: DiagnosticSink;
  parsed?: ParsedFile;
  steps: StepNode[];
  config: string[];
  secrets: string[];
}

/** Parse, splice libraries and resolve names: what `validate` checks. */
function analyse(path: string, opts: FlowLoadOptions): Analysis {
  const sink = new DiagnosticSink(path);
  const parsed = parseFile(path, 'flow', sink);
  if (parsed === undefined) return { sink, steps: [], config: [], secrets: [] };
  const loader = new LibraryLoader(opts.libsDir, sink);
  const resolved = loader.resolve(parsed.steps);
  const config = union(parsed.config, ...resolved.used.map((l) => l.config));
  const secrets = union(parsed.secrets, ...resolved.used.map((l) => l.secrets));
  checkNames(resolved.steps, { config, secrets, failedPrefixes: resolved.failedPrefixes, unresolved: parsed.unresolved, sink });
  const dedupKey = parsed.raw['dedup_key'];
  if (typeof dedupKey === 'string') {
    checkFrontMatterExpression(dedupKey, 'dedup_key', { config, secrets }, (m) => sink.add(path, parsed.fmLine(['dedup_key']), m));
  }
  return { sink, parsed, steps: resolved.steps, config, secrets };
}

function internalError(path: string, e: unknown): { ok: false; diagnostics: Diagnostic[] } {
  const message = e instanceof Error ? e.message : String(e);
  return { ok: false, diagnostics: [{ file: path, line: 1, message: `internal error while reading the flow: ${message}` }] };
}

export function validateFlowFile(path: string, opts: FlowLoadOptions = {}): ValidateResult {
  try {
    const a = analyse(path, opts);
    const flow = a.parsed?.flow;
    if (a.sink.count > 0 || flow === undefined) {
      const diagnostics = a.sink.list();
      return { ok: false, diagnostics: diagnostics.length > 0 ? diagnostics : [{ file: path, line: 1, message: 'not a valid flow file' }] };
    }
    return { ok: true, file: path, tenant: flow.tenant, name: flow.flow, stepCount: a.steps.length };
  } catch (e) {
    return internalError(path, e);
  }
}

export function compileFlowFile(path: string, opts: FlowLoadOptions = {}): CompileResult {
  try {
    const a = analyse(path, opts);
    if (a.parsed === undefined) {
      const diagnostics = a.sink.list();
      return { ok: false, diagnostics: diagnostics.length > 0 ? diagnostics : [{ file: path, line: 1, message: 'not a valid flow file' }] };
    }
    // Runs also when some front-matter keys have errors: the keys that decoded and the steps
    // are still checked, so every problem is reported; no IR is built then.
    const ir = buildFlowIr({
      parsed: a.parsed,
      steps: a.steps,
      config: a.config,
      secrets: a.secrets,
      resolvePaths: opts.resolvePaths === true,
      sink: a.sink,
    });
    if (a.sink.count > 0 || ir === undefined) {
      const diagnostics = a.sink.list();
      const fallback = a.parsed.flow === undefined ? 'not a valid flow file' : 'the flow could not be compiled';
      return { ok: false, diagnostics: diagnostics.length > 0 ? diagnostics : [{ file: path, line: 1, message: fallback }] };
    }
    const json = renderIr(ir, false);
    const hash = createHash('sha256').update(json, 'utf8').digest('hex');
    return { ok: true, ir, json, hash };
  } catch (e) {
    return internalError(path, e);
  }
}
