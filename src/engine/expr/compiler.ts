/**
 * Lowers a jsonata AST to closures. Each node becomes an `Ev` that returns
 * exactly what jsonata's `evaluate` would for that node (including the
 * normalisation of sequences); constructs outside the supported subset throw
 * `Unsupported`, which makes the whole expression use the jsonata fallback.
 */
import { AstNode, Unsupported } from './ast';
import { isUnimplementedBuiltin } from './builtin-functions';
import { assignedNamesOf } from './analysis';
import { NodeCompiler } from './compiler-api';
import { compileApply, compileCall, compileLambda } from './compile-functions';
import { compileBinary, compileCondition, compileNegation } from './compile-operators';
import { compileArray, compileBind, compileBlock, compileObject } from './compile-constructors';
import { compilePath, withPredicates } from './compile-path';
import { compileLookup, Ev, FrameRef } from './scope';
import { isNormalised, normalised, normalize } from './sequence';

/** Node types whose own evaluation never yields a sequence. */
const NEVER_SEQUENCE = new Set(['string', 'number', 'value', 'lambda', 'unary']);

class Compiler implements NodeCompiler {
  /** compile-time frames, outermost first; a name's slot is its index */
  private readonly frames: (readonly string[])[] = [];

  constructor(private readonly registry: ReadonlyMap<string, unknown>) {}

  registered(name: string): unknown {
    const value = this.registry.get(name);
    if (value === undefined && isUnimplementedBuiltin(name)) throw new Unsupported(`function $${name}`);
    return value;
  }

  isFrameBound(name: string): boolean {
    return this.frameRefs(name).length > 0;
  }

  frameRefs(name: string): readonly FrameRef[] {
    const refs: FrameRef[] = [];
    const n = this.frames.length;
    for (let i = n - 1; i >= 0; i--) {
      const slot = this.frames[i].indexOf(name);
      if (slot >= 0) refs.push({ depth: n - 1 - i, slot });
    }
    return refs;
  }

  inFrame<T>(names: ReadonlySet<string>, body: () => T): T {
    if (names.size === 0) return body();
    this.frames.push([...names]);
    try {
      return body();
    } finally {
      this.frames.pop();
    }
  }

  compile(node: AstNode): Ev {
    return this.finish(node, this.raw(node, false));
  }

  compileTail(node: AstNode): Ev {
    if (node.type === 'lambda' && node.thunk === true) {
      const call = node.body;
      if (call === undefined || call.type !== 'function') throw new Unsupported('malformed tail call');
      return compileCall(this, call, true);
    }
    if (node.type === 'condition' || node.type === 'block') {
      if (node.predicate !== undefined || node.group !== undefined) throw new Unsupported('predicate on a tail expression');
      return this.finish(node, this.raw(node, true));
    }
    return this.compile(node);
  }

  /** Predicates, then jsonata's normalisation of the node's result. */
  private finish(node: AstNode, ev: Ev): Ev {
    if (node.group !== undefined) throw new Unsupported('grouping');
    const filtered = withPredicates(this, node, ev);
    if (filtered === ev && node.keepArray !== true) {
      if (NEVER_SEQUENCE.has(node.type) || (node.type === 'binary' && node.value !== '..')) return normalised(ev);
      if (isNormalised(ev)) return ev;
    }
    const keep = node.keepArray === true;
    return (ctx, sc) => normalize(filtered(ctx, sc), keep);
  }

  private raw(node: AstNode, tail: boolean): Ev {
    switch (node.type) {
      case 'string':
      case 'number':
      case 'value': {
        const v = node.value;
        return () => v;
      }
      case 'path':
        return compilePath(this, node);
      case 'variable':
        return this.variable(node);
      case 'binary':
        return compileBinary(this, node);
      case 'unary':
        switch (node.value) {
          case '-': return compileNegation(this, node);
          case '[': return compileArray(this, node);
          case '{': return compileObject(this, node);
          default: throw new Unsupported(`unary ${String(node.value)}`);
        }
      case 'condition':
        return compileCondition(this, node, tail);
      case 'block':
        return compileBlock(this, node, tail);
      case 'bind':
        return compileBind(this, node);
      case 'function':
        return compileCall(this, node, false);
      case 'lambda':
        return compileLambda(this, node);
      case 'apply':
        return compileApply(this, node);
      default:
        throw new Unsupported(`node type ${node.type}`);
    }
  }

  private variable(node: AstNode): Ev {
    const name = node.value;
    if (typeof name !== 'string') throw new Unsupported('variable name');
    if (name === '') return (ctx) => ctx;
    if (name === '$') return (_ctx, sc) => sc.st.root;
    // without predicates or `[]` on the node the value is normalised as it is read
    const self = node.predicate === undefined && node.keepArray !== true;
    const lookup = compileLookup(this.frameRefs(name), name, this.registered(name), self);
    return self ? normalised(lookup) : lookup;
  }
}

export interface CompiledTree {
  readonly ev: Ev;
  /** the size of the evaluation root's frame for top-level assignments (0: none) */
  readonly rootFrame: number;
}

/** Compile a whole expression; throws `Unsupported` when it is outside the fast subset. */
export function compileTree(ast: AstNode, registry: ReadonlyMap<string, unknown>): CompiledTree {
  const c = new Compiler(registry);
  const names = assignedNamesOf([ast]);
  const ev = c.inFrame(names, () => c.compile(ast));
  return { ev, rootFrame: names.size };
}
