/** What evaluating an expression came to: a value, or an error's code and message. */
export type Outcome = { ok: true; value: unknown } | { ok: false; code: unknown; message: string };

export async function outcome(run: () => unknown): Promise<Outcome> {
  try {
    return { ok: true, value: await run() };
  } catch (e) {
    const o = (typeof e === 'object' && e !== null ? e : {}) as { code?: unknown; message?: unknown };
    return { ok: false, code: o.code, message: String(o.message ?? e) };
  }
}
