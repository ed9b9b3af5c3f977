import type { Context } from 'koa';
import { RecordRefusal } from '../commands/record-refusal';
import type { Door } from '../domain/door';
import type { MessageMeta } from '../domain/message';
import { refusal } from '../domain/refusal';
import type { CommandBus, QueryBus } from '../infra/bus/bus';
import { VerifyBodySignature } from '../queries/gate-queries';
import { refuse, type Answer } from './answer';
import { bufferedBody, readBody, type BodyRead } from './read-body';

export interface BodyLimits {
  readonly ceiling: number;
  readonly signatureRequired: boolean;
  readonly tenant: string;
  readonly flow?: string;
  readonly keyId?: number;
}

/**
 * Reads an admitted request's body within its ceiling (413 while streaming, 408 when too slow)
 * and checks its signature; answers and returns undefined when it refused.
 * A body Node has already buffered, with no signature to check, is handed back at once (no
 * promise): that is every ordinary /run request, and a promise per request is measurable.
 */
export function readAdmittedBody(
  ctx: Context,
  answer: Answer,
  door: Door,
  limits: BodyLimits,
  announced: number | undefined,
  bodyTimeoutMs: number,
  buses: { commands: CommandBus; queries: QueryBus },
  meta: MessageMeta,
): Buffer | Promise<Buffer | undefined> {
  const buffered = bufferedBody(ctx.req, limits.ceiling, announced);
  if (buffered?.ok === true && !limits.signatureRequired) return buffered.raw;
  return readAndCheck(ctx, answer, door, limits, bodyTimeoutMs, buses, meta, buffered);
}

async function readAndCheck(
  ctx: Context,
  answer: Answer,
  door: Door,
  limits: BodyLimits,
  bodyTimeoutMs: number,
  buses: { commands: CommandBus; queries: QueryBus },
  meta: MessageMeta,
  buffered: BodyRead | undefined,
): Promise<Buffer | undefined> {
  const read = buffered ?? (await readBody(ctx.req, limits.ceiling, bodyTimeoutMs));
  if (!read.ok) {
    if (read.failure === 'timeout') return void answer.error(ctx, 408, 'request_timeout', `the body did not arrive within ${bodyTimeoutMs} ms`, { Connection: 'close' });
    if (read.failure === 'broken') return void answer.error(ctx, 400, 'invalid_input', `the body could not be read: ${read.error}`, { Connection: 'close' });
    const tooLarge = refusal({
      status: 413,
      message: `the body exceeds the ${limits.ceiling}-byte limit${limits.flow ? ` of flow ${limits.flow}` : ''} on the ${door} door`,
      reason: 'payload_too_large',
      keyId: limits.keyId,
      tenant: limits.tenant,
      flow: limits.flow,
    });
    await buses.commands.execute(new RecordRefusal(tooLarge, door, meta));
    return void refuse(answer, ctx, tooLarge, true);
  }
  if (limits.signatureRequired) {
    const subject = { tenant: limits.tenant, flow: limits.flow, keyId: limits.keyId };
    const bad = await buses.queries.execute(new VerifyBodySignature(door, subject, read.raw, ctx.get('x-svc-signature') || undefined, meta));
    if (bad) return void refuse(answer, ctx, bad, false);
  }
  return read.raw;
}
