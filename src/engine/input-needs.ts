/**
 * Which parts of the request a flow can read: `headers` and `query` of the expression root.
 * A door that knows a flow never reads them need not copy them for every request.
 *
 * The analysis is conservative: anything that could reach the root without naming a field
 * (`$`, `$$`, `*`, `**`, `%`, context-taking functions that expose a whole object such as
 * `$string()`, `$keys()`, `$lookup()`, `$each()`, `$eval()`), a lambda with a signature, a
 * step that hands the run's input on (`call_flow`, `enqueue`) or a step this analysis does not
 * know counts as reading everything.
 */
import jsonata from 'jsonata';
import type { InputNeeds } from '../domain/flow-runner';
import type { FlowIR } from '../flow';

export type { InputNeeds } from '../domain/flow-runner';

export const READS_ALL: InputNeeds = Object.freeze({ headers: true, query: true });

/** Request parts the analysis tracks: the root fields a door fills per request. */
const TRACKED = ['headers', 'query'] as const;

/** Functions that, given the root (by argument or as their context), expose its fields or values. */
const EXPOSING = new Set(['string', 'keys', 'lookup', 'spread', 'each', 'sift', 'eval', 'to_json', 'merge']);

/** Step types whose expressions are all the engine evaluates against the root. */
const SELF_CONTAINED = new Set(['transform', 'validate', 'http', 'oauth2_token', 'foreach', 'switch', 'log', 'fail', 'respond']);

/** Names an expression may read, or 'any' when it may reach the whole root. */
function namesRead(source: string): Set<string> | 'any' {
  let ast: unknown;
  try {
    ast = jsonata(source).ast();
  } catch {
    return 'any';
  }
  const names = new Set<string>();
  let any = false;
  const visit = (v: unknown): void => {
    if (any || v === null || typeof v !== 'object') return;
    if (Array.isArray(v)) {
      for (const item of v) visit(item);
      return;
    }
    const node = v as { type?: unknown; value?: unknown; signature?: unknown };
    switch (node.type) {
      case 'name':
      case 'string':
        if (typeof node.value === 'string') names.add(node.value);
        break;
      case 'variable':
        if (node.value === '' || node.value === '$' || (typeof node.value === 'string' && EXPOSING.has(node.value))) any = true;
        break;
      case 'wildcard':
      case 'descendant':
      case 'parent':
        any = true;
        break;
      case 'lambda':
        if (node.signature !== undefined) any = true;
        break;
      default:
        break;
    }
    for (const key of Object.keys(node)) visit((node as Record<string, unknown>)[key]);
  };
  visit(ast);
  return any ? 'any' : names;
}

/** Every `$expr` source in an IR value (templates included), and whether a step hands its input on. */
function scan(ir: unknown, sources: string[]): boolean {
  let opaque = false;
  const visit = (v: unknown): void => {
    if (v === null || typeof v !== 'object') return;
    if (Array.isArray(v)) {
      for (const item of v) visit(item);
      return;
    }
    const o = v as Record<string, unknown>;
    if (typeof o.$expr === 'string') sources.push(o.$expr);
    if (typeof o.type === 'string' && typeof o.id === 'string' && !SELF_CONTAINED.has(o.type)) opaque = true;
    for (const key of Object.keys(o)) visit(o[key]);
  };
  visit(ir);
  return opaque;
}

/** What a flow's steps can read of `headers` and `query`. */
export function inputNeedsOf(ir: FlowIR): InputNeeds {
  const sources: string[] = [];
  if (scan(ir, sources)) return READS_ALL;
  let headers = false;
  let query = false;
  for (const source of sources) {
    const names = namesRead(source);
    if (names === 'any') return READS_ALL;
    headers ||= names.has(TRACKED[0]);
    query ||= names.has(TRACKED[1]);
  }
  return Object.freeze({ headers, query });
}
