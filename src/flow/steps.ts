/** Decodes step maps (and their nested steps) into StepNodes, reporting shape errors. */
import { isLeft } from 'fp-ts/lib/Either';
import { describeErrors } from './codecs/kit';
import { STEP_CODECS, STEP_TYPES, isStepType } from './codecs/steps.codec';
import { DiagnosticSink, didYouMean, isPlainObject, show } from './diagnostics';
import type { StepNode, SwitchCaseNode } from './model';
import type { LineIndex, Path, PathSegment } from './yaml-located';

const MAX_DEPTH = 16;

export interface StepEnv {
  file: string;
  lines: LineIndex;
  sink: DiagnosticSink;
  /** Ids of steps that could not be decoded; references to them are not reported again. */
  unresolved: Set<string>;
}

export function decodeStep(value: unknown, base: PathSegment[], env: StepEnv, depth = 0): StepNode | undefined {
  const at = (rel: Path): number => env.lines.at([...base, ...rel]);
  const where = base.length === 0 ? 'step block' : 'nested step';
  if (!isPlainObject(value)) {
    env.sink.add(env.file, at([]), `${where}: a step must be a YAML map with 'id' and 'type', got ${show(value)}`);
    return undefined;
  }
  const rawId = value['id'];
  const rawType = value['type'];
  if (typeof rawId !== 'string' || rawId === '') {
    const t = typeof rawType === 'string' ? ` of type '${rawType}'` : '';
    env.sink.add(
      env.file,
      at(rawId === undefined ? [] : ['id']),
      rawId === undefined ? `${where}${t}: missing 'id' (every step needs a unique id matching [a-z][a-z0-9_]*)` : `${where}${t}: 'id' must be a step id matching [a-z][a-z0-9_]*, got ${show(rawId)}`,
    );
    return undefined;
  }
  const label = `step '${rawId}'`;
  if (rawType === undefined || typeof rawType !== 'string' || !isStepType(rawType)) env.unresolved.add(rawId);
  if (rawType === undefined) {
    env.sink.add(env.file, at(['id']), `${label}: missing 'type' (one of ${STEP_TYPES.join(', ')})`);
    return undefined;
  }
  if (typeof rawType !== 'string' || !isStepType(rawType)) {
    const hint = typeof rawType === 'string' ? didYouMean(rawType, STEP_TYPES) : '';
    const known = hint === '' ? `; the types are ${STEP_TYPES.join(', ')}` : '';
    env.sink.add(env.file, at(['type']), `${label}: unknown step type ${show(rawType)}${hint}${known}`);
    return undefined;
  }
  const type = rawType;
  const decoded = STEP_CODECS[type].decode(value);
  let shapeOk = true;
  const fields: Record<string, unknown> = {};
  if (isLeft(decoded)) {
    shapeOk = false;
    for (const e of describeErrors(decoded.left)) env.sink.add(env.file, at(e.path), `${label}: ${e.message}`);
    for (const [k, v] of Object.entries(value)) fields[k] = v;
  } else {
    Object.assign(fields, decoded.right);
  }
  const node: StepNode = {
    file: env.file,
    id: rawId,
    type,
    line: at(['id']),
    fields,
    shapeOk,
    lineOf: at,
    refPrefix: '',
  };
  if (type === 'call_flow') {
    const hasLib = fields['lib'] !== undefined;
    const hasFlow = fields['flow'] !== undefined;
    if (hasLib === hasFlow) {
      node.shapeOk = false;
      env.sink.add(
        env.file,
        at(hasLib ? ['flow'] : ['id']),
        hasLib
          ? `${label}: give either 'lib' (a library in --libs) or 'flow' (a deployed flow), not both`
          : `${label}: call_flow needs 'lib' (a library in --libs) or 'flow' (a deployed flow of the same tenant)`,
      );
    }
  }
  if (type === 'foreach' || type === 'switch') {
    if (depth >= MAX_DEPTH) {
      env.sink.add(env.file, at([]), `${label}: steps are nested more than ${MAX_DEPTH} levels deep`);
      return node;
    }
  }
  if (type === 'foreach') {
    node.children = decodeList(value['steps'], [...base, 'steps'], env, depth);
  }
  if (type === 'switch') {
    const cases: SwitchCaseNode[] = [];
    const rawCases = value['cases'];
    if (Array.isArray(rawCases)) {
      rawCases.forEach((c, i) => {
        if (!isPlainObject(c)) return;
        cases.push({ when: c['when'], path: ['cases', i], steps: decodeList(c['steps'], [...base, 'cases', i, 'steps'], env, depth) });
      });
    }
    node.cases = cases;
    node.defaultSteps = decodeList(value['default'], [...base, 'default'], env, depth);
  }
  return node;
}

function decodeList(value: unknown, base: PathSegment[], env: StepEnv, depth: number): StepNode[] {
  if (!Array.isArray(value)) return [];
  const out: StepNode[] = [];
  value.forEach((item, i) => {
    const n = decodeStep(item, [...base, i], env, depth + 1);
    if (n !== undefined) out.push(n);
  });
  return out;
}

/** Visits a step and every nested step (foreach, switch), parents first. */
export function forEachStep(steps: readonly StepNode[], visit: (s: StepNode, container: StepNode | undefined) => void, container?: StepNode): void {
  for (const s of steps) {
    visit(s, container);
    if (s.children) forEachStep(s.children, visit, s);
    if (s.cases) for (const c of s.cases) forEachStep(c.steps, visit, s);
    if (s.defaultSteps) forEachStep(s.defaultSteps, visit, s);
  }
}
