/**
 * OAuth2 access tokens shared by the runs of one engine, per flow and client (key chosen by the
 * oauth2 step), kept until 30 s before they expire. Concurrent runs missing the same key share
 * one token request.
 */
import type { EngineClock } from './types';

export interface AccessToken {
  readonly accessToken: string;
  readonly tokenType: string;
  /** Epoch ms at which the token expires; null: the endpoint gave no expires_in (not cached). */
  readonly expiresAt: number | null;
}

const MARGIN_MS = 30_000;
const MAX_ENTRIES = 10_000;

export class TokenCache {
  private readonly entries = new Map<string, AccessToken>();
  private readonly inflight = new Map<string, Promise<AccessToken>>();

  constructor(private readonly clock: EngineClock) {}

  now(): number {
    return this.clock.now().getTime();
  }

  /** A cached token still good for more than 30 s. */
  get(key: string): AccessToken | undefined {
    const t = this.entries.get(key);
    if (t === undefined) return undefined;
    if (t.expiresAt === null || t.expiresAt - MARGIN_MS <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return t;
  }

  /**
   * The cached token, or the one `fetch` obtains (shared with concurrent callers of the same
   * key). `ownFailure` tells whether an error of a shared request concerns this caller too (a
   * request aborted by another run's timeout does not: this caller then asks itself).
   */
  async obtain(key: string, fetch: () => Promise<AccessToken>, ownFailure: (e: unknown) => boolean): Promise<{ token: AccessToken; cached: boolean }> {
    const hit = this.get(key);
    if (hit !== undefined) return { token: hit, cached: true };
    const pending = this.inflight.get(key);
    if (pending !== undefined) {
      try {
        return { token: await pending, cached: false };
      } catch (e) {
        if (ownFailure(e)) throw e;
      }
    }
    const request = fetch();
    this.inflight.set(key, request);
    try {
      const token = await request;
      this.store(key, token);
      return { token, cached: false };
    } finally {
      if (this.inflight.get(key) === request) this.inflight.delete(key);
    }
  }

  private store(key: string, token: AccessToken): void {
    if (token.expiresAt === null || token.expiresAt - MARGIN_MS <= this.now()) return;
    if (this.entries.size >= MAX_ENTRIES) {
      const oldest = this.entries.keys().next();
      if (oldest.done !== true) this.entries.delete(oldest.value);
    }
    this.entries.set(key, token);
  }
}
