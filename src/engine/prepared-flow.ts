/**
 * Preparation of a flow: every expression compiled (compileExpression), every JSON Schema
 * compiled (ajv), every step turned into a PreparedStep. Runs do no parsing.
 */
import { checkIrVersion, type FlowIR, type StepIR } from '../flow/ir';
import type { TlsClientFiles } from './egress/http-egress';
import type { FlowRuntime, PreparedStep } from './run-context';
import type { SchemaCheck, SchemaCompiler } from './schema-validation';
import { inputNeedsOf, type InputNeeds } from './input-needs';
import { compileValue } from './templates';
import { prepareCallFlow } from './steps/call-flow-step';
import { prepareEnqueue } from './steps/enqueue-step';
import { prepareFail } from './steps/fail-step';
import { prepareForeach } from './steps/foreach-step';
import { prepareHttp } from './steps/http-step';
import { prepareLog } from './steps/log-step';
import { prepareOAuth2 } from './steps/oauth2-step';
import { prepareRespond } from './steps/respond-step';
import type { PrepareTools, StepExec } from './steps/step-kit';
import { prepareSwitch } from './steps/switch-step';
import { prepareTransform } from './steps/transform-step';
import { prepareUnsupported } from './steps/unsupported-step';
import { prepareValidate } from './steps/validate-step';

export interface PreparedFlow {
  readonly ir: FlowIR;
  /** Whether runs can read `headers` / `query` (see input-needs.ts). */
  readonly reads: InputNeeds;
}

export class PreparedFlowImpl implements PreparedFlow, FlowRuntime {
  readonly steps: readonly PreparedStep[];
  readonly checkInput: SchemaCheck | null;
  readonly timeoutMs: number;
  readonly tls: TlsClientFiles | null;
  readonly reads: InputNeeds;

  constructor(
    readonly ir: FlowIR,
    schemas: SchemaCompiler,
  ) {
    checkIrVersion(ir);
    this.timeoutMs = ir.timeout_ms;
    this.tls =
      ir.tls === null
        ? null
        : Object.freeze({ certFile: ir.tls.client_cert, keyFile: ir.tls.client_key, caFile: ir.tls.ca_cert });
    this.checkInput = ir.input === null ? null : schemas.compile(ir.input);
    this.steps = prepareSteps(ir.steps, schemas, this.tls);
    this.reads = inputNeedsOf(ir);
  }
}

function execFor(ir: StepIR, t: PrepareTools): StepExec {
  switch (ir.type) {
    case 'transform':
      return prepareTransform(ir, t);
    case 'validate':
      return prepareValidate(ir, t);
    case 'http':
      return prepareHttp(ir, t);
    case 'oauth2_token':
      return prepareOAuth2(ir, t);
    case 'call_flow':
      return prepareCallFlow(ir, t);
    case 'foreach':
      return prepareForeach(ir, t);
    case 'switch':
      return prepareSwitch(ir, t);
    case 'enqueue':
      return prepareEnqueue(ir, t);
    case 'log':
      return prepareLog(ir, t);
    case 'fail':
      return prepareFail(ir, t);
    case 'respond':
      return prepareRespond(ir, t);
    case 'grpc':
    case 'correlate_open':
    case 'correlate_close':
      return prepareUnsupported(ir);
    default: {
      const unknown: { id?: unknown; type?: unknown } = ir;
      throw new Error(`step '${String(unknown.id)}' has type '${String(unknown.type)}', which this engine does not know`);
    }
  }
}

function prepareSteps(list: readonly StepIR[], schemas: SchemaCompiler, tls: TlsClientFiles | null): PreparedStep[] {
  return list.map((ir) => {
    const site = (field: string): { step: string; field: string } => ({ step: ir.id, field });
    const tools: PrepareTools = {
      stepId: ir.id,
      value: (v, field) => compileValue(v, site(field)),
      site,
      schema: (s) => schemas.compile(s),
      steps: (nested) => prepareSteps(nested, schemas, tls),
      tls,
    };
    const exec = execFor(ir, tools);
    const prepared: PreparedStep = {
      id: ir.id,
      type: ir.type,
      when: ir.when === null ? null : compileValue(ir.when, site('when')),
      // a fail step ends the run on purpose: its own on_error does not catch it (a container's does)
      continueOnError: ir.on_error === 'continue' && ir.type !== 'fail',
      timeoutMs: ir.timeout_ms,
      hasOutput: ir.type !== 'log',
      exec,
    };
    return prepared;
  });
}
