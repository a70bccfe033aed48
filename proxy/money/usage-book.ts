// The usage book: what the shop spent, day by day, for the merchant (GET /usage on the admin
// listener). The spend ledger (spend-ledger.ts) guards the budget; this book only reads back what
// happened: try-ons upstream accepted, their credits (given back when upstream fails the job, as
// upstream gives them back), previews, and every error code the proxy answered, per UTC day and
// per product, for 30 days. It is kept in the store (memory: one process; Redis and Durable
// Objects: shared by every instance and kept across restarts: usage-book-memory.ts, -redis.ts and
// -durable.ts), and it also decides, once per day and threshold across the cluster, who sends a
// budget alert (budget-alerts.ts).
//
// Every store keeps a day as flat counters (`tryons`, `credits`, `previews`, `e:<code>`,
// `pt:<product>`, `pc:<product>`, and the fidelity check's `fc:`, `fd:`, `fr:`, `fh:` per
// product, fidelityCounters): an increment is the same in memory, in a Redis hash and in a
// SQLite row, and `dayOf` turns them into the documented shape in one place.

import { utcDay } from './spend-ledger.js';

/** How many days /usage lists and the store keeps (today included). */
export const USAGE_DAYS = 30;
const DAY_MS = 86_400_000;

/** One day of GET /usage (docs/proxy.md, "The admin listener"). */
export interface UsageDay {
  date: string;
  tryons: number;
  credits: number;
  previews: number;
  errors: Record<string, number>;
  products: Record<string, { tryons: number; credits: number; fidelity: FidelityUsage }>;
}

/**
 * A product's results checked against its garment in a day: `checked` (verdict `true` or
 * `differs`; an unchecked one is not counted), `differs` among them, the median of each checked
 * try-on's largest colour difference (ΔE, to the nearest 0.5; null when none was checked), and
 * the rerenders started.
 */
export interface FidelityUsage {
  checked: number;
  differs: number;
  medianDeltaE: number | null;
  rerenders: number;
}

/** A day's counters by field name. */
export type UsageCounters = Record<string, number>;

/** What a started job adds to its day; kept with the job so a failure can give its credits back. */
export interface JobEntry {
  day: string;
  product: string;
  credits: number;
}

export interface UsageBook {
  /** A try-on upstream accepted (once per logical try-on: a retry of one already started is not counted). */
  tryonStarted(jobId: string, product: string, credits: number, keepMs: number): Promise<void>;
  /**
   * A preview (a first-look draft job) upstream accepted: counted in `previews` and its credits in
   * the day's and the product's credits, not in `tryons`.
   */
  previewStarted(jobId: string, product: string, credits: number, keepMs: number): Promise<void>;
  /** The job failed upstream (counted once in the cluster): its credits were given back; its code is counted. */
  jobFailed(jobId: string, code: string): Promise<void>;
  /**
   * A rerender of a differing view upstream accepted (once per try-on: a retry's is not counted):
   * counted like a try-on (its credits in the day's and the product's) and among the product's rerenders.
   */
  rerenderStarted(jobId: string, product: string, credits: number, keepMs: number): Promise<void>;
  /** A try-on's result was checked (once in the cluster, by the write that finished it): `fidelityCounters`. */
  fidelityChecked(product: string, verdict: 'true' | 'differs', deltaE: number): Promise<void>;
  /** The proxy answered this error code to a client. */
  errorAnswered(code: string): Promise<void>;
  /** The last `count` UTC days, today first, each listed even when nothing happened. */
  days(count?: number): Promise<UsageDay[]>;
  /** True for exactly one caller in the cluster per day and threshold: that caller sends the alert. */
  claimAlert(day: string, threshold: number): Promise<boolean>;
}

/** The dates of the last `count` UTC days, today first. */
export function lastDays(now: number, count = USAGE_DAYS): string[] {
  return Array.from({ length: count }, (_, i) => utcDay(now - i * DAY_MS));
}

/** The oldest date the store keeps. */
export const oldestKept = (now: number) => utcDay(now - (USAGE_DAYS - 1) * DAY_MS);

/** The counters a started job adds. */
export function startCounters(kind: 'tryon' | 'preview', product: string, credits: number): UsageCounters {
  return {
    [kind === 'tryon' ? 'tryons' : 'previews']: 1,
    credits,
    ...(kind === 'tryon' ? { [`pt:${product}`]: 1 } : {}),
    [`pc:${product}`]: credits,
  };
}

/** The counters a rerender adds besides a try-on's. */
export const rerenderCounters = (product: string): UsageCounters => ({ [`fr:${product}`]: 1 });

/**
 * The counters a checked result adds: `fc:` checked, `fd:` differs, and one in its ΔE's bucket
 * (`fh:<product>:<ΔE to 0.5>`, at most 201 buckets up to 100), from which the day's median is read.
 */
export function fidelityCounters(product: string, verdict: 'true' | 'differs', deltaE: number): UsageCounters {
  const bucket = Math.min(100, Math.max(0, Math.round((Number.isFinite(deltaE) ? deltaE : 100) * 2) / 2));
  return {
    [`fc:${product}`]: 1,
    ...(verdict === 'differs' ? { [`fd:${product}`]: 1 } : {}),
    [`fh:${product}:${bucket}`]: 1,
  };
}

/** The median of a histogram of ΔE buckets (the lower middle of an even count). */
function medianOf(histogram: Map<number, number>): number | null {
  const buckets = [...histogram].filter(([, n]) => n > 0).sort(([a], [b]) => a - b);
  const total = buckets.reduce((sum, [, n]) => sum + n, 0);
  if (total === 0) return null;
  let seen = 0;
  for (const [deltaE, n] of buckets) {
    seen += n;
    if (seen * 2 >= total) return deltaE;
  }
  return null;
}

/** What a failed job takes back from the day it was counted on: its credits (upstream gives them back). */
export function refundCounters(job: JobEntry): UsageCounters {
  return { credits: -job.credits, [`pc:${job.product}`]: -job.credits };
}

/** Float sums of credits (0.1 + 0.2) are rounded to what a price table can hold. */
const tidy = (n: number) => Math.round(n * 1000) / 1000;

/** A day's counters in the documented shape. */
export function dayOf(date: string, counters: UsageCounters): UsageDay {
  const day: UsageDay = { date, tryons: 0, credits: 0, previews: 0, errors: {}, products: {} };
  const product = (id: string) =>
    (day.products[id] ??= {
      tryons: 0,
      credits: 0,
      fidelity: { checked: 0, differs: 0, medianDeltaE: null, rerenders: 0 },
    });
  const histograms = new Map<string, Map<number, number>>();
  for (const [field, raw] of Object.entries(counters)) {
    const n = tidy(Number(raw));
    if (field === 'tryons' || field === 'credits' || field === 'previews') day[field] = n;
    else if (field.startsWith('e:')) {
      if (n > 0) day.errors[field.slice(2)] = n;
    } else if (field.startsWith('pt:')) product(field.slice(3)).tryons = n;
    else if (field.startsWith('pc:')) product(field.slice(3)).credits = n;
    else if (field.startsWith('fc:')) product(field.slice(3)).fidelity.checked = n;
    else if (field.startsWith('fd:')) product(field.slice(3)).fidelity.differs = n;
    else if (field.startsWith('fr:')) product(field.slice(3)).fidelity.rerenders = n;
    else if (field.startsWith('fh:')) {
      const [id, bucket] = [field.slice(3, field.lastIndexOf(':')), Number(field.slice(field.lastIndexOf(':') + 1))];
      const histogram = histograms.get(id) ?? new Map<number, number>();
      histogram.set(bucket, n);
      histograms.set(id, histogram);
    }
  }
  for (const [id, histogram] of histograms) product(id).fidelity.medianDeltaE = medianOf(histogram);
  return day;
}
