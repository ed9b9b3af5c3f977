import { setFlagsFromString } from 'node:v8';

/**
 * V8 settings for a long-running server, applied when `svc serve` starts.
 *
 * Allocation-site pretenuring is off: when a burst of requests begins (50 new connections at
 * once), enough young objects survive for V8 to start allocating some request-path objects
 * directly in the old generation. Those die young anyway, and in about half of the /run
 * benchmark's runs they grew the old generation from 17 to 42 MiB (peak RSS 138 instead of
 * 113 MiB) before a full collection. Measured in bench/README.md; throughput within noise.
 * The flag is read at every collection, so setting it after start takes effect.
 */
export function tuneHeapForServing(): void {
  setFlagsFromString('--no-allocation-site-pretenuring');
}
