/**
 * Types of the (post-processed) abstract syntax tree produced by
 * `jsonata(src).ast()`. Only the fields the compiler reads are described;
 * everything is optional because jsonata reuses one shape for all node kinds.
 */

export interface AstStage {
  readonly type: string; // 'filter' | 'index'
  readonly expr?: AstNode;
  readonly value?: unknown;
}

export type AstPair = readonly [AstNode, AstNode];

export interface AstSignature {
  readonly definition?: string;
}

export interface AstNode {
  readonly type: string;
  readonly value?: unknown;
  readonly position?: number;
  // paths
  readonly steps?: readonly AstNode[];
  readonly stages?: readonly AstStage[];
  readonly predicate?: readonly AstStage[];
  readonly keepArray?: boolean;
  readonly keepSingletonArray?: boolean;
  readonly consarray?: boolean;
  // binary, bind, apply; unary '{' keeps its pairs in lhs
  readonly lhs?: AstNode | readonly AstPair[];
  readonly rhs?: AstNode;
  // unary '[' and block
  readonly expressions?: readonly AstNode[];
  // unary '-'
  readonly expression?: AstNode;
  // function call / partial application
  readonly procedure?: AstNode;
  readonly arguments?: readonly AstNode[];
  // lambda
  readonly body?: AstNode;
  readonly signature?: AstSignature;
  readonly thunk?: boolean;
  // condition
  readonly condition?: AstNode;
  readonly then?: AstNode;
  readonly else?: AstNode;
  // features the fast path does not implement (their presence forces a fallback)
  readonly group?: unknown;
  readonly focus?: unknown;
  readonly index?: unknown;
  readonly tuple?: unknown;
  readonly ancestor?: unknown;
  readonly seekingParent?: unknown;
}

export function isAstNode(v: unknown): v is AstNode {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && typeof (v as { type?: unknown }).type === 'string';
}

/** A required child node; a malformed tree counts as unsupported. */
export function child(node: AstNode, field: 'rhs' | 'expression' | 'procedure' | 'body' | 'condition' | 'then'): AstNode {
  const c = node[field];
  if (c === undefined) throw new Unsupported(`missing ${field} on ${node.type}`);
  return c;
}

export function lhsNode(node: AstNode): AstNode {
  const l = node.lhs;
  if (l === undefined || Array.isArray(l)) throw new Unsupported(`missing lhs on ${node.type}`);
  return l as AstNode;
}

export function lhsPairs(node: AstNode): readonly AstPair[] {
  const l = node.lhs;
  if (!Array.isArray(l)) throw new Unsupported('object constructor without pairs');
  return l as readonly AstPair[];
}

/** Thrown at compile time when a construct is outside the supported subset. */
export class Unsupported extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'Unsupported';
  }
}
