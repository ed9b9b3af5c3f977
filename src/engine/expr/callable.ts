/**
 * Function values of the fast path and the way they are applied.
 *
 * Every function value is a real JS function (so `$type` says "function" and
 * `$string` gives ""), with an `arity` (what jsonata's getFunctionArity would
 * report, used by $map/$filter/$reduce) and an internal entry point taking the
 * argument list and the caller's context value (used by `-` signatures).
 * A lambda whose body ends in a function call returns a TailCall, which the
 * caller applies (jsonata's tail-call trampoline, including its quirks: the
 * tail call's result is not normalised and it sees the caller's context).
 *
 * jsonata wraps function-valued arguments of ordinary calls in closures, but
 * passes them unwrapped to a tail call; a higher-order built-in then invokes an
 * unwrapped lambda with the lambda's own context and fails (TypeError) on an
 * unwrapped native function. Such "raw" arguments are modelled by RawFn
 * wrappers (see rawForTail / unwrapRaw / callFromHof).
 */
import { Bailout, exprError } from './errors';
import { Signature } from './signature';

export const INVOKE: unique symbol = Symbol('svc.expr.invoke');
export const KIND: unique symbol = Symbol('svc.expr.kind');
export const RAW: unique symbol = Symbol('svc.expr.raw');
export const LAMBDA_CONTEXT: unique symbol = Symbol('svc.expr.lambdaContext');

export type Invoke = (args: unknown[], context: unknown) => unknown;

export interface FnValue {
  (...args: unknown[]): unknown;
  arity?: number;
  [INVOKE]?: Invoke;
  /** jsonata's own function objects: built-in/registered natives and lambdas (not plain JS functions) */
  [KIND]?: 'native' | 'lambda';
  /** set on a RawFn: the function passed unwrapped to a tail call */
  [RAW]?: FnValue;
  /** set on lambdas: the context value the lambda was defined in */
  [LAMBDA_CONTEXT]?: unknown;
}

export class TailCall {
  constructor(readonly fn: unknown, readonly args: unknown[]) {}
}

export function isPromiseLike(v: unknown): boolean {
  return typeof v === 'object' && v !== null && typeof (v as { then?: unknown }).then === 'function';
}

export function arityOf(f: unknown): number {
  if (typeof f !== 'function') return 0;
  const a = (f as FnValue).arity;
  return typeof a === 'number' ? a : f.length;
}

function applyOnce(proc: unknown, args: unknown[], context: unknown): unknown {
  if (typeof proc === 'function') {
    const f = proc as FnValue;
    const invoke = f[INVOKE];
    const r = invoke !== undefined ? invoke(args, context) : f.apply(context, args);
    if (isPromiseLike(r)) throw new Bailout('a function returned a promise');
    return r;
  }
  if (typeof proc === 'object' && proc !== null) {
    const o = proc as { _jsonata_lambda?: unknown; _jsonata_function?: unknown };
    if (o._jsonata_lambda === true || o._jsonata_function === true) throw new Bailout('jsonata function value');
  }
  throw exprError('T1006');
}

/** Apply a function value (with the trampoline for tail calls). */
export function callFn(proc: unknown, args: unknown[], context: unknown): unknown {
  return settleTail(applyOnce(proc, args, context), context);
}

/** The trampoline: apply the tail calls a function result stands for, in `context`. */
export function settleTail(result: unknown, context: unknown): unknown {
  let r = result;
  while (r instanceof TailCall) {
    const next = r.fn;
    if (next === null || (typeof next !== 'object' && typeof next !== 'function')) {
      // jsonata's trampoline tags the callee with a token before applying it, which fails on primitives
      throw new TypeError(`Cannot invoke ${String(next)} in tail position`);
    }
    r = applyOnce(next, r.args, context);
  }
  return r;
}

export function makeFn(invoke: Invoke, arity: number, name?: string): FnValue {
  const f = function (this: unknown, ...args: unknown[]): unknown {
    return callFn(f, args, this);
  } as FnValue;
  f.arity = arity;
  f[INVOKE] = invoke;
  if (name !== undefined) Object.defineProperty(f, 'name', { value: name });
  return f;
}

/** A native (built-in or registered) function; validated by `sig` when given. */
export function makeNative(
  name: string,
  sig: Signature | undefined,
  arity: number,
  impl: (args: unknown[], context: unknown) => unknown,
): FnValue {
  const invoke: Invoke = sig
    ? (args, context) => impl(sig.validate(args, context, name), context)
    : impl;
  const f = makeFn(invoke, arity, name);
  f[KIND] = 'native';
  return f;
}

export function makeLambda(invoke: Invoke, arity: number, context: unknown): FnValue {
  const f = makeFn(invoke, arity);
  f[KIND] = 'lambda';
  f[LAMBDA_CONTEXT] = context;
  return f;
}

/** An argument value as jsonata passes it to a tail call (jsonata function objects unwrapped). */
export function rawForTail(v: unknown): unknown {
  if (typeof v !== 'function') return v;
  const f = v as FnValue;
  if (f[KIND] === undefined || f[RAW] !== undefined) return v;
  const invoke = f[INVOKE] as Invoke;
  const raw = makeFn(invoke, arityOf(f));
  raw[KIND] = f[KIND];
  raw[RAW] = f;
  return raw;
}

/** An argument value as jsonata passes it to an ordinary call (wrapped in a closure ≈ the function itself). */
export function unwrapRaw(v: unknown): unknown {
  if (typeof v !== 'function') return v;
  return (v as FnValue)[RAW] ?? v;
}

/** How $map/$filter/$reduce invoke their function argument. */
export function callFromHof(func: unknown, args: unknown[]): unknown {
  const target = typeof func === 'function' ? (func as FnValue)[RAW] : undefined;
  if (target === undefined) return callFn(func, args, null);
  if (target[KIND] === 'lambda') return callFn(target, args, target[LAMBDA_CONTEXT]);
  throw new TypeError('func.apply is not a function');
}
