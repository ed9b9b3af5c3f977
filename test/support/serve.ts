import { spawn, type ChildProcess } from 'node:child_process';
import { SVC_BIN } from './cli';

export interface ServeProcess {
  readonly url: string;
  readonly child: ChildProcess;
  readonly stdout: () => string;
  readonly stderr: () => string;
  /** JSON log records printed so far on stderr. */
  readonly logRecords: () => Array<Record<string, unknown>>;
  /** SIGTERM, then the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export const STATE_KEY_ENV = { SVC_SECRET_SVC_STATE_KEY: 'test-state-key-0123456789abcdef' };

/** `--host 127.0.0.1`, and `--port 0` (a free port) unless the arguments name one. */
const bindArgs = (args: readonly string[]): string[] => ['--host', '127.0.0.1', ...(args.includes('--port') ? [] : ['--port', '0']), ...args];

/** Starts the real `bin/svc serve` on 127.0.0.1 with a free port; resolves once the banner is out. */
export function startServe(home: string, args: readonly string[] = [], env: Record<string, string> = {}): Promise<ServeProcess> {
  const child = spawn(process.execPath, [SVC_BIN, 'serve', ...bindArgs(args)], {
    cwd: home,
    env: { PATH: process.env.PATH, HOME: home, RUST_LOG: 'info', ...STATE_KEY_ENV, ...env },
  });
  let out = '';
  let err = '';
  child.stdout?.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr?.setEncoding('utf8').on('data', (d: string) => (err += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`svc serve did not start in 20 s\nstdout: ${out}\nstderr: ${err}`)), 20_000);
    const poll = setInterval(() => {
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m?.[1] && /API key authentication: /.test(out)) {
        clearInterval(poll);
        clearTimeout(timer);
        resolve({
          url: m[1],
          child,
          stdout: () => out,
          stderr: () => err,
          logRecords: () =>
            err
              .split('\n')
              .filter((l) => l.startsWith('{'))
              .map((l) => JSON.parse(l) as Record<string, unknown>),
          stop: (signal: NodeJS.Signals = 'SIGTERM') => {
            child.kill(signal);
            return exited;
          },
        });
      }
    }, 25);
    void exited.then((code) => {
      clearInterval(poll);
      clearTimeout(timer);
      reject(new Error(`svc serve exited with ${code} before starting\nstdout: ${out}\nstderr: ${err}`));
    });
  });
}

/** Runs the real serve until it exits (for refusals to start). */
export function serveUntilExit(home: string, args: readonly string[], env: Record<string, string>): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [SVC_BIN, 'serve', ...bindArgs(args)], { cwd: home, env: { PATH: process.env.PATH, HOME: home, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('exit', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}
