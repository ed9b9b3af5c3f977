import { hash, timingSafeEqual } from 'node:crypto';
import { bodyDoorOf, type Door } from '../../domain/door';
import type { InputNeeds } from '../../domain/flow-runner';
import { NOT_FOUND_MESSAGE, refusal, type Refusal } from '../../domain/refusal';
import type { CachedFlow, CachedKey, RegistrySnapshot } from '../../domain/registry-snapshot';
import { API_KEY_PREFIX } from '../../infra/crypto/api-key-secret';
import type { RateLimiter } from '../../infra/rate-limiter';

const NAME = /^[a-z0-9][a-z0-9-]{0,62}$/;
const BEARER = /^Bearer[ ]+(\S+)\s*$/i;
/** Compared against when no key matches, so unknown and wrong keys cost the same. */
const DUMMY_HASH = Buffer.alloc(32);

export interface GateSettings {
  /** false with `serve --no-auth`. */
  readonly auth: boolean;
  /** true with `serve --secret`. */
  readonly signatures: boolean;
  /** Installation layer of the body ceiling (serve --max-message-bytes / SVC_MAX_MESSAGE_BYTES). */
  readonly maxMessageBytes: number;
}

export interface GateCall {
  readonly door: Door;
  readonly tenant: string;
  readonly flow: string;
  readonly authorization: string | undefined;
  /** Content-Length when announced. */
  readonly contentLength: number | undefined;
  /** Whether the call carries an X-Svc-Signature header at all. */
  readonly signed: boolean;
}

export interface Admission<P> {
  readonly refused: false;
  readonly flow: CachedFlow<P>;
  readonly key: CachedKey | null;
  /** Body ceiling in bytes for this door, or null for doors without a body. */
  readonly ceiling: number | null;
  /** Whether the body's X-Svc-Signature must still be checked once read (serve --secret). */
  readonly signatureRequired: boolean;
  /** Whether the flow can read the request's headers / query: a door need not copy them when not. */
  readonly reads: InputNeeds;
}

const READS_ALL: InputNeeds = Object.freeze({ headers: true, query: true });

export const DEFAULT_MAX_MESSAGE_BYTES = 1024 * 1024;

export interface TenantAdmission {
  readonly refused: false;
  readonly tenant: string;
  readonly key: CachedKey | null;
  readonly ceiling: number;
  readonly signatureRequired: boolean;
}

/**
 * The platform's checks, one implementation for every door, in DESIGN.md's order:
 * key (401) -> tenant visible (404) -> flow exists (404) -> scope and allowlist (403) ->
 * rate (429) -> signature present (401) -> body ceiling by Content-Length (413).
 * The body is never needed here: the adapter reads it afterwards within `ceiling`, and the
 * signature over it is checked then.
 */
export class Gate<P> {
  constructor(
    private readonly snapshot: () => RegistrySnapshot<P>,
    private readonly limiter: RateLimiter,
    private readonly now: () => number,
    private readonly settings: GateSettings,
    /** What a prepared flow can read of the request (the runner's inputNeeds); default: everything. */
    private readonly readsOf: (prepared: P) => InputNeeds = () => READS_ALL,
  ) {}

  admit(call: GateCall): Admission<P> | Refusal {
    const registry = this.snapshot();
    let key: CachedKey | null = null;
    if (this.settings.auth) {
      const found = this.authenticate(registry, call.authorization);
      if ('refused' in found) return found;
      key = found;
    }
    const keyId = key?.id;

    if (!NAME.test(call.tenant) || !NAME.test(call.flow)) return this.notFound(key, call, 'bad_path');
    const tenant = registry.tenant(call.tenant);
    if (!tenant) return this.notFound(key, call, 'tenant_unknown');
    if (key && key.tenant !== tenant.id) return this.notFound(key, call, 'tenant_mismatch');
    if (tenant.status === 'disabled') return this.notFound(key, call, 'tenant_disabled');
    const flow = registry.flow(call.tenant, call.flow);
    if (!flow) return this.notFound(key, call, 'flow_unknown');

    if (key) {
      const required = flow.ir.required_scope;
      if (required !== null && key.scopes !== null && !key.scopes.has(required)) {
        return this.spend(key, refusal({ status: 403, message: `this API key lacks the scope '${required}' that flow ${flow.name} requires`, reason: 'scope_missing', keyId, tenant: tenant.id, flow: flow.name }));
      }
      if (key.flows !== null && !key.flows.has(flow.name)) {
        return this.spend(key, refusal({ status: 403, message: `this API key may not call flow ${flow.name}`, reason: 'flow_not_allowed', keyId, tenant: tenant.id, flow: flow.name }));
      }
      if (key.rateLimit !== null) {
        const taken = this.limiter.take(key.id, key.rateLimit, this.now());
        if (!taken.ok) {
          return refusal({
            status: 429,
            message: `this API key is over its rate of ${key.rateLimit} requests per second; retry after ${taken.retryAfterSeconds} s`,
            reason: 'rate_limited',
            retryAfterSeconds: taken.retryAfterSeconds,
            keyId,
            tenant: tenant.id,
            flow: flow.name,
          });
        }
      }
    }

    const bodyDoor = bodyDoorOf(call.door);
    if (bodyDoor && this.settings.signatures && !call.signed) {
      return refusal({ status: 401, message: 'X-Svc-Signature is required: sha256=<hex HMAC-SHA256 of the raw body>', reason: 'signature_missing', keyId, tenant: tenant.id, flow: flow.name });
    }
    const ceiling = bodyDoor ? (flow.ir.max_message_bytes?.[bodyDoor] ?? this.settings.maxMessageBytes) : null;
    if (ceiling !== null && call.contentLength !== undefined && call.contentLength > ceiling) {
      return refusal({ status: 413, message: `the body of ${call.contentLength} bytes exceeds the ${ceiling}-byte limit of flow ${flow.name} on the ${bodyDoor} door`, reason: 'payload_too_large', keyId, tenant: tenant.id, flow: flow.name });
    }
    return { refused: false, flow, key, ceiling, signatureRequired: bodyDoor !== undefined && this.settings.signatures, reads: this.readsOf(flow.prepared) };
  }

  /**
   * The gate of a door that addresses a tenant rather than one flow (connector events): key,
   * tenant, rate, signature presence and the installation's body ceiling. Which of the tenant's
   * flows the key may reach is `mayCall`.
   */
  admitTenant(call: Omit<GateCall, 'flow'>): TenantAdmission | Refusal {
    const registry = this.snapshot();
    let key: CachedKey | null = null;
    if (this.settings.auth) {
      const found = this.authenticate(registry, call.authorization);
      if ('refused' in found) return found;
      key = found;
    }
    const keyId = key?.id;
    const notFound = (reason: Refusal['reason']): Refusal => this.spend(key, refusal({ status: 404, message: NOT_FOUND_MESSAGE, reason, keyId, tenant: call.tenant }));
    if (!NAME.test(call.tenant)) return notFound('bad_path');
    const tenant = registry.tenant(call.tenant);
    if (!tenant) return notFound('tenant_unknown');
    if (key && key.tenant !== tenant.id) return notFound('tenant_mismatch');
    if (tenant.status === 'disabled') return notFound('tenant_disabled');
    if (key?.rateLimit) {
      const taken = this.limiter.take(key.id, key.rateLimit, this.now());
      if (!taken.ok) {
        return refusal({ status: 429, message: `this API key is over its rate of ${key.rateLimit} requests per second; retry after ${taken.retryAfterSeconds} s`, reason: 'rate_limited', retryAfterSeconds: taken.retryAfterSeconds, keyId, tenant: tenant.id });
      }
    }
    if (this.settings.signatures && !call.signed) {
      return refusal({ status: 401, message: 'X-Svc-Signature is required: sha256=<hex HMAC-SHA256 of the raw body>', reason: 'signature_missing', keyId, tenant: tenant.id });
    }
    const ceiling = this.settings.maxMessageBytes;
    if (call.contentLength !== undefined && call.contentLength > ceiling) {
      return refusal({ status: 413, message: `the body of ${call.contentLength} bytes exceeds the ${ceiling}-byte limit of this installation`, reason: 'payload_too_large', keyId, tenant: tenant.id });
    }
    return { refused: false, tenant: tenant.id, key, ceiling, signatureRequired: this.settings.signatures };
  }

  /** Whether `key` may call `flow`: its scope and its flow allowlist. */
  mayCall(key: CachedKey, flow: CachedFlow<P>): boolean {
    const required = flow.ir.required_scope;
    if (required !== null && key.scopes !== null && !key.scopes.has(required)) return false;
    return key.flows === null || key.flows.has(flow.name);
  }

  /** A refusal after authentication still spends the key's rate. */
  private spend(key: CachedKey | null, r: Refusal): Refusal {
    if (key?.rateLimit) this.limiter.spend(key.id, key.rateLimit, this.now());
    return r;
  }

  private notFound(key: CachedKey | null, call: GateCall, reason: Refusal['reason']): Refusal {
    return this.spend(key, refusal({ status: 404, message: NOT_FOUND_MESSAGE, reason, keyId: key?.id, tenant: call.tenant, flow: call.flow }));
  }

  private authenticate(registry: RegistrySnapshot<P>, authorization: string | undefined): CachedKey | Refusal {
    if (authorization === undefined || authorization.trim() === '') {
      return refusal({ status: 401, message: 'an API key is required: send Authorization: Bearer <API_KEY>', reason: 'missing_key' });
    }
    const match = BEARER.exec(authorization);
    if (!match?.[1]) return refusal({ status: 401, message: 'the Authorization header must be Bearer <API_KEY>', reason: 'malformed_authorization' });
    const value = match[1];
    // One-shot SHA-256 (the same digest as apiKeyDigest, without a Hash object per request).
    // Hex first: Node 20's one-shot hash is about three times slower with a Buffer result.
    const hex = hash('sha256', value, 'hex');
    const digest = Buffer.from(hex, 'hex');
    const candidate = value.startsWith(API_KEY_PREFIX) ? registry.keyByHash(hex) : undefined;
    const same = timingSafeEqual(candidate?.keyHash ?? DUMMY_HASH, digest);
    if (!candidate || !same) return refusal({ status: 401, message: 'the API key is not valid', reason: 'unknown_key' });
    if (candidate.revoked) return refusal({ status: 401, message: 'the API key has been revoked', reason: 'revoked_key', keyId: candidate.id, tenant: candidate.tenant });
    if (candidate.expiresAt !== null && this.now() >= candidate.expiresAt) {
      return refusal({ status: 401, message: 'the API key has expired', reason: 'expired_key', keyId: candidate.id, tenant: candidate.tenant });
    }
    return candidate;
  }
}
