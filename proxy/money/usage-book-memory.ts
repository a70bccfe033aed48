// The usage book of one process (usage-book.ts says what it keeps): the default store's. Every
// method does its work before its first await, so it is atomic on one event loop.
import { utcDay } from './spend-ledger.js';
import {
  USAGE_DAYS,
  dayOf,
  lastDays,
  oldestKept,
  refundCounters,
  startCounters,
  type JobEntry,
  type UsageBook,
  type UsageCounters,
  type UsageDay,
} from './usage-book.js';

export class MemoryUsageBook implements UsageBook {
  private readonly counters = new Map<string, UsageCounters>();
  private readonly jobs = new Map<string, JobEntry & { until: number }>();
  private readonly alerts = new Set<string>();

  constructor(private readonly now: () => number = Date.now) {}

  async tryonStarted(jobId: string, product: string, credits: number, keepMs: number): Promise<void> {
    this.start('tryon', jobId, product, credits, keepMs);
  }

  async previewStarted(jobId: string, product: string, credits: number, keepMs: number): Promise<void> {
    this.start('preview', jobId, product, credits, keepMs);
  }

  async jobFailed(jobId: string, code: string): Promise<void> {
    const job = this.jobs.get(jobId);
    this.jobs.delete(jobId);
    // The credits come off the day they were counted on; the error is today's.
    if (job) this.add(job.day, refundCounters(job));
    this.add(utcDay(this.now()), { [`e:${code}`]: 1 });
  }

  async errorAnswered(code: string): Promise<void> {
    this.add(utcDay(this.now()), { [`e:${code}`]: 1 });
  }

  async count(counters: UsageCounters): Promise<void> {
    this.add(utcDay(this.now()), counters);
  }

  async days(count = USAGE_DAYS): Promise<UsageDay[]> {
    return lastDays(this.now(), count).map((date) => dayOf(date, this.counters.get(date) ?? {}));
  }

  async claimAlert(day: string, threshold: number): Promise<boolean> {
    const key = `${day}/${threshold}`;
    if (this.alerts.has(key)) return false;
    this.alerts.add(key);
    return true;
  }

  private start(kind: 'tryon' | 'preview', jobId: string, product: string, credits: number, keepMs: number): void {
    const now = this.now();
    const day = utcDay(now);
    this.add(day, startCounters(kind, product, credits));
    this.jobs.set(jobId, { day, product, credits, until: now + keepMs });
  }

  /** Adds to a day's counters, and forgets what is past keeping. */
  private add(day: string, increments: UsageCounters): void {
    const counters = this.counters.get(day) ?? {};
    for (const [field, n] of Object.entries(increments)) counters[field] = (counters[field] ?? 0) + n;
    this.counters.set(day, counters);
    const now = this.now();
    const oldest = oldestKept(now);
    for (const date of this.counters.keys()) if (date < oldest) this.counters.delete(date);
    for (const key of this.alerts) if (key < oldest) this.alerts.delete(key);
    if (this.jobs.size > 20_000) for (const [id, job] of this.jobs) if (job.until <= now) this.jobs.delete(id);
  }
}
