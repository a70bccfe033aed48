// What protects the shop's credits: a cap of distinct try-ons per photo and a daily try-on budget
// (per-client rate limits are in middleware/rate-limit.ts). A retry with the same requestId
// reaches the same idempotency key and counts once. State is in memory, per proxy instance.
import { ProxyError } from './errors.js';

export class TryonBudget {
  private perPhoto = new Map<string, Set<string>>();
  private day = '';
  private today = new Set<string>();

  constructor(private readonly limits: { tryonsPerPhoto: number; dailyTryons: number }, private readonly now: () => number) {}

  private rollDay(): void {
    const day = new Date(this.now()).toISOString().slice(0, 10);
    if (day !== this.day) {
      this.day = day;
      this.today = new Set();
    }
  }

  /** Refuses a new try-on over a cap; a key seen before (a retry) always passes. */
  check(photoId: string, key: string): void {
    this.rollDay();
    const seen = this.perPhoto.get(photoId);
    if (seen?.has(key) || this.today.has(key)) return;
    if ((seen?.size ?? 0) >= this.limits.tryonsPerPhoto) {
      throw new ProxyError(429, 'photo_limit_reached', `This photo has been used for ${this.limits.tryonsPerPhoto} try-ons; please upload it again to continue.`, false);
    }
    if (this.today.size >= this.limits.dailyTryons) {
      const tomorrow = Date.UTC(new Date(this.now()).getUTCFullYear(), new Date(this.now()).getUTCMonth(), new Date(this.now()).getUTCDate() + 1);
      throw new ProxyError(503, 'daily_budget_reached', 'Try-on is resting for today; please come back tomorrow.', false, (tomorrow - this.now()) / 1000);
    }
  }

  /** Counts a try-on that upstream accepted. */
  record(photoId: string, key: string): void {
    this.rollDay();
    let seen = this.perPhoto.get(photoId);
    if (!seen) {
      seen = new Set();
      this.perPhoto.set(photoId, seen);
      // Photo handles live an hour; the oldest entries go first when memory is tight.
      if (this.perPhoto.size > 100_000) this.perPhoto.delete(this.perPhoto.keys().next().value as string);
    }
    seen.add(key);
    this.today.add(key);
  }

  usedToday(): number {
    this.rollDay();
    return this.today.size;
  }
}
