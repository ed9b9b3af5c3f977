/**
 * Runtime variable scopes. A frame exists for the evaluation root (when the
 * expression assigns variables at top level), for each block that assigns
 * variables and for each lambda call; lookups walk the chain, then the caller's
 * bindings, then the registered functions — the same order as jsonata.
 *
 * Past the frames a variable is looked up in the caller's bindings, then among
 * the registered functions (resolved at compile time).
 *
 * Runtime frames correspond one to one to the compiler's frames, so a variable
 * resolves at compile time to the frames (how many frames up, which slot) that
 * may hold it, innermost first. A slot holds UNSET until its variable is
 * assigned; an unassigned variable is looked up further out, as in jsonata.
 */
import { normalize } from './sequence';
import { hasOwn } from './values';

export interface EvalState {
  readonly root: unknown;
  readonly bindings: Record<string, unknown> | undefined;
}

/** The value of a frame slot whose variable has not been assigned (yet). */
export const UNSET: unique symbol = Symbol('svc.expr.unset');

export class Scope {
  constructor(
    readonly vars: unknown[] | null,
    readonly parent: Scope | null,
    readonly st: EvalState,
  ) {}
}

/** A compiled node: evaluates against the context value and the current scope. */
export type Ev = (ctx: unknown, sc: Scope) => unknown;

/** Where a frame-bound variable may live: `depth` frames up from the current one, at `slot`. */
export interface FrameRef {
  readonly depth: number;
  readonly slot: number;
}

export function newFrame(size: number): unknown[] {
  const vars = new Array<unknown>(size);
  for (let i = 0; i < size; i++) vars[i] = UNSET;
  return vars;
}

function frameAt(sc: Scope, depth: number): unknown[] {
  let s = sc;
  for (let d = 0; d < depth; d++) s = s.parent as Scope;
  return s.vars as unknown[];
}

/**
 * The evaluator of a variable the frames `refs` (innermost first) may hold;
 * `normalise`: the value read comes normalised (a one-item sequence as its item).
 */
export function compileLookup(refs: readonly FrameRef[], name: string, registered: unknown, normalise: boolean): Ev {
  const global = (sc: Scope): unknown => {
    const b = sc.st.bindings;
    const v = b !== undefined && hasOwn(b, name) ? b[name] : registered;
    return normalise ? normalize(v, false) : v;
  };
  if (refs.length === 0) return (_ctx, sc) => global(sc);
  if (refs.length === 1) {
    const { depth, slot } = refs[0];
    if (depth === 0) {
      return (_ctx, sc) => {
        const v = (sc.vars as unknown[])[slot];
        if (v === UNSET) return global(sc);
        return normalise ? normalize(v, false) : v;
      };
    }
    return (_ctx, sc) => {
      const v = frameAt(sc, depth)[slot];
      if (v === UNSET) return global(sc);
      return normalise ? normalize(v, false) : v;
    };
  }
  return (_ctx, sc) => {
    for (let i = 0; i < refs.length; i++) {
      const v = frameAt(sc, refs[i].depth)[refs[i].slot];
      if (v !== UNSET) return normalise ? normalize(v, false) : v;
    }
    return global(sc);
  };
}
