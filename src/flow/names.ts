/**
 * Name resolution: unique step ids, `steps.X` names an earlier visible step, `config.K` and
 * `secrets.K` name declared keys, no secrets in log messages or errors. Template syntax
 * problems (an unclosed `${`) are reported here too, so `validate` catches them.
 */
import { fieldKind } from './codecs/steps.codec';
import { DiagnosticSink, closest, didYouMean } from './diagnostics';
import type { StepNode } from './model';
import { findReferences } from './references';
import { forEachStep } from './steps';
import { isTemplate, parseTemplate } from './template';
import type { PathSegment } from './yaml-located';
import { formatPath } from './codecs/kit';

export interface NameScope {
  config: readonly string[];
  secrets: readonly string[];
  failedPrefixes: readonly string[];
  unresolved: ReadonlySet<string>;
  sink: DiagnosticSink;
}

export interface ExpressionSite {
  source: string;
  path: PathSegment[];
}

/**
 * The expressions of a value read as `kind`, with their paths; template problems go to
 * `onError`. Shared by the name checks and the lowering so both see the same expressions.
 */
export function expressionsOf(
  value: unknown,
  kind: 'tpl' | 'expr',
  path: PathSegment[],
  onError: (path: PathSegment[], message: string) => void,
): ExpressionSite[] {
  const out: ExpressionSite[] = [];
  const visit = (v: unknown, p: PathSegment[], top: boolean): void => {
    if (typeof v === 'string') {
      if (kind === 'expr' && top && !isTemplate(v)) {
        if (v.trim() !== '') out.push({ source: v, path: p });
        return;
      }
      const t = parseTemplate(v);
      if (!t.ok) onError(p, `'${formatPath(p)}': ${t.message}`);
      else for (const part of t.parts) if (part.kind === 'expr') out.push({ source: part.source, path: p });
      return;
    }
    if (kind === 'expr') return;
    if (Array.isArray(v)) v.forEach((x, i) => visit(x, [...p, i], false));
    else if (typeof v === 'object' && v !== null) for (const [k, x] of Object.entries(v)) visit(x, [...p, k], false);
  };
  visit(value, path, true);
  return out;
}

/** Every expression site of a step's own fields (not its nested steps). */
export function stepExpressions(s: StepNode, onError: (path: PathSegment[], message: string) => void): ExpressionSite[] {
  const out: ExpressionSite[] = [];
  for (const [field, value] of Object.entries(s.fields)) {
    const kind = fieldKind(s.type, field);
    if (kind === 'tpl' || kind === 'expr') out.push(...expressionsOf(value, kind, [field], onError));
  }
  if (s.cases) s.cases.forEach((c) => out.push(...expressionsOf(c.when, 'expr', [...c.path, 'when'], onError)));
  return out;
}

const NO_SECRETS_IN: Record<string, readonly string[]> = { log: ['message'], fail: ['message', 'code'] };

export function checkNames(steps: readonly StepNode[], scope: NameScope): void {
  const { sink } = scope;
  const order = new Map<StepNode, number>();
  const byId = new Map<string, { node: StepNode; container: StepNode | undefined }>();
  forEachStep(steps, (s, container) => {
    order.set(s, order.size);
    const prev = byId.get(s.id);
    if (prev !== undefined) {
      const where = prev.node.file === s.file ? `line ${prev.node.line}` : `${prev.node.file}:${prev.node.line}`;
      const origin = s.fromLibrary !== undefined ? ` (spliced from library '${s.fromLibrary}')` : '';
      sink.add(s.file, s.line, `step '${s.id}'${origin}: the id is already used by the step at ${where}; step ids must be unique in a flow`);
    } else byId.set(s.id, { node: s, container });
  });
  const config = new Set(scope.config);
  const secrets = new Set(scope.secrets);

  const checkStep = (s: StepNode, visible: ReadonlySet<string>): void => {
    const label = `step '${s.id}'`;
    const sites = stepExpressions(s, (p, m) => sink.add(s.file, s.lineOf(p), `${label}: ${m}`));
    for (const site of sites) {
      const line = s.lineOf(site.path);
      for (const ref of findReferences(site.source)) {
        const full = `${ref.kind}.${ref.name}`;
        if (ref.kind === 'steps') {
          if (visible.has(ref.name)) continue;
          if (scope.unresolved.has(ref.name) || scope.failedPrefixes.some((p) => ref.name.startsWith(p))) continue;
          const target = byId.get(ref.name);
          let message: string;
          if (ref.name === s.id) message = `'${full}' refers to this step itself; a step can only read the output of earlier steps`;
          else if (target !== undefined && (order.get(target.node) ?? 0) > (order.get(s) ?? 0)) {
            message = `'${full}' refers to step '${ref.name}', which runs later (line ${target.node.line}); a step can only read the output of earlier steps`;
          } else if (target !== undefined) {
            const inside = target.container !== undefined ? ` is nested inside '${target.container.id}' and` : '';
            message = `'${full}': step '${ref.name}' (line ${target.node.line})${inside} is not visible here`;
          } else {
            message = `'${full}' names no step${didYouMean(ref.name, visible)}`;
          }
          sink.add(s.file, line, `${label}: ${message}`);
        } else {
          checkKey(ref.kind, ref.name, (m) => sink.add(s.file, line, `${label}: ${m}`));
          if (ref.kind === 'secrets' && (NO_SECRETS_IN[s.type] ?? []).includes(String(site.path[0]))) {
            sink.add(s.file, line, `${label}: '${String(site.path[0])}' must not use '${full}': secret values never go into logs or errors`);
          }
        }
      }
    }
  };

  const checkKey = (kind: 'config' | 'secrets', name: string, add: (m: string) => void): void => {
    const own = kind === 'config' ? config : secrets;
    const other = kind === 'config' ? secrets : config;
    if (own.has(name)) return;
    const otherKind = kind === 'config' ? 'secrets' : 'config';
    if (other.has(name)) {
      add(`'${kind}.${name}' is not declared in '${kind}'; '${name}' is declared in '${otherKind}': write ${otherKind}.${name}`);
      return;
    }
    const c = closest(name, own);
    add(`'${kind}.${name}' is not declared: add '${name}' to the front matter '${kind}' list${c !== undefined ? ` (or did you mean '${c}'?)` : ''}`);
  };

  const walk = (list: readonly StepNode[], outer: ReadonlySet<string>): void => {
    const visible = new Set(outer);
    for (const s of list) {
      if (s.fromLibrary === undefined) checkStep(s, visible);
      if (s.children) walk(s.children, visible);
      if (s.cases) for (const c of s.cases) walk(c.steps, visible);
      if (s.defaultSteps) walk(s.defaultSteps, visible);
      visible.add(s.id);
    }
  };
  walk(steps, new Set());
}

/** Checks a front-matter expression (dedup_key): no steps, declared keys only. */
export function checkFrontMatterExpression(
  source: string,
  key: string,
  scope: { config: readonly string[]; secrets: readonly string[] },
  add: (message: string) => void,
): void {
  const t = isTemplate(source) ? parseTemplate(source) : { ok: true as const, parts: [{ kind: 'expr' as const, source, offset: 0 }] };
  if (!t.ok) {
    add(`front matter: '${key}': ${t.message}`);
    return;
  }
  for (const part of t.parts) {
    if (part.kind !== 'expr') continue;
    for (const ref of findReferences(part.source)) {
      if (ref.kind === 'steps') {
        add(`front matter: '${key}' cannot read 'steps.${ref.name}': it is evaluated before any step runs`);
        continue;
      }
      const own = ref.kind === 'config' ? scope.config : scope.secrets;
      if (!own.includes(ref.name)) {
        add(`front matter: '${key}' uses '${ref.kind}.${ref.name}', which is not declared in '${ref.kind}'${didYouMean(ref.name, own)}`);
      }
    }
  }
}

