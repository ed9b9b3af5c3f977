import { mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

/** Where a command's files live: the registry and everything beside it. */
export interface StatePaths {
  readonly registry: string;
  readonly audit: string;
  readonly log: string;
  readonly ui: string;
  readonly queues: string;
}

/** `~/.svc`, honouring `HOME` as SPEC.md asks. */
export function stateDir(): string {
  const home = process.env.HOME && process.env.HOME.length > 0 ? process.env.HOME : homedir();
  return join(home, '.svc');
}

/** Paths for a registry at `db` (default `~/.svc/registry.db`); the other files sit beside it. */
export function statePaths(db?: string): StatePaths {
  const registry = db ? resolve(db) : join(stateDir(), 'registry.db');
  const dir = dirname(registry);
  return {
    registry,
    audit: join(dir, 'svc-audit.db'),
    log: join(dir, 'svc-log.db'),
    ui: join(dir, 'svc-ui.db'),
    queues: join(dir, 'queues'),
  };
}

/** Creates the folder holding `file` when missing. */
export function ensureParentDir(file: string): void {
  mkdirSync(dirname(file), { recursive: true });
}
