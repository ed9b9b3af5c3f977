import { Command, Flags } from '@oclif/core';
import { createApp, type App, type AppOptions } from '../infra/app';
import { renderError } from './exit-codes';

/** `--db` as every command that reads a database spells it. */
export const dbFlag = Flags.string({ description: 'registry database file (default ~/.svc/registry.db)', helpValue: '<path>' });

/**
 * The base of every svc command: builds the app (container + buses) on demand, closes it after
 * the run, and turns any failure into one `error:` line on stderr and a documented exit code.
 */
export abstract class SvcCommand extends Command {
  private app?: App;

  protected openApp(options: AppOptions): App {
    this.app ??= createApp(options);
    return this.app;
  }

  /** Prints a result line on stdout. */
  protected out(text: string): void {
    process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
  }

  /** Prints a diagnostic line on stderr. */
  protected note(text: string): void {
    process.stderr.write(text.endsWith('\n') ? text : `${text}\n`);
  }

  /** Sets a non-zero exit code without throwing (the command has already said why). */
  protected fail(code = 1): void {
    process.exitCode = code;
  }

  protected override async catch(err: Error & { exitCode?: number }): Promise<void> {
    const { lines, exitCode } = renderError(err);
    for (const line of lines) this.note(line);
    process.exitCode = exitCode;
  }

  protected override async finally(err: Error | undefined): Promise<void> {
    try {
      await this.app?.close();
    } finally {
      await super.finally(err);
    }
  }
}
