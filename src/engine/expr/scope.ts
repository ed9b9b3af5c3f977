/**
 * Runtime variable scopes. A frame exists for the evaluation root (when the
 * expression assigns variables at top level), for each block that assigns
 * variables and for each lambda call; lookups walk the chain, then the caller's
 * bindings, then the registered functions — the same order as jsonata.
 */
import { hasOwn } from './values';

export interface EvalState {
  readonly root: unknown;
  readonly bindings: Record<string, unknown> | undefined;
}

export class Scope {
  constructor(
    readonly vars: Record<string, unknown> | null,
    readonly parent: Scope | null,
    readonly st: EvalState,
  ) {}
}

/** A compiled node: evaluates against the context value and the current scope. */
export type Ev = (ctx: unknown, sc: Scope) => unknown;

export function newVars(): Record<string, unknown> {
  return Object.create(null) as Record<string, unknown>;
}

/** Variable lookup past the frames: bindings first, then the statically registered value. */
export function lookupGlobal(sc: Scope, name: string, registered: unknown): unknown {
  const b = sc.st.bindings;
  if (b !== undefined && hasOwn(b, name)) return b[name];
  return registered;
}

export function lookupVariable(sc: Scope, name: string, registered: unknown): unknown {
  for (let s: Scope | null = sc; s !== null; s = s.parent) {
    const vars = s.vars;
    if (vars !== null && name in vars) return vars[name];
  }
  return lookupGlobal(sc, name, registered);
}
