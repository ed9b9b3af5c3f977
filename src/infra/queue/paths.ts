import { join } from 'node:path';

/** File names inside `<queues>/<tenant>/<flow>/`. */
export const MAIN_LOG = 'messages.log';
export const DEAD_LETTER_LOG = 'dead-letters.log';
export const LOCK_FILE = 'flow.lock';
/** Temporary files of an atomic rewrite carry this infix; leftovers are removed at open. */
export const TMP_INFIX = '.tmp-';

export interface FlowPaths {
  readonly dir: string;
  readonly main: string;
  readonly deadLetters: string;
  readonly lock: string;
}

/**
 * A tenant or flow name must be one plain path component. The platform's own names are
 * `[a-z0-9][a-z0-9-]*`; this only refuses what could leave the queues directory.
 */
export function assertPathComponent(kind: 'tenant' | 'flow', name: string): void {
  if (
    name.length === 0 ||
    name.length > 200 ||
    name === '.' ||
    name === '..' ||
    name.startsWith('.') ||
    /[/\\\0]/.test(name)
  ) {
    throw new Error(`invalid ${kind} name for a queue folder: ${JSON.stringify(name)}`);
  }
}

export function flowPaths(queuesDir: string, tenant: string, flow: string): FlowPaths {
  assertPathComponent('tenant', tenant);
  assertPathComponent('flow', flow);
  const dir = join(queuesDir, tenant, flow);
  return {
    dir,
    main: join(dir, MAIN_LOG),
    deadLetters: join(dir, DEAD_LETTER_LOG),
    lock: join(dir, LOCK_FILE),
  };
}
