// What a try-on may spend, decided before upstream is asked. Each logical try-on (one idempotency
// key) reserves its place in every limit in one atomic step: the day's try-ons, the day's credits,
// the photo's cap and the client's daily cap. Checking and recording in one step is what keeps a
// burst exact: N free slots → at most N upstream try-ons, however many arrive together.
// A retry of the same try-on finds its reservation and passes free, even once the day is spent.
// The interface is asynchronous so a shared store (Redis, a Durable Object) can implement it with
// one atomic script: spend-ledger-memory.ts is one process's ledger, spend-ledger-redis.ts and
// spend-ledger-durable.ts the shared ones, each with the same checks in the same order.
import { ProxyError } from '../http/errors.js';

export interface SpendLimits {
  /** Distinct try-ons the whole proxy may start per UTC day. */
  dailyTryons: number;
  /** Credits (by the price table) the whole proxy may reserve per UTC day. */
  dailyCredits: number;
  /** Distinct try-ons one uploaded photo may start. */
  tryonsPerPhoto: number;
  /** Distinct try-ons one client (address, IPv6 /64) may start per UTC day. */
  clientDailyTryons: number;
}

export interface SpendClaim {
  /** The upstream idempotency key: the identity of one logical try-on. */
  key: string;
  /** Id of the photo handle it is made from. */
  photoId: string;
  /** The client's limit key (see client-address.ts). */
  client: string;
  /** Its price in credits. */
  credits: number;
  /** Epoch ms after which no retry can come (its photo handle has expired): then it is forgotten. */
  keepUntil: number;
  /**
   * `tryon` (the default) counts in the photo's try-on cap; `colour_preview`, a colour draft (a
   * draft of another colour, catalog `colourPreviews`), counts in the photo's own cap of colour
   * drafts instead, `colourPreviewCap`. Both count in the day's try-ons and credits and the
   * client's day. The kind's spelling is stored with every reservation (HeldKind) and the claim
   * travels whole to the shop's Durable Object, so both names keep "preview".
   */
  kind?: 'tryon' | 'colour_preview';
  /** How many distinct colour drafts one photo may start (with kind `colour_preview`). */
  colourPreviewCap?: number;
  /**
   * The first look (a draft started beside the try-on, its own idempotency key): reserved in the
   * same atomic step, in the day's credits only (it is part of the same try-on). When the credits
   * cover the try-on but not it, the try-on is granted without it: never refused for its sake. A
   * retry of the try-on gets it only if it is still held, so a retry never charges anything new.
   */
  preview?: { key: string; credits: number };
}

/** Why a claim was refused; `colour_preview_limit` is also the error code the browser gets (refusalError). */
export type SpendRefusal = 'photo_limit' | 'daily_tryons' | 'daily_credits' | 'client_daily' | 'colour_preview_limit';

export type Reservation =
  | {
      granted: true;
      /** The try-on was reserved before: nothing new is counted. */
      retry: boolean;
      /** Present when the first look asked for is reserved (retry: it was, before); absent: run without it. */
      preview?: { retry: boolean };
    }
  | { granted: false; refusal: SpendRefusal };

/**
 * What a held reservation counts in: a try-on, a colour draft (`colour_preview`), or a first look
 * (`preview`, in the credits only). Kept as written: it is stored with each reservation (the Redis
 * hash's `kind` field, the shop object's `held.kind` column), and a reservation outlives a deploy.
 */
export type HeldKind = 'tryon' | 'colour_preview' | 'preview';

export type SubmitOutcome = 'accepted' | 'refused' | 'unknown';

export interface SpendUsage {
  /** The UTC day counted, YYYY-MM-DD. */
  day: string;
  tryons: number;
  credits: number;
}

export interface SpendLedger {
  /** Reserves the try-on in every limit, or refuses it; all or nothing, atomically. */
  reserve(claim: SpendClaim): Promise<Reservation>;
  /**
   * How the upstream submit of a reserved try-on ended. `accepted` and `unknown` (a timeout, a
   * 5xx: upstream may have started it) both record, with the reservation, that the try-on may have
   * started: from then on it is never given back, whatever a later request of the same try-on
   * hears, so the budget never under-counts. `refused` (upstream surely started nothing) gives it
   * back only when no request of it is under way and none ever may have started it.
   */
  settle(key: string, outcome: SubmitOutcome): Promise<void>;
  usage(): Promise<SpendUsage>;
}

export const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * Whether a claim of `credits` still fits the day's budget: the rule every ledger applies (the
 * Redis script and the shop object in their own languages), and GET /products reads ahead.
 */
export function dailyRefusal(
  spent: Pick<SpendUsage, 'tryons' | 'credits'>,
  limits: Pick<SpendLimits, 'dailyTryons' | 'dailyCredits'>,
  credits: number,
): 'daily_tryons' | 'daily_credits' | undefined {
  if (spent.tryons >= limits.dailyTryons) return 'daily_tryons';
  if (spent.credits + credits > limits.dailyCredits) return 'daily_credits';
  return undefined;
}

/** Seconds until the next UTC midnight, when every daily limit starts afresh. */
export function secondsToNextDay(ms: number): number {
  const date = new Date(ms);
  return (Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() + 1) - ms) / 1000;
}

/** The documented answer to each refusal. */
export function refusalError(refusal: SpendRefusal, limits: SpendLimits, now: number): ProxyError {
  switch (refusal) {
    case 'colour_preview_limit':
      return new ProxyError(
        429,
        'colour_preview_limit',
        'This photo has been used for every colour preview it may make; please upload it again to see more.',
        false,
      );
    case 'photo_limit':
      return new ProxyError(
        429,
        'photo_limit_reached',
        `This photo has been used for ${limits.tryonsPerPhoto} try-ons; please upload it again to continue.`,
        false,
      );
    case 'client_daily':
      return new ProxyError(
        429,
        'daily_limit_reached',
        'You have made today’s try-ons; please come back tomorrow.',
        false,
        secondsToNextDay(now),
      );
    case 'daily_tryons':
    case 'daily_credits':
      return new ProxyError(
        503,
        'daily_budget_reached',
        'Try-on is resting for today; please come back tomorrow.',
        false,
        secondsToNextDay(now),
      );
  }
}
