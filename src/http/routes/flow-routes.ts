import Router from '@koa/router';
import type { Context } from 'koa';
import { RecordRefusal } from '../../commands/record-refusal';
import { RunFlow } from '../../commands/run-flow';
import { newMeta } from '../../domain/message';
import { refusal } from '../../domain/refusal';
import type { CommandBus, QueryBus } from '../../infra/bus/bus';
import { GetFlowInfo, FindPublicFlow } from '../../queries/flow-info';
import { AdmitCall, VerifyBodySignature } from '../../queries/gate-queries';
import type { SvcState } from '../correlation';
import { answerFor, jsonAnswer, refuse } from '../answer';
import { sendError } from '../error-body';
import { bufferedBody, readBody } from '../read-body';
import { contentLength, flowHeaders, flowQuery, requestScheme } from '../request-parts';
import { NOT_FOUND_MESSAGE } from '../../domain/refusal';
import { renderWsdl } from '../soap/wsdl';

const meta = (ctx: Context) => newMeta((ctx.state as SvcState).correlationId);

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
    const ceiling = admission.ceiling ?? 0;
    // Usually the whole body is already buffered: no promise to wait for then.
    const read = bufferedBody(ctx.req, ceiling, announced) ?? (await readBody(ctx.req, ceiling, bodyTimeoutMs));
    if (!read.ok) {
      if (read.failure === 'timeout') return answer.error(ctx, 408, 'request_timeout', `the body did not arrive within ${bodyTimeoutMs} ms`, { Connection: 'close' });
      if (read.failure === 'broken') return answer.error(ctx, 400, 'invalid_input', `the body could not be read: ${read.error}`, { Connection: 'close' });
      const tooLarge = refusal({
        status: 413,
        message: `the body exceeds the ${ceiling}-byte limit of flow ${admission.flow.name} on the run door`,
        reason: 'payload_too_large',
        keyId: admission.key?.id,
        tenant: admission.flow.tenant,
        flow: admission.flow.name,
      });
      await commands.execute(new RecordRefusal(tooLarge, 'run', m));
      return refuse(answer, ctx, tooLarge, true);
    }
    if (admission.signatureRequired) {
      const badSignature = await queries.execute(new VerifyBodySignature('run', admission, read.raw, ctx.get('x-svc-signature') || undefined, m));
      if (badSignature) return refuse(answer, ctx, badSignature, false);
    }
    const decoded = answer.decode(read.raw, headers['content-type'] || undefined, admission.flow.ir);
    if (!decoded.ok) return answer.error(ctx, decoded.status, decoded.code, decoded.message);
    // Copied for the flow only when it can read them at all.
    const reads = admission.reads;
    const result = await commands.execute(new RunFlow(admission, 'run', decoded.body, reads.headers ? flowHeaders(ctx) : {}, reads.query ? flowQuery(ctx) : {}, m));
    ctx.res.setHeader('X-Svc-Flow-Version', result.version);
    answer.result(ctx, result, admission.flow.ir);
  });

  router.get('/flows/:tenant/:name', async (ctx) => {
    const m = meta(ctx);
    const admission = await queries.execute(
      new AdmitCall({ door: 'info', tenant: ctx.params.tenant ?? '', flow: ctx.params.name ?? '', authorization: ctx.get('authorization') || undefined, contentLength: undefined, signed: false }, m),
    );
    if (admission.refused) return refuse(jsonAnswer, ctx, admission, false);
    ctx.type = 'application/json';
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
