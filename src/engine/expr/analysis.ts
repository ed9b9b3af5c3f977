/**
 * Static checks over jsonata's AST: child enumeration, the variables a frame
 * may assign (`$x := ...`), and the features the fast path does not implement.
 */
import { AstNode, isAstNode } from './ast';

/** Direct child nodes of a node (including predicate/stage expressions and object pairs). */
export function children(node: AstNode): AstNode[] {
  const out: AstNode[] = [];
  const add = (v: unknown): void => {
    if (isAstNode(v)) out.push(v);
  };
  node.steps?.forEach(add);
  node.stages?.forEach((s) => add(s.expr));
  node.predicate?.forEach((s) => add(s.expr));
  if (Array.isArray(node.lhs)) {
    for (const pair of node.lhs as readonly (readonly unknown[])[]) {
      if (Array.isArray(pair)) pair.forEach(add);
    }
  } else {
    add(node.lhs);
  }
  add(node.rhs);
  node.expressions?.forEach(add);
  add(node.expression);
  add(node.procedure);
  node.arguments?.forEach(add);
  add(node.body);
  add(node.condition);
  add(node.then);
  add(node.else);
  return out;
}

/** A node that starts a new variable frame (blocks and real lambdas; tail-call thunks do not). */
export function opensFrame(node: AstNode): boolean {
  return node.type === 'block' || (node.type === 'lambda' && node.thunk !== true);
}

/**
 * Names assigned with `:=` in the frame that `node` belongs to, i.e. without
 * descending into nested blocks and lambdas. `node` itself is always entered.
 */
export function assignedNames(node: AstNode, out: Set<string> = new Set()): Set<string> {
  const visit = (n: AstNode, top: boolean): void => {
    if (!top && opensFrame(n)) return;
    if (n.type === 'bind' && isAstNode(n.lhs) && typeof n.lhs.value === 'string') out.add(n.lhs.value);
    for (const c of children(n)) visit(c, false);
  };
  visit(node, true);
  return out;
}

/** Assigned names of several sibling expressions evaluated in the same frame. */
export function assignedNamesOf(nodes: readonly AstNode[]): Set<string> {
  const out = new Set<string>();
  for (const n of nodes) {
    if (opensFrame(n)) continue;
    assignedNames(n, out);
  }
  return out;
}
