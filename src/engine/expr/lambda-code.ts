/**
 * A compiled lambda (`function($a, $b){ body }`): its parameters, optional
 * signature and body. A lambda value closes over the context and scope it is
 * created in; a call binds the parameters in a fresh frame (when the lambda
 * has parameters or assigns variables) and evaluates the body there.
 */
import { AstNode, child, Unsupported } from './ast';
import { assignedNamesOf } from './analysis';
import { FnValue, makeLambda } from './callable';
import { NodeCompiler } from './compiler-api';
import { Ev, newFrame, Scope } from './scope';
import { Signature, signature } from './signature';

type ItemFrame = 'none' | 'value' | 'value, index' | 'value, index, array' | 'slots';

export interface LambdaCode {
  readonly arity: number;
  readonly sig: Signature | undefined;
  /** the size of a call's own frame (parameters, then assigned names; 0: no frame) */
  readonly frameSize: number;
  /** each parameter's frame slot (a repeated name: the last one wins) */
  readonly paramSlots: readonly number[];
  readonly itemFrame: ItemFrame;
  /** the body, compiled in tail position (it may return a TailCall) */
  readonly body: Ev;
}

export function compileLambdaCode(c: NodeCompiler, node: AstNode): LambdaCode {
  if (node.thunk === true) throw new Unsupported('tail-call thunk outside a lambda body');
  const params = (node.arguments ?? []).map((p) => {
    if (p.type !== 'variable' || typeof p.value !== 'string') throw new Unsupported('lambda parameter');
    return p.value;
  });
  let sig: Signature | undefined;
  const def = node.signature?.definition;
  if (typeof def === 'string') {
    try {
      sig = signature(def);
    } catch {
      throw new Unsupported(`lambda signature ${def}`);
    }
  }
  const bodyNode = child(node, 'body');
  const names = new Set<string>([...params, ...assignedNamesOf([bodyNode])]);
  const body = c.inFrame(names, () => c.compileTail(bodyNode));
  const slots = [...names];
  const paramSlots = params.map((p) => slots.indexOf(p));
  return { arity: params.length, sig, frameSize: slots.length, paramSlots, itemFrame: itemFrameOf(slots.length, paramSlots), body };
}

/** Evaluate the body for (already validated) arguments: parameters past `args` are undefined. */
export function enterLambda(code: LambdaCode, defCtx: unknown, defScope: Scope, args: readonly unknown[]): unknown {
  if (code.frameSize === 0) return code.body(defCtx, defScope);
  const vars = newFrame(code.frameSize);
  const slots = code.paramSlots;
  for (let i = 0; i < slots.length; i++) vars[slots[i]] = args[i];
  return code.body(defCtx, new Scope(vars, defScope, defScope.st));
}

/**
 * Evaluate the body the way $map/$filter call a lambda: `value`, then `index` and
 * `array` when the lambda declares that many parameters (no signature).
 */
export function enterForItem(code: LambdaCode, defCtx: unknown, defScope: Scope, value: unknown, index: number, array: unknown): unknown {
  let vars: unknown[];
  switch (code.itemFrame) {
    case 'none': return code.body(defCtx, defScope);
    case 'value': vars = [value]; break;
    case 'value, index': vars = [value, index]; break;
    case 'value, index, array': vars = [value, index, array]; break;
    default: {
      vars = newFrame(code.frameSize);
      const slots = code.paramSlots;
      for (let i = 0; i < slots.length; i++) vars[slots[i]] = i === 0 ? value : i === 1 ? index : i === 2 ? array : undefined;
    }
  }
  return code.body(defCtx, new Scope(vars, defScope, defScope.st));
}

/** How enterForItem fills the frame: literally when it holds just 1–3 distinct parameters. */
function itemFrameOf(frameSize: number, paramSlots: readonly number[]): ItemFrame {
  if (frameSize === 0) return 'none';
  if (frameSize !== paramSlots.length || !paramSlots.every((slot, i) => slot === i)) return 'slots';
  switch (frameSize) {
    case 1: return 'value';
    case 2: return 'value, index';
    case 3: return 'value, index, array';
    default: return 'slots';
  }
}

/** The function value of a lambda created in `defCtx` / `defScope`. */
export function lambdaValue(code: LambdaCode, defCtx: unknown, defScope: Scope): FnValue {
  const sig = code.sig;
  return makeLambda((args, callerCtx) => enterLambda(code, defCtx, defScope, sig ? sig.validate(args, callerCtx) : args), code.arity, defCtx);
}
