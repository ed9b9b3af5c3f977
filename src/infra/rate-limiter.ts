/**
 * Token buckets per API key: capacity twice the rate, refilled continuously. Shared by every
 * route and door the key may call. In memory, per engine.
 */
export class RateLimiter {
  private readonly buckets = new Map<number, { tokens: number; at: number; rate: number }>();

  /** Takes one token; `retryAfterSeconds` when the bucket is empty. */
  take(keyId: number, rate: number, nowMs: number): { ok: true } | { ok: false; retryAfterSeconds: number } {
    const capacity = rate * 2;
    let bucket = this.buckets.get(keyId);
    if (!bucket || bucket.rate !== rate) {
      bucket = { tokens: capacity, at: nowMs, rate };
      this.buckets.set(keyId, bucket);
    } else {
      bucket.tokens = Math.min(capacity, bucket.tokens + ((nowMs - bucket.at) / 1000) * rate);
      bucket.at = nowMs;
    }
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { ok: true };
    }
    return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / rate)) };
  }

  /** Spends a token for a refusal attributable to the key (never refuses by itself). */
  spend(keyId: number, rate: number, nowMs: number): void {
    this.take(keyId, rate, nowMs);
  }
}
