/**
 * The state of one run (RunState: input, deadline, counters, logging, redaction) and the scope a
 * list of steps runs in (Scope: expression root, step outputs, signal, oauth2 hand-off).
 */
import { performance } from 'node:perf_hooks';
import type { StepIR } from '../flow';
import type { TlsClientFiles } from './egress/http-egress';
import { AbortReason, failureFromAbort } from './errors';
import type { MaybePromise } from './maybe-promise';
import { redactorFor, type Redactor } from './redaction';
import type { CompiledValue, ExprRoot } from './templates';
import type { TokenCache } from './token-cache';
import type { EnginePorts, LogFields, LogLevel, RunInput } from './types';

/** A step ready to run: its compiled fields live in `exec`'s closure. */
export interface PreparedStep {
  readonly id: string;
  readonly type: StepIR['type'];
  readonly when: CompiledValue | null;
  readonly continueOnError: boolean;
  readonly timeoutMs: number | null;
  /** false for steps without output (log): they leave the last output as it was. */
  readonly hasOutput: boolean;
  readonly exec: (scope: Scope) => MaybePromise<unknown>;
}

/** What the engine shares between runs. */
export interface EngineServices {
  readonly ports: EnginePorts;
  readonly tokens: TokenCache;
}

/** What a run needs from its prepared flow. */
export interface FlowRuntime {
  readonly timeoutMs: number;
  readonly tls: TlsClientFiles | null;
}

/** The token of an oauth2_token step, waiting for the next http step. */
export interface BearerSlot {
  token: string | undefined;
}

export class RunState {
  stepsRun = 0;
  private readonly deadlineAt: number;
  private controller: AbortController | undefined;
  private timer: NodeJS.Timeout | undefined;
  private redactor: Redactor | undefined;
  private readonly onExternalAbort = (): void => this.controller?.abort(new AbortReason('cancelled', 0));
  /** The root of the top-level steps (body, headers, ..., steps). */
  readonly baseRoot: ExprRoot;

  constructor(
    readonly input: RunInput,
    readonly flow: FlowRuntime,
    readonly services: EngineServices,
    private readonly external: AbortSignal | undefined,
  ) {
    this.deadlineAt = performance.now() + flow.timeoutMs;
    this.baseRoot = {
      body: input.body,
      headers: input.headers,
      query: input.query,
      door: input.door,
      config: input.config,
      secrets: input.secrets,
      steps: {},
      flow: { tenant: input.tenant, name: input.flowName, version: input.version },
      correlation_id: input.correlationId,
      message: input.message,
      event: input.event,
    };
  }

  /** Throws the run-ending failure when the deadline passed or the run was cancelled. */
  checkAlive(step: string): void {
    if (this.external?.aborted === true) throw failureFromAbort(new AbortReason('cancelled', 0), step);
    if (this.controller?.signal.aborted === true) throw failureFromAbort(this.controller.signal.reason, step);
    if (performance.now() >= this.deadlineAt) throw failureFromAbort(new AbortReason('flow_deadline', this.flow.timeoutMs), step);
  }

  /** The run's signal (created on first use): fires at the flow deadline or on cancellation. */
  signal(): AbortSignal {
    if (this.controller === undefined) {
      const controller = new AbortController();
      this.controller = controller;
      const left = Math.max(0, this.deadlineAt - performance.now());
      this.timer = setTimeout(() => controller.abort(new AbortReason('flow_deadline', this.flow.timeoutMs)), left);
      if (this.external !== undefined) {
        if (this.external.aborted) controller.abort(new AbortReason('cancelled', 0));
        else this.external.addEventListener('abort', this.onExternalAbort, { once: true });
      }
    }
    return this.controller.signal;
  }

  dispose(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.external?.removeEventListener('abort', this.onExternalAbort);
  }

  redact(text: string): string {
    if (this.redactor === undefined) this.redactor = redactorFor(this.input.secrets);
    return this.redactor.redact(text);
  }

  /** Logs with the run's correlation id, tenant and flow; the message is redacted. */
  log(level: LogLevel, message: string, fields: LogFields = {}): void {
    try {
      this.services.ports.logger.log(level, this.redact(message), {
        correlation_id: this.input.correlationId,
        tenant: this.input.tenant,
        flow: this.input.flowName,
        version: this.input.version,
        ...fields,
      });
    } catch {
      // a failing logger must not change the run's outcome
    }
  }
}

export class Scope {
  /** Output of the last step of this list that produced one (undefined: none yet). */
  last: unknown = undefined;

  constructor(
    readonly run: RunState,
    readonly root: ExprRoot,
    readonly steps: Record<string, unknown>,
    readonly bearer: BearerSlot,
    /** undefined: the run's own signal. */
    private readonly ownSignal: AbortSignal | undefined,
  ) {}

  signal(): AbortSignal {
    return this.ownSignal ?? this.run.signal();
  }

  /** The same scope with another signal (a step's timeout). */
  withSignal(signal: AbortSignal): Scope {
    return new Scope(this.run, this.root, this.steps, this.bearer, signal);
  }

  /** A nested list of steps (switch branch, foreach iteration): sees the outer outputs, keeps its own. */
  nested(extraRoot: ExprRoot | undefined, bearer: BearerSlot, signal: AbortSignal | undefined): Scope {
    const steps = { ...this.steps };
    const root: ExprRoot = { ...this.root, ...extraRoot, steps };
    return new Scope(this.run, root, steps, bearer, signal ?? this.ownSignal);
  }

  /** A separate flow (call_flow lib): its own `steps`, `body` = the call's input. */
  separate(body: unknown): Scope {
    const steps: Record<string, unknown> = {};
    const root: ExprRoot = { ...this.run.baseRoot, body, steps };
    return new Scope(this.run, root, steps, { token: undefined }, this.ownSignal);
  }
}
