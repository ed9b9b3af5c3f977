/**
 * Signals the engine owns: child controllers (a step's timeout, a foreach's siblings) linked to
 * their parent's signal, a race of a promise against a signal, and an abortable sleep.
 */
import { AbortReason } from './errors';

export interface ChildSignal {
  readonly signal: AbortSignal;
  abort(reason: AbortReason): void;
  /** Clears the timer and unlinks from the parent. */
  dispose(): void;
}

/** A controller aborted with the parent's reason when the parent fires, and after `timeoutMs` if given. */
export function childSignal(parent: AbortSignal | undefined, timeoutMs?: number): ChildSignal {
  const controller = new AbortController();
  const onParent = (): void => controller.abort(parent?.reason);
  if (parent !== undefined) {
    if (parent.aborted) controller.abort(parent.reason);
    else parent.addEventListener('abort', onParent, { once: true });
  }
  let timer: NodeJS.Timeout | undefined;
  if (timeoutMs !== undefined && !controller.signal.aborted) {
    timer = setTimeout(() => controller.abort(new AbortReason('step_timeout', timeoutMs)), timeoutMs);
  }
  return {
    signal: controller.signal,
    abort: (reason) => controller.abort(reason),
    dispose: () => {
      if (timer !== undefined) clearTimeout(timer);
      parent?.removeEventListener('abort', onParent);
    },
  };
}

/** Settles like `p`, or rejects with the signal's reason when the signal fires first. */
export function raceSignal<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    p.catch(() => undefined);
    return Promise.reject(signal.reason as unknown);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason as unknown);
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

/** Waits `ms`; rejects with the signal's reason when it fires. */
export function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason as unknown);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason as unknown);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
