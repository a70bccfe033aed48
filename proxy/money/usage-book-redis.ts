// The usage book (usage-book.ts) on Redis, so every instance writes one book and a restart keeps
// it. A day is one hash of counters (HINCRBYFLOAT: credits may be fractional), kept for the 30 days
// /usage lists and a day more. A started job's entry is a string kept as long as its handle; the
// one failure write in the cluster takes it with GETDEL, so its credits are given back once. An
// alert's claim is SET NX: one instance in the cluster wins each day's threshold. No scripts: each
// step is one command or one MULTI on keys under the tag `{…usage}` (one Redis Cluster slot).
import type { Redis } from 'ioredis';
import { taggedGroup } from '../cluster/redis-keys.js';
import { utcDay } from './spend-ledger.js';
import {
  USAGE_DAYS,
  dayOf,
  lastDays,
  refundCounters,
  startCounters,
  type JobEntry,
  type UsageBook,
  type UsageCounters,
  type UsageDay,
} from './usage-book.js';

const DAY_SECONDS = 86_400;

export class RedisUsageBook implements UsageBook {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly now: () => number,
    /** Turns a Redis failure into the store's answer (503 store_unavailable). */
    private readonly run: <T>(operation: string, work: () => Promise<T>) => Promise<T>,
  ) {}

  private key(...parts: string[]): string {
    return `${taggedGroup(this.prefix, 'usage')}:${parts.join(':')}`;
  }

  async tryonStarted(jobId: string, product: string, credits: number, keepMs: number): Promise<void> {
    await this.start('tryon', jobId, product, credits, keepMs);
  }

  async previewStarted(jobId: string, product: string, credits: number, keepMs: number): Promise<void> {
    await this.start('preview', jobId, product, credits, keepMs);
  }

  async jobFailed(jobId: string, code: string): Promise<void> {
    const kept = await this.run('usage_write', () => this.redis.getdel(this.key('job', jobId)));
    const multi = this.redis.multi();
    if (kept !== null)
      this.increments(multi, (JSON.parse(kept) as JobEntry).day, refundCounters(JSON.parse(kept) as JobEntry));
    this.increments(multi, utcDay(this.now()), { [`e:${code}`]: 1 });
    await this.run('usage_write', () => multi.exec());
  }

  async errorAnswered(code: string): Promise<void> {
    const multi = this.redis.multi();
    this.increments(multi, utcDay(this.now()), { [`e:${code}`]: 1 });
    await this.run('usage_write', () => multi.exec());
  }

  async count(counters: UsageCounters): Promise<void> {
    const multi = this.redis.multi();
    this.increments(multi, utcDay(this.now()), counters);
    await this.run('usage_write', () => multi.exec());
  }

  async days(count = USAGE_DAYS): Promise<UsageDay[]> {
    const dates = lastDays(this.now(), count);
    const pipeline = this.redis.pipeline();
    for (const date of dates) pipeline.hgetall(this.key('day', date));
    const answers = await this.run('usage_read', () => pipeline.exec());
    return dates.map((date, i) => {
      const [error, fields] = answers?.[i] ?? [new Error('no answer'), null];
      if (error) throw error;
      return dayOf(
        date,
        Object.fromEntries(Object.entries(fields as Record<string, string>).map(([k, v]) => [k, Number(v)])),
      );
    });
  }

  async claimAlert(day: string, threshold: number): Promise<boolean> {
    const set = await this.run('usage_alert', () =>
      this.redis.set(this.key('alert', day, String(threshold)), '1', 'EX', 2 * DAY_SECONDS, 'NX'),
    );
    return set === 'OK';
  }

  private async start(
    kind: 'tryon' | 'preview',
    jobId: string,
    product: string,
    credits: number,
    keepMs: number,
  ): Promise<void> {
    const day = utcDay(this.now());
    const multi = this.redis.multi();
    this.increments(multi, day, startCounters(kind, product, credits));
    multi.set(
      this.key('job', jobId),
      JSON.stringify({ day, product, credits } satisfies JobEntry),
      'PX',
      Math.max(1, Math.round(keepMs)),
    );
    await this.run('usage_write', () => multi.exec());
  }

  private increments(multi: ReturnType<Redis['multi']>, day: string, counters: UsageCounters): void {
    const key = this.key('day', day);
    for (const [field, n] of Object.entries(counters)) multi.hincrbyfloat(key, field, n);
    multi.expire(key, (USAGE_DAYS + 1) * DAY_SECONDS);
  }
}
