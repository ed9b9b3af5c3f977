/**
 * The global function names an expression can call: jsonata's built-ins (the
 * fast subset), the platform functions, then the caller's custom functions —
 * later registrations win, as with jsonata's registerFunction.
 */
import { BUILTINS } from './builtin-functions';
import { FnValue, makeNative } from './callable';
import { PLATFORM_FUNCTIONS } from './platform-functions';
import { signature } from './signature';

export type ExprFunction = (...args: unknown[]) => unknown;

export function buildRegistry(functions: Readonly<Record<string, ExprFunction>> | undefined): Map<string, FnValue> {
  const registry = new Map<string, FnValue>(BUILTINS);
  for (const [name, pf] of Object.entries(PLATFORM_FUNCTIONS)) {
    const impl = pf.implementation;
    registry.set(name, makeNative(name, signature(pf.signature), impl.length, (args) => impl(...args)));
  }
  for (const [name, impl] of Object.entries(functions ?? {})) {
    // jsonata calls registered functions with `this` set to its "focus" ({ input, ... }) and unchecked arguments
    registry.set(name, makeNative(name, undefined, impl.length, (args, context) => impl.apply({ input: context }, args)));
  }
  return registry;
}
