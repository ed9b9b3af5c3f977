/**
 * Durable per-flow file queues: `<dir of the registry>/queues/<tenant>/<flow>/`.
 *
 * Files (all append-only between compactions):
 * - `messages.log`     main log: enq / rep / retry / ack / dead records, and `base` after compaction
 * - `dead-letters.log` dead-letter log: dl (entry) and handled (replayed / discarded) records
 * - `flow.lock`        per-flow lock (exclusive create; pid, host, time, token)
 *
 * Each record is one line `<crc32 hex> <json>\n`; every write starts with `\n` so a torn
 * fragment never swallows the next record. See README.md in this folder.
 */
export { FlowQueue, FlowQueueOptions, QueuedMessage, QueueLogger, LogFieldValue } from './flow-queue';
export { DeadLetter } from './dead-letter-log';
export { listDeadLetters, replayDeadLetter, discardDeadLetter, DeadLetterFilter, DeadLetterCliOptions } from './dead-letters';
export { QueueUnavailable, DeadLetterNotFound, FlowLockBusy } from './errors';
export { QueueEvent } from './record-codec';
export { QueueFileOps, realFileOps } from './file-ops';
export { LockOptions } from './flow-lock';
export { flowPaths, FlowPaths, MAIN_LOG, DEAD_LETTER_LOG, LOCK_FILE } from './paths';
