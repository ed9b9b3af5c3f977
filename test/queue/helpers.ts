import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { LogFieldValue, QueueLogger } from '../../src/infra/queue';

/** The compiled queue module, for child processes (`node -e`). */
export const QUEUE_MODULE = resolve(__dirname, '../../src/infra/queue/index.js');

export interface LoggedLine {
  level: 'info' | 'warn' | 'error';
  message: string;
  fields: Record<string, LogFieldValue>;
}

export class RecordingLogger implements QueueLogger {
  readonly lines: LoggedLine[] = [];
  log(level: 'info' | 'warn' | 'error', message: string, fields: Record<string, LogFieldValue>): void {
    this.lines.push({ level, message, fields });
  }
  errors(): LoggedLine[] {
    return this.lines.filter((l) => l.level === 'error');
  }
}

export function tempQueuesDir(): { dir: string; cleanup: () => void } {
  const root = mkdtempSync(join(tmpdir(), 'svc-queue-test-'));
  return { dir: join(root, 'queues'), cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

export interface ChildRun {
  child: ChildProcess;
  /** Complete stdout lines so far. */
  lines: string[];
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves when `predicate` holds for the lines seen (checked on every line). */
  waitFor: (predicate: (lines: string[]) => boolean, timeoutMs: number) => Promise<void>;
}

/** Runs `script` with `node -e`; QUEUE_MODULE is in `process.env.QUEUE_MODULE`. */
export function runChild(script: string, env: Record<string, string> = {}): ChildRun {
  const child = spawn(process.execPath, ['-e', script], {
    env: { ...process.env, ...env, QUEUE_MODULE },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let partial = '';
  let err = '';
  const waiters: Array<() => void> = [];
  child.stdout?.setEncoding('utf8');
  child.stdout?.on('data', (chunk: string) => {
    partial += chunk;
    const parts = partial.split('\n');
    partial = parts.pop() ?? '';
    lines.push(...parts.filter((p) => p.length > 0));
    for (const w of waiters.splice(0)) w();
  });
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    err += chunk;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((res) => {
    child.on('close', (code, signal) => {
      if (partial.length > 0) lines.push(partial);
      partial = '';
      for (const w of waiters.splice(0)) w();
      res({ code, signal });
    });
  });
  let ended = false;
  void exited.then(() => {
    ended = true;
  });
  const waitFor = (predicate: (l: string[]) => boolean, timeoutMs: number): Promise<void> =>
    new Promise((res, rej) => {
      const deadline = setTimeout(() => rej(new Error(`child: condition not met in ${timeoutMs} ms; stderr: ${err}`)), timeoutMs);
      const check = (): void => {
        if (predicate(lines)) {
          clearTimeout(deadline);
          res();
        } else if (ended) {
          clearTimeout(deadline);
          rej(new Error(`child exited before the condition; stderr: ${err}`));
        } else waiters.push(check);
      };
      check();
    });
  return { child, lines, stderr: () => err, exited, waitFor };
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
