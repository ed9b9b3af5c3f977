/**
 * Typed failures. Handlers throw these for expected refusals; adapters (oclif, Koa) map
 * `code` to an exit code or an HTTP status. `message` is safe to show to a user: it never
 * carries a secret, a key value or a business key.
 */
export type ErrorCode =
  | 'usage'
  | 'not_found'
  | 'conflict'
  | 'refused'
  | 'invalid_input'
  | 'storage'
  | 'internal';

export class SvcError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly hint?: string,
    options?: { cause?: unknown; details?: readonly string[] },
  ) {
    super(message, options);
    this.name = 'SvcError';
    this.details = options?.details ?? [];
  }

  /** Further lines that belong to the message (e.g. every `file:line: problem` of a flow file). */
  readonly details: readonly string[];
}

export const usageError = (message: string, hint?: string): SvcError => new SvcError('usage', message, hint);
export const notFound = (message: string, hint?: string): SvcError => new SvcError('not_found', message, hint);
export const conflict = (message: string, hint?: string): SvcError => new SvcError('conflict', message, hint);
export const refused = (message: string, hint?: string): SvcError => new SvcError('refused', message, hint);
