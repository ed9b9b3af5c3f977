/**
 * jsonata's "sequences": arrays flagged `sequence = true` that carry the
 * result of a path or a function like $map. A sequence of one value collapses to
 * the value and an empty one to undefined (unless flagged `keepSingleton`), while a
 * plain JSON array is kept as it is. The flags are set exactly as jsonata sets
 * them so values can move between the fast path and jsonata.
 */

export interface Seq extends Array<unknown> {
  sequence?: boolean;
  keepSingleton?: boolean;
  cons?: boolean;
  outerWrapper?: boolean;
  tupleStream?: boolean;
}

export function createSeq(): Seq {
  const s: Seq = [];
  s.sequence = true;
  return s;
}

export function seqOf(v: unknown): Seq {
  const s: Seq = [v];
  s.sequence = true;
  return s;
}

export function isSeq(v: unknown): v is Seq {
  return Array.isArray(v) && (v as Seq).sequence === true;
}

/** Mark an array built by an array constructor, so that path steps do not flatten it. */
export function markCons(a: unknown[]): Seq {
  Object.defineProperty(a, 'cons', { enumerable: false, configurable: false, value: true });
  return a;
}

/** The normalisation jsonata applies to the result of every evaluated node. */
export function normalize(result: unknown, keepArray: boolean): unknown {
  if (Array.isArray(result) && (result as Seq).sequence === true) {
    const s = result as Seq;
    if (s.tupleStream) return s;
    if (keepArray) s.keepSingleton = true;
    if (s.length === 0) return undefined;
    if (s.length === 1) return s.keepSingleton ? s : s[0];
  }
  return result;
}

const NORMALISED = new WeakSet<object>();

/** Mark a compiled evaluator whose results are already normalised (the compiler adds no normalisation). */
export function normalised<T extends object>(ev: T): T {
  NORMALISED.add(ev);
  return ev;
}

export function isNormalised(ev: object): boolean {
  return NORMALISED.has(ev);
}
