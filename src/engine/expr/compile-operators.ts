/**
 * Operators: arithmetic, comparison, equality, `&`, `and`/`or`, `in`, the range
 * `..`, unary minus and the conditional `? :` — with jsonata's type rules and
 * error codes (T2001/T2002, T2009/T2010, D1002, ...).
 */
import { AstNode, child, lhsNode, Unsupported } from './ast';
import { NodeCompiler } from './compiler-api';
import { exprError } from './errors';
import { Ev } from './scope';
import { Seq } from './sequence';
import { boolize, castString, deepEqual, isNumeric, toBoolean } from './values';

type Arith = (l: number, r: number) => number;

const ARITH: Readonly<Record<string, Arith>> = {
  '+': (l, r) => l + r,
  '-': (l, r) => l - r,
  '*': (l, r) => l * r,
  '/': (l, r) => l / r,
  '%': (l, r) => l % r,
};

export function arithmetic(op: string, lhs: unknown, rhs: unknown): unknown {
  if (lhs !== undefined && !isNumeric(lhs)) throw exprError('T2001', { value: lhs, token: op });
  if (rhs !== undefined && !isNumeric(rhs)) throw exprError('T2002', { value: rhs, token: op });
  if (lhs === undefined || rhs === undefined) return undefined;
  return ARITH[op](lhs, rhs);
}

export function compare(op: string, lhs: unknown, rhs: unknown): unknown {
  const lt = typeof lhs;
  const rt = typeof rhs;
  const lok = lt === 'undefined' || lt === 'string' || lt === 'number';
  const rok = rt === 'undefined' || rt === 'string' || rt === 'number';
  if (!lok || !rok) {
    throw exprError('T2010', { value: !(lt === 'string' || lt === 'number') ? lhs : rhs, token: op });
  }
  if (lt === 'undefined' || rt === 'undefined') return undefined;
  if (lt !== rt) throw exprError('T2009', { value: lhs, value2: rhs, token: op });
  const l = lhs as string | number;
  const r = rhs as string | number;
  switch (op) {
    case '<': return l < r;
    case '<=': return l <= r;
    case '>': return l > r;
    default: return l >= r;
  }
}

export function concat(lhs: unknown, rhs: unknown): string {
  const l = lhs === undefined ? '' : castString(lhs) as string;
  const r = rhs === undefined ? '' : castString(rhs) as string;
  return l.concat(r);
}

function range(lhs: unknown, rhs: unknown): unknown {
  if (lhs !== undefined && !Number.isInteger(lhs)) throw exprError('T2003', { value: lhs });
  if (rhs !== undefined && !Number.isInteger(rhs)) throw exprError('T2004', { value: rhs });
  if (lhs === undefined || rhs === undefined) return undefined;
  const lo = lhs as number;
  const hi = rhs as number;
  if (lo > hi) return undefined;
  const size = hi - lo + 1;
  if (size > 1e7) throw exprError('D2014', { value: size });
  const out: Seq = new Array<unknown>(size);
  for (let v = lo, i = 0; v <= hi; v++, i++) out[i] = v;
  out.sequence = true;
  return out;
}

function includes(lhs: unknown, rhs: unknown): boolean {
  if (lhs === undefined || rhs === undefined) return false;
  const items = Array.isArray(rhs) ? rhs : [rhs];
  for (let i = 0; i < items.length; i++) if (items[i] === lhs) return true;
  return false;
}

export function compileBinary(c: NodeCompiler, node: AstNode): Ev {
  const op = node.value as string;
  const L = c.compile(lhsNode(node));
  const R = c.compile(child(node, 'rhs'));
  switch (op) {
    case 'and':
      return (ctx, sc) => boolize(L(ctx, sc)) && boolize(R(ctx, sc));
    case 'or':
      return (ctx, sc) => boolize(L(ctx, sc)) || boolize(R(ctx, sc));
    case '+': case '-': case '*': case '/': case '%': {
      const f = ARITH[op];
      return (ctx, sc) => {
        const l = L(ctx, sc);
        const r = R(ctx, sc);
        if (typeof l === 'number' && typeof r === 'number' && Number.isFinite(l) && Number.isFinite(r)) return f(l, r);
        return arithmetic(op, l, r);
      };
    }
    case '=':
      return (ctx, sc) => {
        const l = L(ctx, sc);
        const r = R(ctx, sc);
        return l !== undefined && r !== undefined && deepEqual(l, r);
      };
    case '!=':
      return (ctx, sc) => {
        const l = L(ctx, sc);
        const r = R(ctx, sc);
        return l !== undefined && r !== undefined && !deepEqual(l, r);
      };
    case '<': case '<=': case '>': case '>=':
      return (ctx, sc) => compare(op, L(ctx, sc), R(ctx, sc));
    case '&':
      return (ctx, sc) => concat(L(ctx, sc), R(ctx, sc));
    case '..':
      return (ctx, sc) => range(L(ctx, sc), R(ctx, sc));
    case 'in':
      return (ctx, sc) => includes(L(ctx, sc), R(ctx, sc));
    default:
      throw new Unsupported(`operator ${op}`);
  }
}

export function compileNegation(c: NodeCompiler, node: AstNode): Ev {
  const E = c.compile(child(node, 'expression'));
  return (ctx, sc) => {
    const v = E(ctx, sc);
    if (v === undefined) return undefined;
    if (isNumeric(v)) return -v;
    throw exprError('D1002', { value: v, token: '-' });
  };
}

export function compileCondition(c: NodeCompiler, node: AstNode, tail: boolean): Ev {
  const C = c.compile(child(node, 'condition'));
  const T = tail ? c.compileTail(child(node, 'then')) : c.compile(child(node, 'then'));
  const elseNode = node.else;
  if (elseNode === undefined) return (ctx, sc) => (toBoolean(C(ctx, sc)) ? T(ctx, sc) : undefined);
  const E = tail ? c.compileTail(elseNode) : c.compile(elseNode);
  return (ctx, sc) => (toBoolean(C(ctx, sc)) ? T(ctx, sc) : E(ctx, sc));
}
