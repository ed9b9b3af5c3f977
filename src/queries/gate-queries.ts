import type { Door } from '../domain/door';
import { Query, type MessageMeta } from '../domain/message';
import type { Refusal } from '../domain/refusal';
import type { Admission, GateCall, TenantAdmission } from '../handlers/gate/gate';

/** Pass a call through the gate (key, tenant, flow, scope, allowlist, rate, signature presence, Content-Length). */
export class AdmitCall extends Query<Admission<unknown> | Refusal> {
  constructor(readonly call: GateCall, meta: MessageMeta) {
    super(meta);
  }
}

/** Check `X-Svc-Signature` over the raw body, when the server runs with --secret. */
export class VerifyBodySignature extends Query<Refusal | null> {
  constructor(
    readonly door: Door,
    readonly subject: { readonly tenant: string; readonly flow?: string; readonly keyId?: number },
    readonly rawBody: Buffer,
    readonly signature: string | undefined,
    meta: MessageMeta,
  ) {
    super(meta);
  }
}

/** The gate of the connector-event door: key, tenant, rate, signature presence, installation ceiling. */
export class AdmitEvent extends Query<TenantAdmission | Refusal> {
  constructor(readonly call: Omit<GateCall, 'flow'>, meta: MessageMeta) {
    super(meta);
  }
}
