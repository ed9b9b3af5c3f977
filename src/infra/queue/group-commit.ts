const MAX_BATCH_BYTES = 16 * 1024 * 1024;

interface WriteJob {
  kind: 'write';
  text: string;
  resolve: () => void;
  reject: (err: unknown) => void;
}

interface ExclusiveJob {
  kind: 'exclusive';
  run: () => Promise<void>;
}

type Job = WriteJob | ExclusiveJob;

/**
 * Group commit: a single writer loop. Every record queued while the previous write+fdatasync
 * ran goes out in the next batch: one write(), one fdatasync(), then all of them resolve (or
 * all reject: a failed batch is never considered written). Each batch starts with `\n` so a
 * fragment of an earlier torn write can never merge with it.
 *
 * `exclusive(fn)` runs `fn` between batches, with no write in progress and later records held
 * back until it finishes (compaction swaps the file under the writer this way).
 */
export class GroupCommit {
  private readonly jobs: Job[] = [];
  private running = false;
  batches = 0;
  records = 0;

  constructor(private readonly sink: (data: Buffer) => Promise<void>) {}

  append(text: string): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.jobs.push({ kind: 'write', text, resolve, reject });
      this.kick();
    });
  }

  exclusive<T>(fn: () => Promise<T> | T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.jobs.push({
        kind: 'exclusive',
        run: async () => {
          try {
            resolve(await fn());
          } catch (err) {
            reject(err);
          }
        },
      });
      this.kick();
    });
  }

  /** Resolves once everything queued so far is written (or failed). */
  idle(): Promise<void> {
    return this.exclusive(() => undefined);
  }

  private kick(): void {
    if (this.running) return;
    this.running = true;
    void this.loop();
  }

  private async loop(): Promise<void> {
    try {
      while (this.jobs.length > 0) {
        const head = this.jobs[0];
        if (head.kind === 'exclusive') {
          this.jobs.shift();
          await head.run();
          continue;
        }
        // Let the callers woken by the previous batch queue their next records first (their
        // continuations run as microtasks before this macrotask), so they share this batch.
        await new Promise<void>((resolve) => setImmediate(resolve));
        const batch: WriteJob[] = [];
        let bytes = 0;
        while (this.jobs.length > 0 && bytes < MAX_BATCH_BYTES) {
          const next = this.jobs[0];
          if (next.kind !== 'write') break;
          this.jobs.shift();
          batch.push(next);
          bytes += next.text.length;
        }
        let text = '\n';
        for (const job of batch) text += job.text;
        try {
          await this.sink(Buffer.from(text, 'utf8'));
          this.batches += 1;
          this.records += batch.length;
          for (const job of batch) job.resolve();
        } catch (err) {
          for (const job of batch) job.reject(err);
        }
      }
    } finally {
      this.running = false;
    }
  }
}
