import 'reflect-metadata';
import { join } from 'node:path';
import { flush, run } from '@oclif/core';
import { renderError } from './exit-codes';

/** Runs the oclif command line; every failure leaves as one `error:` line and an exit code. */
export function main(argv: string[]): void {
  const root = join(__dirname, '..', '..', '..');
  run(argv, root)
    .then(() => flush())
    .catch(async (err: unknown) => {
      await flush().catch(() => undefined);
      const exitError = err as { oclif?: { exit?: number }; code?: string };
      if (exitError.code === 'EEXIT') {
        process.exitCode = exitError.oclif?.exit ?? 0;
        return;
      }
      const { lines, exitCode } = renderError(err);
      for (const line of lines) process.stderr.write(`${line}\n`);
      process.exitCode = exitCode;
    });
}
