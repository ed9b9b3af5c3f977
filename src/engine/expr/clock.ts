/**
 * The evaluation timestamp behind $now() and $millis(): captured at most once
 * per evaluation, so every call within one evaluation sees the same instant.
 * Fast-path evaluations are synchronous, so a module-level slot (saved and
 * restored around nested evaluations) is enough.
 */
let current: number | undefined;

export function evaluationMillis(): number {
  if (current === undefined) current = Date.now();
  return current;
}

/** Start a fresh evaluation; returns the previous slot value for `endEvaluation`. */
export function beginEvaluation(): number | undefined {
  const saved = current;
  current = undefined;
  return saved;
}

export function endEvaluation(saved: number | undefined): void {
  current = saved;
}
