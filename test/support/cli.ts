import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const REPO_ROOT = resolve(__dirname, '..', '..', '..');
export const SVC_BIN = join(REPO_ROOT, 'bin', 'svc');

export interface CliResult {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export interface CliOptions {
  readonly home: string;
  readonly cwd?: string;
  readonly env?: Record<string, string | undefined>;
}

function childEnv(options: CliOptions): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: options.home, RUST_LOG: 'info' };
  for (const [k, v] of Object.entries(options.env ?? {})) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

/** Runs the real `bin/svc` in a child process, as a user would. */
export function svc(args: readonly string[], options: CliOptions): CliResult {
  const r = spawnSync(process.execPath, [SVC_BIN, ...args], { cwd: options.cwd ?? options.home, env: childEnv(options), encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The same, without blocking the test's event loop (for tests that hold locks meanwhile). */
export function svcAsync(args: readonly string[], options: CliOptions): Promise<CliResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [SVC_BIN, ...args], { cwd: options.cwd ?? options.home, env: childEnv(options) });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (status) => resolvePromise({ status, stdout, stderr }));
  });
}

/** A fresh HOME for one suite; removed by the returned cleanup. */
export function tempHome(prefix = 'svc-test-'): { home: string; cleanup: () => void } {
  const home = mkdtempSync(join(tmpdir(), prefix));
  return { home, cleanup: () => rmSync(home, { recursive: true, force: true }) };
}

/** The key value printed by `keys create`. */
export function keyValueFrom(stdout: string): string {
  const m = /^key:\s+(svck_[A-Za-z0-9_-]+)$/m.exec(stdout);
  if (!m?.[1]) throw new Error(`no key in output:\n${stdout}`);
  return m[1];
}

/**
 * Gives each test of the enclosing `describe` a fresh HOME (removed afterwards):
 * `const env = useTempHome();` then `env.home` inside tests and hooks registered after it.
 */
export function useTempHome(prefix?: string): { readonly home: string } {
  const state = { home: '', cleanup: (): void => undefined };
  beforeEach(() => {
    const made = tempHome(prefix);
    state.home = made.home;
    state.cleanup = made.cleanup;
  });
  afterEach(() => state.cleanup());
  return {
    get home(): string {
      return state.home;
    },
  };
}
