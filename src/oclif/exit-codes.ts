import { Errors } from '@oclif/core';
import { SvcError } from '../domain/errors';
import { levelEnabled, levelFromRustLog } from '../infra/logging/rust-log';

/** Exit codes of every svc command (also printed by `svc --help`). */
export const EXIT = { ok: 0, failure: 1, usage: 2 } as const;

export const EXIT_CODE_HELP = `EXIT CODES
  0  success
  1  a refusal or failure: an unknown tenant or key, a key already revoked, a broken audit
     chain, a missing config variable, a duplicate, an unreadable or locked database
  2  bad usage: an unknown flag, a missing argument or flag, a malformed value (a bad date,
     a timestamp with an offset, a date already past)`;

export interface RenderedError {
  readonly lines: string[];
  readonly exitCode: number;
}

/** One way to fail: every error becomes `error: <what>` (+ `hint: <what to do>`) and an exit code. */
export function renderError(err: unknown, rustLog = process.env.RUST_LOG): RenderedError {
  const debug = levelEnabled(levelFromRustLog(rustLog), 'debug');
  const stack = debug && err instanceof Error && err.stack ? [err.stack] : [];
  if (err instanceof SvcError) {
    const lines = [...err.details, `error: ${err.message}`];
    if (err.hint) lines.push(`hint: ${err.hint}`);
    return { lines: [...lines, ...stack], exitCode: err.code === 'usage' ? EXIT.usage : EXIT.failure };
  }
  if (err instanceof Errors.CLIError) {
    const [first, ...rest] = err.message.split('\n').filter((l) => l.trim() !== '' && !/^The following errors? occurred:?$/i.test(l.trim()));
    const lines = [`error: ${first?.trim() ?? 'invalid command line'}`, ...rest.map((l) => (l.startsWith('See more help') ? `hint: ${l.trim()}` : `  ${l.trim()}`))];
    const exit = err.oclif?.exit;
    return { lines: [...lines, ...stack], exitCode: typeof exit === 'number' && exit !== 1 ? exit : EXIT.usage };
  }
  const message = err instanceof Error ? err.message : String(err);
  return { lines: [`error: unexpected failure: ${message}`, ...(debug ? stack : ['hint: run with RUST_LOG=debug for details'])], exitCode: EXIT.failure };
}
