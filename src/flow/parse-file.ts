/** Parses one flow or library file: source, front matter, step blocks, step shapes. */
import { isLeft } from 'fp-ts/lib/Either';
import { FlowFrontMatter, LibraryFrontMatter } from './codecs/front-matter.codec';
import { describeErrors } from './codecs/kit';
import { DiagnosticSink, isPlainObject, show } from './diagnostics';
import { extractSteps } from './markdown-steps';
import type { ParsedFile, StepNode } from './model';
import { readFlowSource } from './source';
import { splitFrontMatter } from './front-matter';
import { decodeStep } from './steps';
import { type Path, parseYamlAt } from './yaml-located';

const QUOTE_HINT =
  " (a value with an expression that contains ': ', ' #' or starts with '{' or '[' must be quoted in YAML: '${a ? b : c}', or use a block scalar '|')";

const DEDUP_SETTINGS = ['dedup_window_hours', 'dedup_lease_seconds', 'dedup_memoize_response', 'dedup_on_failure'];

export function parseFile(file: string, kind: 'flow' | 'library', sink: DiagnosticSink): ParsedFile | undefined {
  const src = readFlowSource(file);
  if (!src.ok) {
    sink.add(file, src.line, src.message);
    return undefined;
  }
  const split = splitFrontMatter(src.text);
  if (!split.ok) {
    sink.add(file, split.line, split.message);
    return undefined;
  }
  const fm = parseYamlAt(split.yaml, split.yamlFirstLine);
  const fmError = fm.errors[0];
  if (fmError !== undefined) {
    const text = split.yaml.split('\n')[fmError.line - split.yamlFirstLine] ?? '';
    sink.add(file, fmError.line, `front matter: ${fmError.message}${text.includes('${') ? QUOTE_HINT : ''}`);
  }
  const fmLine = (p: Path): number => fm.lines.at(p);
  let raw: Record<string, unknown> = {};
  let fmOk = fm.errors.length === 0;
  if (fmOk) {
    if (isPlainObject(fm.value)) raw = fm.value;
    else {
      fmOk = false;
      sink.add(file, split.yamlFirstLine - 1, `front matter must be a YAML map of settings (tenant, flow, ...), got ${show(fm.value)}`);
    }
  }
  const parsed: ParsedFile = {
    file,
    kind,
    raw,
    settings: {},
    fmLine,
    steps: [],
    doc: '',
    config: keyList(raw['config']),
    secrets: keyList(raw['secrets']),
    unresolved: new Set<string>(),
  };
  if (fmOk) decodeFrontMatter(parsed, sink);

  const body = extractSteps(split.body, split.bodyFirstLine);
  parsed.doc = body.doc;
  for (const p of body.problems) sink.add(file, p.line, p.message);
  for (const block of body.blocks) {
    const y = parseYamlAt(block.yaml, block.firstLine);
    const firstError = y.errors[0];
    if (firstError !== undefined) {
      // Later YAML errors of the same block are usually consequences of the first.
      const id = /^id:[ \t]*["']?([a-z][a-z0-9_]*)/m.exec(block.yaml)?.[1];
      if (id !== undefined) parsed.unresolved.add(id);
      const text = block.yaml.split('\n')[firstError.line - block.firstLine] ?? '';
      const hint = text.includes('${') ? QUOTE_HINT : '';
      sink.add(file, firstError.line, `step block${id !== undefined ? ` '${id}'` : ''} (line ${block.fenceLine}): ${firstError.message}${hint}`);
      continue;
    }
    if (y.value === null || y.value === undefined) {
      sink.add(file, block.fenceLine, "step block is empty: a step needs at least 'id' and 'type'");
      continue;
    }
    y.lines.set([], block.firstLine);
    const node: StepNode | undefined = decodeStep(y.value, [], { file, lines: y.lines, sink, unresolved: parsed.unresolved });
    if (node !== undefined) parsed.steps.push(node);
  }
  return parsed;
}

function keyList(u: unknown): string[] {
  return Array.isArray(u) ? u.filter((x): x is string => typeof x === 'string') : [];
}

function decodeFrontMatter(parsed: ParsedFile, sink: DiagnosticSink): void {
  const { raw, file, fmLine } = parsed;
  const where = (p: Path): number => fmLine(p);
  if (parsed.kind === 'flow' && 'library' in raw && !('tenant' in raw) && !('flow' in raw)) {
    sink.add(
      file,
      where(['library']),
      `front matter: this is a library file ('library: ${String(raw['library'])}'), not a flow; check it through a flow that includes it or calls it with call_flow`,
    );
    return;
  }
  if (parsed.kind === 'library' && !('library' in raw)) {
    sink.add(
      file,
      where([]),
      "front matter: not a library file: a library's front matter has 'library: <name>' (and optionally description, config, secrets) instead of tenant and flow",
    );
    return;
  }
  const report = (errors: Parameters<typeof describeErrors>[0]): void => {
    for (const e of describeErrors(errors)) sink.add(file, where(e.path), `front matter: ${e.message}`);
  };
  if (parsed.kind === 'flow') {
    // Key by key: the keys that decode are kept (and checked further) even when others fail.
    const d = FlowFrontMatter.decodeFields(raw);
    parsed.settings = d.value;
    report(d.errors);
    parsed.flow = d.whole;
  } else {
    const d = LibraryFrontMatter.decode(raw);
    if (isLeft(d)) report(d.left);
    else parsed.library = d.right;
  }
  // Cross-key rules.
  const keys = (name: 'config' | 'secrets'): void => {
    const list = raw[name];
    if (!Array.isArray(list)) return;
    const seen = new Set<string>();
    list.forEach((k, i) => {
      if (typeof k !== 'string') return;
      if (seen.has(k)) sink.add(file, where([name, i]), `front matter: '${name}' lists '${k}' twice`);
      seen.add(k);
    });
  };
  keys('config');
  keys('secrets');
  const secrets = new Set(parsed.secrets);
  parsed.config.forEach((k, i) => {
    if (secrets.has(k)) sink.add(file, where(['config', i]), `front matter: '${k}' is declared both in 'config' and in 'secrets'; keep it in one list`);
  });
  if (parsed.kind === 'flow') {
    if (!('dedup_key' in raw)) {
      for (const k of DEDUP_SETTINGS) {
        if (k in raw) sink.add(file, where([k]), `front matter: '${k}' has no effect without 'dedup_key' (the business key of deduplication)`);
      }
    }
    if ('tls_client_key' in raw && !('tls_client_cert' in raw)) {
      sink.add(file, where(['tls_client_key']), "front matter: 'tls_client_key' needs 'tls_client_cert' (the certificate of that key)");
    }
    if ('tls_client_cert' in raw && !('tls_client_key' in raw)) {
      sink.add(file, where(['tls_client_cert']), "front matter: 'tls_client_cert' needs 'tls_client_key' (the private key of that certificate)");
    }
  }
}
