import type { Job } from 'node-schedule';
import type { ScheduleIR } from '../../flow';
import type { Logger } from '../logging/logger';

export interface ScheduledFlow {
  readonly tenant: string;
  readonly name: string;
  readonly schedule: ScheduleIR | null;
}

type ScheduleModule = typeof import('node-schedule');

/**
 * The cron door: one node-schedule job per flow with a `schedule:` key (5 fields, or 6 with
 * seconds first; `timezone` an IANA name). `sync` is called with the latest flows whenever the
 * registry changes, so a redeploy reschedules without a restart. A tick only dispatches: what
 * runs, and whether a tick is skipped, is the RunScheduledFlow handler's business.
 */
export class CronDoor {
  private readonly jobs = new Map<string, { job: Job; spec: string }>();
  private readonly schedule: ScheduleModule = require('node-schedule') as ScheduleModule;

  constructor(
    private readonly tick: (tenant: string, flow: string, firedAt: Date) => void,
    private readonly logger: Logger,
  ) {}

  sync(flows: Iterable<ScheduledFlow>): void {
    const wanted = new Map<string, ScheduledFlow & { schedule: ScheduleIR }>();
    for (const f of flows) if (f.schedule) wanted.set(`${f.tenant}/${f.name}`, { ...f, schedule: f.schedule });
    for (const [key, entry] of this.jobs) {
      const next = wanted.get(key);
      if (!next || specOf(next.schedule) !== entry.spec) {
        entry.job.cancel();
        this.jobs.delete(key);
        if (!next) this.logger.log('info', 'cron: unscheduled', { flow: key });
      }
    }
    for (const [key, f] of wanted) {
      if (this.jobs.has(key)) continue;
      const spec = specOf(f.schedule);
      const job = this.schedule.scheduleJob({ rule: f.schedule.cron, tz: f.schedule.timezone }, (fireDate: Date) => this.tick(f.tenant, f.name, fireDate ?? new Date()));
      if (!job) {
        this.logger.log('error', 'cron: could not schedule', { flow: key, cron: f.schedule.cron, timezone: f.schedule.timezone });
        continue;
      }
      this.jobs.set(key, { job, spec });
      this.logger.log('info', 'cron: scheduled', { flow: key, cron: f.schedule.cron, timezone: f.schedule.timezone, next: job.nextInvocation()?.toISOString() ?? null });
    }
  }

  /** Flows with a job, and when each fires next. */
  scheduled(): Array<{ flow: string; next: Date | null }> {
    return [...this.jobs].map(([flow, { job }]) => ({ flow, next: job.nextInvocation() ?? null }));
  }

  close(): void {
    for (const { job } of this.jobs.values()) job.cancel();
    this.jobs.clear();
  }
}

const specOf = (s: ScheduleIR): string => `${s.cron}\u0000${s.timezone}`;
