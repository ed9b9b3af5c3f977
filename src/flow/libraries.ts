/**
 * Library files (FLOW-LANGUAGE.md section 5): loading by name from the libs folder, cycle
 * detection, `include` splicing (ids prefixed `<include id>__`) and `call_flow {lib}`.
 */
import * as fs from 'fs';
import * as nodePath from 'path';
import { DiagnosticSink, closest } from './diagnostics';
import type { LoadedLibrary, StepNode } from './model';
import { checkNames } from './names';
import { parseFile } from './parse-file';

export const LIB_SUFFIX = '.flow.md';
const LIB_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.\-/]*$/;

export interface ResolvedSteps {
  steps: StepNode[];
  /** Libraries used directly (include and call_flow). */
  used: LoadedLibrary[];
  /** Id prefixes of includes that could not be loaded (references to them are not reported). */
  failedPrefixes: string[];
}

export class LibraryLoader {
  private readonly cache = new Map<string, LoadedLibrary | null>();
  private readonly stack: Array<{ abs: string; name: string }> = [];
  private listing: string[] | undefined;

  constructor(
    private readonly libsDir: string | undefined,
    private readonly sink: DiagnosticSink,
  ) {}

  /** Splices includes and loads call_flow libraries in a list of steps (recursively). */
  resolve(steps: readonly StepNode[]): ResolvedSteps {
    const used: LoadedLibrary[] = [];
    const failedPrefixes: string[] = [];
    const walk = (list: readonly StepNode[]): StepNode[] => {
      const out: StepNode[] = [];
      for (const s of list) {
        if (s.type === 'include') {
          const lib = this.loadFor(s);
          if (lib === undefined) {
            failedPrefixes.push(`${s.id}__`);
            continue;
          }
          used.push(lib);
          for (const ls of lib.steps) out.push(splice(ls, `${s.id}__`, lib.name));
          continue;
        }
        const copy: StepNode = { ...s };
        if (s.type === 'call_flow' && typeof s.fields['lib'] === 'string') {
          const lib = this.loadFor(s);
          if (lib !== undefined) {
            copy.library = lib;
            used.push(lib);
          }
        }
        if (s.children) copy.children = walk(s.children);
        if (s.cases) copy.cases = s.cases.map((c) => ({ ...c, steps: walk(c.steps) }));
        if (s.defaultSteps) copy.defaultSteps = walk(s.defaultSteps);
        out.push(copy);
      }
      return out;
    };
    return { steps: walk(steps), used, failedPrefixes };
  }

  private loadFor(s: StepNode): LoadedLibrary | undefined {
    const name = s.fields['lib'];
    if (typeof name !== 'string') return undefined;
    return this.load(name, s);
  }

  load(rawName: string, from: StepNode): LoadedLibrary | undefined {
    const label = `step '${from.id}'`;
    const line = from.lineOf(['lib']);
    const name = rawName.endsWith(LIB_SUFFIX) ? rawName.slice(0, -LIB_SUFFIX.length) : rawName;
    if (!LIB_NAME.test(name) || name.split('/').some((seg) => seg === '..' || seg === '.' || seg === '')) {
      this.sink.add(from.file, line, `${label}: library name '${rawName}' must be a relative path inside the libs folder (letters, digits, _ - . and /, no '..')`);
      return undefined;
    }
    if (this.libsDir === undefined) {
      this.sink.add(from.file, line, `${label}: library '${name}' cannot be found: no libraries folder was given (pass --libs <dir>)`);
      return undefined;
    }
    const file = nodePath.join(this.libsDir, name + LIB_SUFFIX);
    const abs = nodePath.resolve(file);
    const onStack = this.stack.findIndex((e) => e.abs === abs);
    if (onStack >= 0) {
      const cycle = [...this.stack.slice(onStack).map((e) => e.name), name].join(' -> ');
      this.sink.add(from.file, line, `${label}: library cycle: ${cycle}`);
      return undefined;
    }
    const cached = this.cache.get(abs);
    if (cached !== undefined) return cached ?? undefined;
    if (!isFile(abs)) {
      const hint = closest(name, this.libraries());
      this.sink.add(
        from.file,
        line,
        `${label}: library '${name}' not found (looked for ${file})${hint !== undefined ? `; did you mean '${hint}'?` : ''}`,
      );
      return undefined;
    }
    this.stack.push({ abs, name });
    try {
      const parsed = parseFile(file, 'library', this.sink);
      if (parsed === undefined || parsed.library === undefined && !('library' in parsed.raw)) {
        this.cache.set(abs, null);
        return undefined;
      }
      const resolved = this.resolve(parsed.steps);
      const config = union(parsed.config, ...resolved.used.map((l) => l.config));
      const secrets = union(parsed.secrets, ...resolved.used.map((l) => l.secrets));
      checkNames(resolved.steps, { config, secrets, failedPrefixes: resolved.failedPrefixes, unresolved: parsed.unresolved, sink: this.sink });
      const lib: LoadedLibrary = { name, file, steps: resolved.steps, config, secrets };
      this.cache.set(abs, lib);
      return lib;
    } finally {
      this.stack.pop();
    }
  }

  /** Names of the libraries in the libs folder (for suggestions), bounded. */
  private libraries(): string[] {
    if (this.listing !== undefined) return this.listing;
    const out: string[] = [];
    const root = this.libsDir;
    if (root === undefined) return out;
    const visit = (dir: string, rel: string, depth: number): void => {
      if (depth > 4 || out.length > 500) return;
      let entries: fs.Dirent[];
      try {
        entries = fs.readdirSync(dir, { withFileTypes: true });
      } catch {
        return;
      }
      for (const e of entries) {
        const r = rel === '' ? e.name : `${rel}/${e.name}`;
        if (e.isDirectory()) visit(nodePath.join(dir, e.name), r, depth + 1);
        else if (e.name.endsWith(LIB_SUFFIX)) out.push(r.slice(0, -LIB_SUFFIX.length));
      }
    };
    visit(root, '', 0);
    this.listing = out.sort();
    return this.listing;
  }
}

function isFile(p: string): boolean {
  try {
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

/** A copy of a library step for splicing: id and step references get the prefix. */
function splice(n: StepNode, prefix: string, libName: string): StepNode {
  const copy: StepNode = { ...n, id: prefix + n.id, refPrefix: prefix + n.refPrefix, fromLibrary: n.fromLibrary ?? libName };
  if (n.children) copy.children = n.children.map((c) => splice(c, prefix, libName));
  if (n.cases) copy.cases = n.cases.map((c) => ({ ...c, steps: c.steps.map((x) => splice(x, prefix, libName)) }));
  if (n.defaultSteps) copy.defaultSteps = n.defaultSteps.map((c) => splice(c, prefix, libName));
  return copy;
}

export function union(...lists: ReadonlyArray<readonly string[]>): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const l of lists) for (const k of l) if (!seen.has(k)) {
    seen.add(k);
    out.push(k);
  }
  return out;
}
