/**
 * Durations: `<n><unit>` with unit ms, s, m, h or d (`90s`, `15m`, `2h`, `1d`), or ISO 8601
 * `P[nW][nD][T[nH][nM][n[.f]S]]` (`PT2H`, `P1DT12H`). Returns milliseconds, or a message.
 */
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

export function parseDuration(text: string): { ok: true; ms: number } | { ok: false; message: string } {
  const s = text.trim();
  const simple = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)$/.exec(s);
  if (simple !== null) {
    const ms = Number(simple[1]) * (UNIT_MS[simple[2] ?? ''] ?? 0);
    return ms > 0 ? { ok: true, ms: Math.round(ms) } : { ok: false, message: 'a duration must be longer than zero' };
  }
  const iso = /^P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/i.exec(s);
  if (iso !== null && s.toUpperCase() !== 'P' && !/T$/i.test(s)) {
    const [, w, d, h, m, sec] = iso;
    const ms =
      Number(w ?? 0) * 7 * 86_400_000 +
      Number(d ?? 0) * 86_400_000 +
      Number(h ?? 0) * 3_600_000 +
      Number(m ?? 0) * 60_000 +
      Number(sec ?? 0) * 1000;
    return ms > 0 ? { ok: true, ms: Math.round(ms) } : { ok: false, message: 'a duration must be longer than zero' };
  }
  return {
    ok: false,
    message: `'${text}' is not a duration: write a number and a unit (90s, 15m, 2h, 1d; also ms) or ISO 8601 such as PT2H`,
  };
}
