/**
 * Calls whose callee is a built-in, known at compile time: the name is not
 * bound by any enclosing frame and no platform or custom function replaces it.
 * Only a per-evaluation binding of the same name can still shadow it, which is
 * checked on each call. Such calls skip the function value and its signature
 * validation:
 *  - a direct form (builtin-direct.ts) computes the result from the evaluated
 *    arguments, or says GENERIC, and the ordinary call is made with them;
 *  - `$map` / `$filter` with a lambda literal over an array evaluate the lambda
 *    body per item without creating the function value (not in tail position).
 * In tail position the result is what applying the TailCall would give (not
 * normalised); the ordinary fallback still returns the TailCall itself.
 * Elsewhere results come normalised, so the compiler adds no normalisation.
 */
import { AstNode } from './ast';
import { BUILTINS } from './builtin-functions';
import { Direct, directForm, GENERIC } from './builtin-direct';
import { callFn, FnValue, isPromiseLike, rawForTail, settleTail, TailCall, unwrapRaw } from './callable';
import { NodeCompiler } from './compiler-api';
import { Bailout } from './errors';
import { compileLambdaCode, enterForItem, LambdaCode, lambdaValue } from './lambda-code';
import { Ev, Scope } from './scope';
import { createSeq, normalised, normalize } from './sequence';
import { hasOwn, toBoolean } from './values';

interface Callee {
  readonly name: string;
  readonly fn: FnValue;
}

/** The built-in a procedure node names, when nothing but a binding can shadow it. */
function builtinCallee(c: NodeCompiler, procNode: AstNode): Callee | undefined {
  const name = procNode.value;
  if (procNode.type !== 'variable' || typeof name !== 'string' || name === '' || name === '$') return undefined;
  if (procNode.predicate !== undefined || procNode.keepArray === true || c.isFrameBound(name)) return undefined;
  const fn = BUILTINS.get(name);
  if (fn === undefined || c.registered(name) !== fn) return undefined;
  return { name, fn };
}

/** The value a binding gives the name, or `fn` when there is no such binding. */
function calleeIn(sc: Scope, callee: Callee): unknown {
  const b = sc.st.bindings;
  return b !== undefined && hasOwn(b, callee.name) ? b[callee.name] : callee.fn;
}

/** How the call is used: in tail position, or with its result normalised here, or by the compiler. */
type Use = 'tail' | 'normalise' | 'as is';

/** The ordinary call with evaluated arguments (`leadingAsIs`: the first one is a `~>` left-hand side). */
type Ordinary = (proc: unknown, args: unknown[], ctx: unknown) => unknown;

function ordinaryCall(use: Use, leadingAsIs: boolean): Ordinary {
  if (use === 'tail') return (proc, args) => new TailCall(proc, args.map(rawForTail));
  const keep = use === 'as is';
  return (proc, args, ctx) => {
    for (let i = leadingAsIs ? 1 : 0; i < args.length; i++) args[i] = unwrapRaw(args[i]);
    const r = callFn(proc, args, ctx);
    return keep ? r : normalize(r, false);
  };
}

function directCall(callee: Callee, direct: Direct, evs: readonly Ev[], ordinary: Ordinary): Ev {
  const fn = callee.fn;
  switch (evs.length) {
    case 1: {
      const [e0] = evs;
      return (ctx, sc) => {
        const proc = calleeIn(sc, callee);
        const a = e0(ctx, sc);
        if (proc === fn) {
          const r = direct(a, undefined, undefined);
          if (r !== GENERIC) return r;
        }
        return ordinary(proc, [a], ctx);
      };
    }
    case 2: {
      const [e0, e1] = evs;
      return (ctx, sc) => {
        const proc = calleeIn(sc, callee);
        const a = e0(ctx, sc);
        const b = e1(ctx, sc);
        if (proc === fn) {
          const r = direct(a, b, undefined);
          if (r !== GENERIC) return r;
        }
        return ordinary(proc, [a, b], ctx);
      };
    }
    default: {
      const [e0, e1, e2] = evs;
      return (ctx, sc) => {
        const proc = calleeIn(sc, callee);
        const a = e0(ctx, sc);
        const b = e1(ctx, sc);
        const d = e2(ctx, sc);
        if (proc === fn) {
          const r = direct(a, b, d);
          if (r !== GENERIC) return r;
        }
        return ordinary(proc, [a, b, d], ctx);
      };
    }
  }
}

/** A lambda literal an inline $map/$filter can run without creating the function value. */
function inlineLambda(node: AstNode): boolean {
  return node.type === 'lambda' && node.thunk !== true && node.signature === undefined
    && node.predicate === undefined && node.keepArray !== true && node.group === undefined;
}

/** One item's result, as $map/$filter get it from callFromHof (the lambda's tail calls run in context null). */
function itemResult(code: LambdaCode, ctx: unknown, sc: Scope, items: unknown[], i: number): unknown {
  const r = enterForItem(code, ctx, sc, items[i], i, items);
  if (isPromiseLike(r)) throw new Bailout('a function returned a promise');
  return settleTail(r, null);
}

/** Not in tail position: $map calls the lambda as itself, so its tail calls run in context null. */
function inlineHof(callee: Callee, array: Ev, code: LambdaCode, use: Use, ordinary: Ordinary): Ev {
  const fn = callee.fn;
  const isMap = callee.name === 'map';
  return (ctx, sc) => {
    const proc = calleeIn(sc, callee);
    const a = array(ctx, sc);
    if (proc !== fn || !Array.isArray(a)) {
      return ordinary(proc, [a, lambdaValue(code, ctx, sc)], ctx);
    }
    const result = createSeq();
    for (let i = 0; i < a.length; i++) {
      const r = itemResult(code, ctx, sc, a, i);
      if (isMap) {
        if (r !== undefined) result.push(r);
      } else if (toBoolean(r)) {
        result.push(a[i]);
      }
    }
    return use === 'normalise' ? normalize(result, false) : result;
  };
}

/**
 * A specialised evaluator for a call of a built-in, or undefined when the call
 * is not one (or the built-in has no direct form for that many arguments).
 * `leading` is the left-hand side of `~>`, passed as the first argument.
 * `use`: 'tail' for a call in tail position; 'normalise' when the compiler may
 * take the result as normalised (no predicates or `[]` on the node), 'as is'
 * otherwise.
 */
export function compileBuiltinCall(c: NodeCompiler, procNode: AstNode, argNodes: readonly AstNode[], use: Use, leading?: Ev): Ev | undefined {
  const callee = builtinCallee(c, procNode);
  if (callee === undefined) return undefined;
  const count = argNodes.length + (leading === undefined ? 0 : 1);
  const ordinary = ordinaryCall(use, leading !== undefined);
  const lambdaNode = argNodes[argNodes.length - 1];
  // (in tail position the sequence $map gives would meet the normalisation of an enclosing
  // block or condition, which the TailCall it stands for escapes: left to the ordinary call)
  if ((callee.name === 'map' || callee.name === 'filter') && use !== 'tail' && count === 2 && inlineLambda(lambdaNode)) {
    const array = leading ?? c.compile(argNodes[0]);
    return mark(inlineHof(callee, array, compileLambdaCode(c, lambdaNode), use, ordinary), use);
  }
  const direct = directForm(callee.name, count);
  if (direct === undefined) return undefined;
  const evs = argNodes.map((a) => c.compile(a));
  if (leading !== undefined) evs.unshift(leading);
  return mark(directCall(callee, direct, evs, ordinary), use);
}

/** Normalising evaluators are marked so that the compiler adds no normalisation (direct forms never give sequences). */
function mark(ev: Ev, use: Use): Ev {
  return use === 'normalise' ? normalised(ev) : ev;
}

/** The use of a call node's result outside tail position. */
export function useOf(node: AstNode): Use {
  return node.predicate === undefined && node.keepArray !== true ? 'normalise' : 'as is';
}
