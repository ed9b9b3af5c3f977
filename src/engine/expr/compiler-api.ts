/** The interface the node-specific compilers use to compile sub-expressions. */
import { AstNode } from './ast';
import { Ev, FrameRef } from './scope';

export interface NodeCompiler {
  /** Compile a node to an evaluator returning jsonata's normalised result. */
  compile(node: AstNode): Ev;
  /** Compile a node in tail position of a lambda body (may return a TailCall). */
  compileTail(node: AstNode): Ev;
  /** Compile with an extra compile-time frame holding `names` (slots in the set's order; none when empty). */
  inFrame<T>(names: ReadonlySet<string>, body: () => T): T;
  /** Whether some enclosing frame may bind `name` at run time. */
  isFrameBound(name: string): boolean;
  /** The enclosing frames that may bind `name`, innermost first. */
  frameRefs(name: string): readonly FrameRef[];
  /** The registered (built-in, platform or custom) value of a global name. */
  registered(name: string): unknown;
}
