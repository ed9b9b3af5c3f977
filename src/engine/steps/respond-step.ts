/** `respond`: ends the run with its status, headers (strings, no hop-by-hop ones) and body. */
import type { RespondStepIR } from '../../flow';
import { flowError, RespondSignal } from '../errors';
import { then } from '../maybe-promise';
import { evaluateEach, type CompiledValue } from '../templates';
import { headerMap } from './http-step';
import { checkStatus, type PrepareTools, type StepExec } from './step-kit';

const ABSENT: CompiledValue = { constant: true, evaluate: () => undefined };

/** Headers a flow may not set on its answer: connection-level ones, and the length the server computes. */
const HOP_BY_HOP: ReadonlySet<string> = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'trailers',
  'transfer-encoding',
  'upgrade',
  'content-length',
]);

export function responseHeaders(h: unknown, step: string): Record<string, string> {
  const all = headerMap(h, step, 'headers');
  const named = (all['connection'] ?? '').split(',').map((s) => s.trim().toLowerCase());
  for (const name of Object.keys(all)) {
    if (HOP_BY_HOP.has(name) || named.includes(name)) delete all[name];
  }
  return all;
}

export function prepareRespond(ir: RespondStepIR, t: PrepareTools): StepExec {
  const step = ir.id;
  const fields = [t.value(ir.status, 'status'), ir.headers === null ? ABSENT : t.value(ir.headers, 'headers'), ir.body === null ? ABSENT : t.value(ir.body, 'body')];
  return (scope) =>
    then(evaluateEach(fields, scope.root), ([s, h, b]) => {
      const status = checkStatus(s, 100, 599, step);
      if (typeof status === 'string') throw flowError(step, status);
      throw new RespondSignal(status, responseHeaders(h, step), b);
    });
}
