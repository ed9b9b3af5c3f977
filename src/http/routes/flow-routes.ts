import Router from '@koa/router';
import type { Context } from 'koa';
import { RunFlow } from '../../commands/run-flow';
import { newMeta } from '../../domain/message';
import type { CommandBus, QueryBus } from '../../infra/bus/bus';
import { GetFlowInfo, FindPublicFlow } from '../../queries/flow-info';
import { AdmitCall } from '../../queries/gate-queries';
import type { SvcState } from '../correlation';
import { answerFor, decodeJson, JSON_CONTENT_TYPE, jsonAnswer, refuse } from '../answer';
import { sendError } from '../error-body';
import { readAdmittedBody, type BodyLimits } from '../admitted-body';
import type { Admission } from '../../handlers/gate/gate';
import { EnqueueMessage } from '../../commands/queue-commands';
import { AcceptEvent } from '../../commands/accept-event';
import { QueueUnavailableError } from '../../domain/queue';
import { AdmitEvent } from '../../queries/gate-queries';
import { contentLength, flowHeaders, flowQuery, requestScheme } from '../request-parts';
import { NOT_FOUND_MESSAGE } from '../../domain/refusal';
import { renderWsdl } from '../soap/wsdl';

const meta = (ctx: Context) => newMeta((ctx.state as SvcState).correlationId);
const EVENT_SOURCE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/;

const limitsOf = (admission: Admission<unknown>): BodyLimits => ({
  ceiling: admission.ceiling ?? 0,
  signatureRequired: admission.signatureRequired,
  tenant: admission.flow.tenant,
  flow: admission.flow.name,
  keyId: admission.key?.id,
});

/** The flow routes: thin adapters that translate HTTP to gate queries and the RunFlow command. */
export function flowRoutes(router: Router, commands: CommandBus, queries: QueryBus, bodyTimeoutMs: number): Router {
  router.post('/flows/:tenant/:name/run', async (ctx) => {
    const m = meta(ctx);
    const headers = ctx.req.headers;
    const answer = answerFor(ctx);
    const signature = headers['x-svc-signature'];
    const announced = contentLength(ctx);
    // Awaited: by the time this resumes, Node's parser has usually buffered the whole body.
    const admission = await queries.execute(
      new AdmitCall(
        {
          door: 'run',
          tenant: ctx.params.tenant ?? '',
          flow: ctx.params.name ?? '',
          authorization: headers.authorization || undefined,
          contentLength: announced,
          signed: signature !== undefined && signature !== '',
        },
        m,
      ),
    );
    if (admission.refused) return refuse(answer, ctx, admission, true);
    const read = readAdmittedBody(ctx, answer, 'run', limitsOf(admission), announced, bodyTimeoutMs, { commands, queries }, m);
    const raw = Buffer.isBuffer(read) ? read : await read;
    if (raw === undefined) return;
    const decoded = answer.decode(raw, headers['content-type'] || undefined, admission.flow.ir);
    if (!decoded.ok) return answer.error(ctx, decoded.status, decoded.code, decoded.message);
    // Copied for the flow only when it can read them at all.
    const reads = admission.reads;
    const result = await commands.execute(new RunFlow(admission, 'run', decoded.body, reads.headers ? flowHeaders(ctx) : {}, reads.query ? flowQuery(ctx) : {}, m));
    ctx.res.setHeader('X-Svc-Flow-Version', result.version);
    answer.result(ctx, result, admission.flow.ir);
  });

  router.post('/flows/:tenant/:name/enqueue', async (ctx) => {
    const m = meta(ctx);
    const headers = ctx.req.headers;
    const signature = headers['x-svc-signature'];
    const announced = contentLength(ctx);
    const admission = await queries.execute(
      new AdmitCall(
        { door: 'enqueue', tenant: ctx.params.tenant ?? '', flow: ctx.params.name ?? '', authorization: headers.authorization || undefined, contentLength: announced, signed: signature !== undefined && signature !== '' },
        m,
      ),
    );
    if (admission.refused) return refuse(jsonAnswer, ctx, admission, true);
    const read = readAdmittedBody(ctx, jsonAnswer, 'enqueue', limitsOf(admission), announced, bodyTimeoutMs, { commands, queries }, m);
    const raw = Buffer.isBuffer(read) ? read : await read;
    if (raw === undefined) return;
    const decoded = jsonAnswer.decode(raw, headers['content-type'] || undefined, admission.flow.ir);
    if (!decoded.ok) return jsonAnswer.error(ctx, decoded.status, decoded.code, decoded.message);
    try {
      const result = await commands.execute(new EnqueueMessage(admission, decoded.body, m));
      if (!result.ok) return jsonAnswer.error(ctx, result.status, result.code, result.message);
      ctx.status = 202;
      ctx.set('Content-Type', JSON_CONTENT_TYPE);
      ctx.body = JSON.stringify({ message_id: result.message_id, correlation_id: result.correlation_id });
    } catch (err) {
      if (err instanceof QueueUnavailableError) return jsonAnswer.error(ctx, 503, 'queue_unavailable', `the message could not be stored durably, so it was not accepted: ${err.message}`, { 'Retry-After': '5' });
      throw err;
    }
  });

  router.post('/connector/events/:tenant/:source', async (ctx) => {
    const m = meta(ctx);
    const headers = ctx.req.headers;
    const signature = headers['x-svc-signature'];
    const announced = contentLength(ctx);
    const tenant = ctx.params.tenant ?? '';
    const source = ctx.params.source ?? '';
    const admission = await queries.execute(
      new AdmitEvent({ door: 'event', tenant, authorization: headers.authorization || undefined, contentLength: announced, signed: signature !== undefined && signature !== '' }, m),
    );
    if (admission.refused) return refuse(jsonAnswer, ctx, admission, true);
    if (!EVENT_SOURCE.test(source)) return jsonAnswer.error(ctx, 400, 'invalid_input', `event source '${source}' is not valid: use letters, digits, dots, dashes and underscores`);
    const read = readAdmittedBody(ctx, jsonAnswer, 'event', { ceiling: admission.ceiling, signatureRequired: admission.signatureRequired, tenant, keyId: admission.key?.id }, announced, bodyTimeoutMs, { commands, queries }, m);
    const raw = Buffer.isBuffer(read) ? read : await read;
    if (raw === undefined) return;
    const decoded = decodeJson(raw, headers['content-type'] || undefined);
    if (!decoded.ok) return jsonAnswer.error(ctx, decoded.status, decoded.code, decoded.message);
    const bodyType = typeof decoded.body === 'object' && decoded.body !== null ? (decoded.body as { type?: unknown }).type : undefined;
    const type = ctx.get('x-svc-event-type') || (typeof bodyType === 'string' ? bodyType : '');
    if (type === '') return jsonAnswer.error(ctx, 400, 'invalid_input', 'the event has no type: send X-Svc-Event-Type or a "type" field in the body');
    try {
      const accepted = await commands.execute(new AcceptEvent(tenant, source, type, decoded.body, admission.key, raw.length, m));
      ctx.status = 202;
      ctx.set('Content-Type', JSON_CONTENT_TYPE);
      ctx.body = JSON.stringify(accepted);
    } catch (err) {
      if (err instanceof QueueUnavailableError) return jsonAnswer.error(ctx, 503, 'queue_unavailable', `the event could not be stored durably, so it was not accepted: ${err.message}`, { 'Retry-After': '5' });
      throw err;
    }
  });

  router.get('/flows/:tenant/:name', async (ctx) => {
    const m = meta(ctx);
    const admission = await queries.execute(
      new AdmitCall({ door: 'info', tenant: ctx.params.tenant ?? '', flow: ctx.params.name ?? '', authorization: ctx.get('authorization') || undefined, contentLength: undefined, signed: false }, m),
    );
    if (admission.refused) return refuse(jsonAnswer, ctx, admission, false);
    ctx.set('Content-Type', JSON_CONTENT_TYPE);
    ctx.body = JSON.stringify(await queries.execute(new GetFlowInfo(admission, m)));
  });

  router.get('/flows/:tenant/:name/wsdl', async (ctx) => {
    const tenant = ctx.params.tenant ?? '';
    const name = ctx.params.name ?? '';
    const flow = await queries.execute(new FindPublicFlow(tenant, name, meta(ctx)));
    if (!flow) return sendError(ctx, 404, 'not_found', NOT_FOUND_MESSAGE);
    const endpoint = `${requestScheme(ctx)}://${ctx.host}/flows/${tenant}/${name}/run`;
    ctx.type = 'text/xml; charset=utf-8';
    ctx.body = renderWsdl({ tenant, name, description: flow.ir.description, input: flow.ir.input, output: flow.ir.output }, endpoint);
  });

  return router;
}
