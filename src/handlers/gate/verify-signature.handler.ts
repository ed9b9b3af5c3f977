import { createHmac, timingSafeEqual } from 'node:crypto';
import { inject, injectable } from 'inversify';
import type { Clock } from '../../domain/clock';
import type { QueryHandler } from '../../domain/message';
import { refusal, type Refusal } from '../../domain/refusal';
import type { ServeContext } from '../../infra/serve/serve-context';
import { TOKENS } from '../../infra/tokens';
import type { VerifyBodySignature } from '../../queries/gate-queries';

const SIGNATURE = /^sha256=([0-9a-fA-F]{64})$/;

/** `X-Svc-Signature: sha256=<hex HMAC-SHA256 of the raw body>` with the `serve --secret` key, compared in constant time. */
export function signatureMatches(secret: string, rawBody: Buffer, header: string | undefined): boolean {
  const m = header === undefined ? null : SIGNATURE.exec(header.trim());
  if (!m?.[1]) return false;
  const expected = createHmac('sha256', secret).update(rawBody).digest();
  return timingSafeEqual(expected, Buffer.from(m[1], 'hex'));
}

@injectable()
export class VerifyBodySignatureHandler implements QueryHandler<VerifyBodySignature> {
  constructor(
    @inject(TOKENS.ServeContext) private readonly serve: ServeContext,
    @inject(TOKENS.Clock) private readonly clock: Clock,
  ) {}

  async execute(query: VerifyBodySignature): Promise<Refusal | null> {
    const secret = this.serve.settings.secret;
    if (secret === undefined || signatureMatches(secret, query.rawBody, query.signature)) return null;
    const { tenant, flow, keyId } = query.subject;
    const denied = refusal({
      status: 401,
      message: 'X-Svc-Signature does not match the body: expected sha256=<hex HMAC-SHA256 of the raw body>',
      reason: 'signature_invalid',
      keyId,
      tenant,
      flow,
    });
    this.serve.accessLog.denied(denied, query.door, query.meta.correlationId, this.clock.now());
    return denied;
  }
}
