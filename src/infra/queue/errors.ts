import { QueueUnavailableError } from '../../domain/queue';

/**
 * Any I/O failure that means "not durably stored" (ENOSPC, EACCES, EROFS, EIO, ...).
 * The message names the file and the errno, never a message body.
 */
export class QueueUnavailable extends QueueUnavailableError {
  readonly path: string;
  readonly code: string;

  constructor(path: string, code: string, operation: string) {
    super(`queue storage unavailable: ${operation} ${path} failed (${code})`);
    this.name = 'QueueUnavailable';
    this.path = path;
    this.code = code;
  }
}

/** Unknown dead-letter id, or one already replayed or discarded. */
export class DeadLetterNotFound extends Error {
  constructor(
    readonly tenant: string,
    readonly flow: string,
    readonly id: number,
  ) {
    super(
      `no pending dead-letter entry id=${id} for tenant=${tenant} flow=${flow}; ` +
        'it may never have existed, or it was replayed or discarded already',
    );
    this.name = 'DeadLetterNotFound';
  }
}

/** The per-flow lock stayed held by a live process for longer than the bounded wait. */
export class FlowLockBusy extends Error {
  constructor(
    readonly lockPath: string,
    readonly holder: string,
    waitedMs: number,
  ) {
    super(
      `queue lock ${lockPath} is held by ${holder}; gave up after ${waitedMs} ms. ` +
        'If that process is gone, remove the lock file.',
    );
    this.name = 'FlowLockBusy';
  }
}

/** Errno code of a Node fs error, `EUNKNOWN` otherwise. */
export function errnoOf(err: unknown): string {
  if (err && typeof err === 'object' && 'code' in err && typeof (err as { code: unknown }).code === 'string') {
    return (err as { code: string }).code;
  }
  return 'EUNKNOWN';
}

/** Wraps an fs failure as QueueUnavailable (an existing QueueUnavailable passes through). */
export function unavailable(err: unknown, path: string, operation: string): QueueUnavailable {
  if (err instanceof QueueUnavailable) return err;
  return new QueueUnavailable(path, errnoOf(err), operation);
}
