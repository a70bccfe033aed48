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
// `pt:<product>`, `pc:<product>`): an increment is the same in memory, in a Redis hash and in a
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
  products: Record<string, { tryons: number; credits: number }>;
  /** Outfits started (a first piece put over a try-on), the pieces they hold in all (the first try-on included), and their mean. */
  outfits: number;
  outfitPieces: number;
  piecesPerOutfit: number;
  /** Outfits put in the cart with "Add the look to cart" (the widget's cart report), and the pieces they held. */
  outfitsAddedToCart: number;
  piecesAddedToCart: number;
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
  /** The proxy answered this error code to a client. */
  errorAnswered(code: string): Promise<void>;
  /** Adds today's counters (an outfit's pieces, a cart report: outfitCounters, cartCounters). */
  count(counters: UsageCounters): Promise<void>;
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

/** What a failed job takes back from the day it was counted on: its credits (upstream gives them back). */
export function refundCounters(job: JobEntry): UsageCounters {
  return { credits: -job.credits, [`pc:${job.product}`]: -job.credits };
}

/**
 * What a piece put over a try-on adds, `pieces` being the outfit with it: the first piece over a
 * try-on starts an outfit of two pieces, each later one adds one piece.
 */
export function outfitCounters(pieces: readonly unknown[]): UsageCounters {
  return pieces.length <= 2 ? { outfits: 1, outfitPieces: 2 } : { outfitPieces: 1 };
}

/** What one "Add the look to cart" adds: one outfit of `pieces` pieces. */
export function cartCounters(pieces: number): UsageCounters {
  return { outfitsAddedToCart: 1, piecesAddedToCart: pieces };
}

/** The day's counters that are plain numbers of the documented shape. */
const PLAIN_FIELDS = [
  'tryons',
  'credits',
  'previews',
  'outfits',
  'outfitPieces',
  'outfitsAddedToCart',
  'piecesAddedToCart',
] as const;

/** Float sums of credits (0.1 + 0.2) are rounded to what a price table can hold. */
const tidy = (n: number) => Math.round(n * 1000) / 1000;

/** A day's counters in the documented shape. */
export function dayOf(date: string, counters: UsageCounters): UsageDay {
  const day: UsageDay = {
    date,
    tryons: 0,
    credits: 0,
    previews: 0,
    errors: {},
    products: {},
    outfits: 0,
    outfitPieces: 0,
    piecesPerOutfit: 0,
    outfitsAddedToCart: 0,
    piecesAddedToCart: 0,
  };
  const product = (id: string) => (day.products[id] ??= { tryons: 0, credits: 0 });
  for (const [field, raw] of Object.entries(counters)) {
    const n = tidy(Number(raw));
    if ((PLAIN_FIELDS as readonly string[]).includes(field)) day[field as (typeof PLAIN_FIELDS)[number]] = n;
    else if (field.startsWith('e:')) {
      if (n > 0) day.errors[field.slice(2)] = n;
    } else if (field.startsWith('pt:')) product(field.slice(3)).tryons = n;
    else if (field.startsWith('pc:')) product(field.slice(3)).credits = n;
  }
  day.piecesPerOutfit = day.outfits > 0 ? Math.round((day.outfitPieces / day.outfits) * 100) / 100 : 0;
  return day;
}
