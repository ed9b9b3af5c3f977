/**
 * Function calls, lambdas (`function($x){ ... }`) and the apply operator `~>`.
 * Calls to registered functions resolve at compile time (a per-evaluation
 * binding of the same name still wins, as in jsonata). A call in tail position
 * of a lambda body yields a TailCall, applied by the caller. Calls of built-ins
 * are specialised first (compile-builtin-call.ts).
 */
import { AstNode, child, lhsNode } from './ast';
import { callFn, rawForTail, TailCall, unwrapRaw } from './callable';
import { compileBuiltinCall, useOf } from './compile-builtin-call';
import { NodeCompiler } from './compiler-api';
import { Bailout, exprError } from './errors';
import { compileLambdaCode, lambdaValue } from './lambda-code';
import { compileLookup, Ev, Scope } from './scope';
import { isFunctionValue } from './values';

/** Evaluates a variable name the way jsonata's environment lookup does (no `$`, `$$` special cases). */
function nameLookup(c: NodeCompiler, name: string): Ev {
  return compileLookup(c.frameRefs(name), name, c.registered(name), false);
}

/**
 * Argument list evaluation. Ordinary calls see function arguments as jsonata's
 * closures would present them (unwrapped RawFns); tail calls get them raw.
 */
function compileArgs(c: NodeCompiler, nodes: readonly AstNode[], tail: boolean): (ctx: unknown, sc: Scope) => unknown[] {
  const evs = nodes.map((a) => {
    const ev = c.compile(a);
    const pass = tail ? rawForTail : unwrapRaw;
    return (ctx: unknown, sc: Scope): unknown => pass(ev(ctx, sc));
  });
  switch (evs.length) {
    case 0: return () => [];
    case 1: { const [a] = evs; return (ctx, sc) => [a(ctx, sc)]; }
    case 2: { const [a, b] = evs; return (ctx, sc) => [a(ctx, sc), b(ctx, sc)]; }
    case 3: { const [a, b, d] = evs; return (ctx, sc) => [a(ctx, sc), b(ctx, sc), d(ctx, sc)]; }
    default: return (ctx, sc) => evs.map((e) => e(ctx, sc));
  }
}

/** The procedure of a call, plus jsonata's "did you forget the $" check (T1005). */
function compileProcedure(c: NodeCompiler, procNode: AstNode, checkMissingDollar: boolean): Ev {
  if (procNode.type === 'variable' && typeof procNode.value === 'string' && procNode.value !== '' && procNode.value !== '$' && procNode.predicate === undefined && procNode.keepArray !== true) {
    return nameLookup(c, procNode.value);
  }
  const P = c.compile(procNode);
  if (!checkMissingDollar || procNode.type !== 'path') return P;
  const first = procNode.steps?.[0];
  const firstName = first?.value;
  if (typeof firstName !== 'string') return P;
  const lookup = nameLookup(c, firstName);
  return (ctx, sc) => {
    const proc = P(ctx, sc);
    if (proc === undefined && lookup(ctx, sc)) throw exprError('T1005', { token: firstName });
    return proc;
  };
}

export function compileCall(c: NodeCompiler, node: AstNode, tail: boolean): Ev {
  const procNode = child(node, 'procedure');
  const builtin = compileBuiltinCall(c, procNode, node.arguments ?? [], tail ? 'tail' : useOf(node));
  if (builtin !== undefined) return builtin;
  const P = compileProcedure(c, procNode, !tail);
  const A = compileArgs(c, node.arguments ?? [], tail);
  if (tail) return (ctx, sc) => new TailCall(P(ctx, sc), A(ctx, sc));
  return (ctx, sc) => {
    const proc = P(ctx, sc);
    return callFn(proc, A(ctx, sc), ctx);
  };
}

export function compileLambda(c: NodeCompiler, node: AstNode): Ev {
  const code = compileLambdaCode(c, node);
  return (defCtx, defScope) => lambdaValue(code, defCtx, defScope);
}

/** `lhs ~> $f(args)` calls $f(lhs, args); `lhs ~> $f` calls $f(lhs). */
export function compileApply(c: NodeCompiler, node: AstNode): Ev {
  const L = c.compile(lhsNode(node));
  const rhs = child(node, 'rhs');
  if (rhs.type === 'function') {
    // jsonata invokes the right-hand call directly: a predicate written on it is ignored
    const builtin = compileBuiltinCall(c, child(rhs, 'procedure'), rhs.arguments ?? [], useOf(node), L);
    if (builtin !== undefined) return builtin;
    const P = compileProcedure(c, child(rhs, 'procedure'), true);
    const A = compileArgs(c, rhs.arguments ?? [], false);
    return (ctx, sc) => {
      const lhs = L(ctx, sc);
      const proc = P(ctx, sc);
      const args = A(ctx, sc);
      args.unshift(lhs);
      return callFn(proc, args, ctx);
    };
  }
  const F = c.compile(rhs);
  return (ctx, sc) => {
    const lhs = L(ctx, sc);
    const func = F(ctx, sc);
    if (!isFunctionValue(func)) throw exprError('T2006', { value: func });
    if (isFunctionValue(lhs)) throw new Bailout('function composition with ~>');
    return callFn(func, [lhs], null);
  };
}
