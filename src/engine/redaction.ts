/**
 * Removes secret values from text that leaves the engine (error messages, log records).
 * Each secret is removed as written and URL-encoded (it may appear inside a URL).
 */
const MASK = '[redacted]';

export class Redactor {
  private readonly needles: readonly string[];

  constructor(secrets: Readonly<Record<string, string>>) {
    const set = new Set<string>();
    for (const value of Object.values(secrets)) {
      if (typeof value !== 'string' || value.length === 0) continue;
      set.add(value);
      const encoded = encodeURIComponent(value);
      if (encoded !== value) set.add(encoded);
      const formEncoded = new URLSearchParams({ v: value }).toString().slice(2);
      if (formEncoded !== value) set.add(formEncoded);
    }
    // longest first, so a secret that contains another is masked whole
    this.needles = [...set].sort((a, b) => b.length - a.length);
  }

  get empty(): boolean {
    return this.needles.length === 0;
  }

  redact(text: string): string {
    let out = text;
    for (const needle of this.needles) {
      if (out.includes(needle)) out = out.split(needle).join(MASK);
    }
    return out;
  }
}

const cache = new WeakMap<object, Redactor>();

/** The redactor of a secrets map (cached per map object: start-up reads secrets once). */
export function redactorFor(secrets: Readonly<Record<string, string>>): Redactor {
  let r = cache.get(secrets);
  if (r === undefined) {
    r = new Redactor(secrets);
    cache.set(secrets, r);
  }
  return r;
}
