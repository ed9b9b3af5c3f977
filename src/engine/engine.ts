/**
 * FlowEngine: prepares compiled flows once and runs them per request. A run never throws for
 * flow-level failures: they become a RunResult with the failure's status and code, and a message
 * without secret values.
 */
import { failureFromAbort, AbortReason, asStepFailure, invalidInput, RespondSignal, StepFailure } from './errors';
import type { FlowIR } from '../flow';
import { READS_ALL, type InputNeeds } from './input-needs';
import { isPromise } from './maybe-promise';
import { PreparedFlowImpl, type PreparedFlow } from './prepared-flow';
import { RunState, Scope, type EngineServices } from './run-context';
import { formatProblems, SchemaCompiler } from './schema-validation';
import { runSteps } from './step-runner';
import { TokenCache } from './token-cache';
import type { EnginePorts, RunInput, RunResult } from './types';

export class FlowEngine {
  private readonly schemas = new SchemaCompiler();
  private readonly services: EngineServices;

  constructor(ports: EnginePorts) {
    this.services = { ports, tokens: new TokenCache(ports.clock) };
  }

  /** Compiles every expression and schema of the flow; throws only on IR it cannot run. */
  prepare(ir: FlowIR): PreparedFlow {
    return new PreparedFlowImpl(ir, this.schemas);
  }

  /** What runs of `flow` can read of the request: a door may leave out what they cannot. */
  inputNeeds(flow: PreparedFlow): InputNeeds {
    return flow instanceof PreparedFlowImpl ? flow.reads : READS_ALL;
  }

  /** Why `body` fails the flow's `input` schema (the message a run would answer 400 with), or null. */
  checkInput(flow: PreparedFlow, body: unknown): string | null {
    if (!(flow instanceof PreparedFlowImpl) || flow.checkInput === null) return null;
    const problems = flow.checkInput(body);
    return problems === null ? null : `the body does not match the flow's input schema: ${formatProblems(problems)}`;
  }

  run(flow: PreparedFlow, input: RunInput, signal?: AbortSignal): Promise<RunResult> {
    if (!(flow instanceof PreparedFlowImpl)) {
      return Promise.reject(new TypeError('FlowEngine.run needs a flow returned by FlowEngine.prepare'));
    }
    let run: RunState;
    try {
      run = new RunState(input, flow, this.services, signal);
    } catch (e) {
      return Promise.reject(e);
    }
    try {
      if (signal?.aborted === true) return Promise.resolve(this.failed(run, failureFromAbort(new AbortReason('cancelled', 0), undefined)));
      if (flow.checkInput !== null) {
        const problems = flow.checkInput(input.body);
        if (problems !== null) {
          return Promise.resolve(this.failed(run, invalidInput(undefined, `the body does not match the flow's input schema: ${formatProblems(problems)}`)));
        }
      }
      const scope = new Scope(run, run.baseRoot, run.baseRoot['steps'] as Record<string, unknown>, { token: undefined }, undefined);
      const r = runSteps(flow.steps, scope);
      if (isPromise(r)) {
        return r.then(
          () => this.succeeded(run, scope),
          (e: unknown) => this.ended(run, e),
        );
      }
      return Promise.resolve(this.succeeded(run, scope));
    } catch (e) {
      return Promise.resolve(this.ended(run, e));
    }
  }

  private succeeded(run: RunState, scope: Scope): RunResult {
    run.dispose();
    return { status: 200, headers: {}, body: scope.last === undefined ? {} : scope.last, stepsRun: run.stepsRun };
  }

  /** The answer of a run that threw: a respond step's answer or a failure. */
  private ended(run: RunState, e: unknown): RunResult {
    if (e instanceof RespondSignal) {
      run.dispose();
      return { status: e.status, headers: e.headers, body: e.body, stepsRun: run.stepsRun };
    }
    return this.failed(run, asStepFailure(e, undefined));
  }

  private failed(run: RunState, f: StepFailure): RunResult {
    run.dispose();
    const message = run.redact(f.message);
    const error = f.step === undefined ? { code: f.code, message } : { code: f.code, message, step: f.step };
    run.log(f.status >= 500 ? 'warn' : 'info', `run failed: ${message}`, { code: f.code, status: f.status, step: f.step ?? null });
    return { status: f.status, headers: {}, body: { error: { code: f.code, message } }, error, stepsRun: run.stepsRun };
  }
}
