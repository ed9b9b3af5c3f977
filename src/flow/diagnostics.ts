/** Diagnostics: every problem found in a flow file becomes one of these, never an exception. */
export interface Diagnostic {
  file: string;
  line: number;
  message: string;
}

/** Collects diagnostics for one analysis; de-duplicates and sorts at the end. */
export class DiagnosticSink {
  private readonly items: Diagnostic[] = [];
  private readonly fileOrder = new Map<string, number>();

  /** `primaryFile`: the file being checked; its diagnostics are listed first. */
  constructor(primaryFile?: string) {
    if (primaryFile !== undefined) this.fileOrder.set(primaryFile, 0);
  }

  add(file: string, line: number, message: string): void {
    const safeLine = Number.isInteger(line) && line > 0 ? line : 1;
    if (!this.fileOrder.has(file)) this.fileOrder.set(file, this.fileOrder.size);
    this.items.push({ file, line: safeLine, message });
  }

  get count(): number {
    return this.items.length;
  }

  /** Sorted by file (first reported first), then line; exact duplicates removed. */
  list(): Diagnostic[] {
    const seen = new Set<string>();
    const unique: Diagnostic[] = [];
    for (const d of this.items) {
      const key = `${d.file}\u0000${d.line}\u0000${d.message}`;
      if (seen.has(key)) continue;
      seen.add(key);
      unique.push(d);
    }
    const order = (f: string): number => this.fileOrder.get(f) ?? 0;
    return unique
      .map((d, i) => ({ d, i }))
      .sort((a, b) => order(a.d.file) - order(b.d.file) || a.d.line - b.d.line || a.i - b.i)
      .map((x) => x.d);
  }
}

/** Renders a value for a message: strings quoted, long values shortened. */
export function show(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'an empty value';
  if (Array.isArray(value)) return value.length === 0 ? 'an empty list' : `a list (${shorten(safeJson(value), 40)})`;
  if (typeof value === 'object') return `a map (${shorten(safeJson(value), 40)})`;
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  return shorten(safeJson(value), 60);
}

function safeJson(value: unknown): string {
  try {
    const s = JSON.stringify(value);
    return s === undefined ? String(value) : s;
  } catch {
    return String(value);
  }
}

export function shorten(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, max - 3)}...`;
}

/** Levenshtein distance, bounded for speed. */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  if (Math.abs(a.length - b.length) > 8) return Math.abs(a.length - b.length);
  const prev = new Array<number>(b.length + 1);
  const cur = new Array<number>(b.length + 1);
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      cur[j] = Math.min((prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost);
    }
    for (let j = 0; j <= b.length; j++) prev[j] = cur[j] ?? 0;
  }
  return prev[b.length] ?? 0;
}

/** The closest candidate, when it is close enough to be a plausible typo. */
export function closest(word: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestScore = Infinity;
  const lower = word.toLowerCase();
  for (const c of candidates) {
    if (c === word) continue;
    const score = c.toLowerCase() === lower ? 0 : editDistance(lower, c.toLowerCase());
    if (score < bestScore) {
      bestScore = score;
      best = c;
    }
  }
  const limit = Math.max(1, Math.floor(word.length / 3));
  return best !== undefined && bestScore <= limit ? best : undefined;
}

export function didYouMean(word: string, candidates: Iterable<string>, quote = "'"): string {
  const c = closest(word, candidates);
  return c === undefined ? '' : ` (did you mean ${quote}${c}${quote}?)`;
}

export function isPlainObject(u: unknown): u is Record<string, unknown> {
  if (typeof u !== 'object' || u === null || Array.isArray(u)) return false;
  const proto: unknown = Object.getPrototypeOf(u);
  return proto === Object.prototype || proto === null;
}

/** Sets a property safely (also for keys like "__proto__"). */
export function setProp(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
