// The usage book (usage-book.ts) in the shop's Durable Object, both sides of the wire: the
// isolate's book, each write one call decided by the caller's clock, and the shop object's tables,
// a day's counters, the started jobs (to give a failed one's credits back) and the alerts sent.
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
} from './usage-book.js';
import { firstRow, type Call, type ShopCall, type ShopTables, type SqlStorage } from '../cluster/durable-wire.js';

/** The usage book in the shop object: each write one step there, decided by the caller's clock. */
export function durableUsageBook(call: ShopCall, now: () => number): UsageBook {
  const start = async (kind: 'tryon' | 'preview', jobId: string, product: string, credits: number, keepMs: number) => {
    const at = now();
    await call('usageAdd', {
      now: at,
      day: utcDay(at),
      counters: startCounters(kind, product, credits),
      job: { id: jobId, product, credits, keepMs },
    });
  };
  return {
    tryonStarted: (jobId, product, credits, keepMs) => start('tryon', jobId, product, credits, keepMs),
    previewStarted: (jobId, product, credits, keepMs) => start('preview', jobId, product, credits, keepMs),
    jobFailed: async (jobId, code) => {
      await call('usageFailed', { jobId, code, now: now() });
    },
    errorAnswered: async (code) => {
      const at = now();
      await call('usageAdd', { now: at, day: utcDay(at), counters: { [`e:${code}`]: 1 } });
    },
    count: async (counters) => {
      const at = now();
      await call('usageAdd', { now: at, day: utcDay(at), counters });
    },
    days: async (count = USAGE_DAYS) => {
      const dates = lastDays(now(), count);
      const counters = await call<UsageCounters[]>('usageDays', { dates, now: now() });
      return dates.map((date, i) => dayOf(date, counters[i] ?? {}));
    },
    claimAlert: (day, threshold) => call<boolean>('usageAlert', { day, threshold, now: now() }),
  };
}

/** The book's tables in the shop object. */
export class UsageTables implements ShopTables {
  readonly schema = [
    'CREATE TABLE IF NOT EXISTS usage_counter (day TEXT NOT NULL, field TEXT NOT NULL, n REAL NOT NULL, PRIMARY KEY (day, field))',
    'CREATE TABLE IF NOT EXISTS usage_job (job_id TEXT PRIMARY KEY, day TEXT NOT NULL, product TEXT NOT NULL, credits REAL NOT NULL, until INTEGER NOT NULL)',
    'CREATE TABLE IF NOT EXISTS usage_alert (day TEXT NOT NULL, threshold INTEGER NOT NULL, PRIMARY KEY (day, threshold))',
  ];

  readonly operations = {
    usageAdd: ({
      now,
      day,
      counters,
      job,
    }: Call & {
      day: string;
      counters: UsageCounters;
      job?: { id: string; product: string; credits: number; keepMs: number };
    }) => this.usageAdd(now, day, counters, job),
    usageFailed: ({ now, jobId, code }: Call & { jobId: string; code: string }) => this.usageFailed(now, jobId, code),
    usageDays: ({ dates }: Call & { dates: string[] }) =>
      dates.map((date) =>
        Object.fromEntries(
          [
            ...this.sql.exec<{ field: string; n: number }>('SELECT field, n FROM usage_counter WHERE day = ?', date),
          ].map((row) => [row.field, row.n]),
        ),
      ),
    usageAlert: ({ day, threshold }: Call & { day: string; threshold: number }) => {
      if (
        firstRow(
          this.sql.exec<{ n: number }>(
            'SELECT COUNT(*) AS n FROM usage_alert WHERE day = ? AND threshold = ?',
            day,
            threshold,
          ),
        )!.n > 0
      )
        return false;
      this.sql.exec('INSERT INTO usage_alert (day, threshold) VALUES (?, ?)', day, threshold);
      return true;
    },
  };

  constructor(
    private readonly sql: SqlStorage,
    /** The shop object's sweep of every part (at most once a minute), which a write asks for first. */
    private readonly sweepAll: (now: number) => void,
  ) {}

  sweep(now: number): void {
    const oldest = oldestKept(now);
    this.sql.exec('DELETE FROM usage_counter WHERE day < ?', oldest);
    this.sql.exec('DELETE FROM usage_alert WHERE day < ?', oldest);
    this.sql.exec('DELETE FROM usage_job WHERE until <= ?', now);
  }

  private usageCount(day: string, counters: UsageCounters): void {
    for (const [field, n] of Object.entries(counters)) {
      this.sql.exec(
        'INSERT INTO usage_counter (day, field, n) VALUES (?, ?, ?) ON CONFLICT (day, field) DO UPDATE SET n = n + excluded.n',
        day,
        field,
        n,
      );
    }
  }

  private usageAdd(
    now: number,
    day: string,
    counters: UsageCounters,
    job?: { id: string; product: string; credits: number; keepMs: number },
  ): void {
    this.sweepAll(now);
    this.usageCount(day, counters);
    if (job)
      this.sql.exec(
        'INSERT OR REPLACE INTO usage_job (job_id, day, product, credits, until) VALUES (?, ?, ?, ?, ?)',
        job.id,
        day,
        job.product,
        job.credits,
        now + job.keepMs,
      );
  }

  /** The job's credits come off the day they were counted on (once: its row goes), its error is today's. */
  private usageFailed(now: number, jobId: string, code: string): void {
    const job = firstRow(
      this.sql.exec<JobEntry>('SELECT day, product, credits FROM usage_job WHERE job_id = ?', jobId),
    );
    if (job) {
      this.sql.exec('DELETE FROM usage_job WHERE job_id = ?', jobId);
      this.usageCount(job.day, refundCounters(job));
    }
    this.usageCount(utcDay(now), { [`e:${code}`]: 1 });
  }
}
