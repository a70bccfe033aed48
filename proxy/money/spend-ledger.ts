// What a try-on may spend, decided before upstream is asked. Each logical try-on (one idempotency
// key) reserves its place in every limit in one atomic step: the day's try-ons, the day's credits,
// the photo's cap and the client's daily cap. Checking and recording in one step is what keeps a
// burst exact: N free slots → at most N upstream try-ons, however many arrive together.
// A retry of the same try-on finds its reservation and passes free, even once the day is spent.
// The interface is asynchronous so a shared store (Redis, a Durable Object) can implement it with
// one atomic script; the in-memory ledger below is one process's.
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
   * `tryon` (the default) counts in the photo's try-on cap; `colour_preview` (a draft of another
   * colour, catalog `colourPreviews`) counts in the photo's own colour-preview cap instead,
   * `colourPreviewCap`. Both count in the day's try-ons and credits and the client's day.
   */
  kind?: 'tryon' | 'colour_preview';
  /** How many distinct colour previews one photo may start (with kind `colour_preview`). */
  colourPreviewCap?: number;
  /**
   * The first look (a draft started beside the try-on, its own idempotency key): reserved in the
   * same atomic step, in the day's credits only (it is part of the same try-on). When the credits
   * cover the try-on but not it, the try-on is granted without it: never refused for its sake. A
   * retry of the try-on gets it only if it is still held, so a retry never charges anything new.
   */
  preview?: { key: string; credits: number };
}

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

/** What a held reservation counts in: a try-on, a colour preview, or a first look (credits only). */
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

interface Held {
  kind: HeldKind;
  day: string;
  photoId: string;
  client: string;
  credits: number;
  keepUntil: number;
  /** Requests of this try-on under way; the reservation is given back only when none is left. */
  holders: number;
  /** Upstream accepted it, or a submit of it ended in a way that may hide a started job: never given back. */
  mayHaveStarted: boolean;
}

/** One process's ledger. Each method does all its work before its first await: atomic on one event loop. */
export class MemorySpendLedger implements SpendLedger {
  private readonly held = new Map<string, Held>();
  private readonly photos = new Map<string, { keys: Set<string>; keepUntil: number }>();
  /** Each photo's colour previews, apart from its try-ons (their own cap). */
  private readonly colourPhotos = new Map<string, { keys: Set<string>; keepUntil: number }>();
  private day = '';
  private tryons = 0;
  private credits = 0;
  private clients = new Map<string, number>();
  private sweptAt = 0;

  constructor(
    private readonly limits: SpendLimits,
    private readonly now: () => number = Date.now,
  ) {}

  private roll(now: number): string {
    const day = utcDay(now);
    if (day !== this.day) {
      this.day = day;
      this.tryons = 0;
      this.credits = 0;
      this.clients = new Map();
    }
    return day;
  }

  async reserve(claim: SpendClaim): Promise<Reservation> {
    const now = this.now();
    const day = this.roll(now);
    this.sweep(now);
    const known = this.held.get(claim.key);
    if (known && known.keepUntil > now) {
      known.holders++;
      known.keepUntil = Math.max(known.keepUntil, claim.keepUntil);
      // A retry charges nothing new: its first look only if that is still held.
      return { granted: true, retry: true, ...this.holdAgain(claim, now) };
    }
    if (known) this.forget(claim.key, known);
    const kind = claim.kind ?? 'tryon';
    const sets = kind === 'colour_preview' ? this.colourPhotos : this.photos;
    const photo = sets.get(claim.photoId);
    if (kind === 'colour_preview') {
      if ((photo?.keys.size ?? 0) >= (claim.colourPreviewCap ?? 0))
        return { granted: false, refusal: 'colour_preview_limit' };
    } else if ((photo?.keys.size ?? 0) >= this.limits.tryonsPerPhoto) return { granted: false, refusal: 'photo_limit' };
    if ((this.clients.get(claim.client) ?? 0) >= this.limits.clientDailyTryons)
      return { granted: false, refusal: 'client_daily' };
    const daily = dailyRefusal({ tryons: this.tryons, credits: this.credits }, this.limits, claim.credits);
    if (daily) return { granted: false, refusal: daily };

    this.tryons++;
    this.credits += claim.credits;
    this.clients.set(claim.client, (this.clients.get(claim.client) ?? 0) + 1);
    if (photo) {
      photo.keys.add(claim.key);
      photo.keepUntil = Math.max(photo.keepUntil, claim.keepUntil);
    } else {
      sets.set(claim.photoId, { keys: new Set([claim.key]), keepUntil: claim.keepUntil });
    }
    this.held.set(claim.key, {
      kind,
      day,
      photoId: claim.photoId,
      client: claim.client,
      credits: claim.credits,
      keepUntil: claim.keepUntil,
      holders: 1,
      mayHaveStarted: false,
    });
    // The first look, in the same step: only what the day's credits still cover.
    const again = this.holdAgain(claim, now);
    if (again.preview || !claim.preview) return { granted: true, retry: false, ...again };
    if (this.credits + claim.preview.credits > this.limits.dailyCredits) return { granted: true, retry: false };
    this.credits += claim.preview.credits;
    this.held.set(claim.preview.key, {
      kind: 'preview',
      day,
      photoId: claim.photoId,
      client: claim.client,
      credits: claim.preview.credits,
      keepUntil: claim.keepUntil,
      holders: 1,
      mayHaveStarted: false,
    });
    return { granted: true, retry: false, preview: { retry: false } };
  }

  /** The claim's first look, if it is held already (a retry's): one more holder, nothing counted. */
  private holdAgain(claim: SpendClaim, now: number): { preview?: { retry: boolean } } {
    if (!claim.preview) return {};
    const held = this.held.get(claim.preview.key);
    if (!held || held.keepUntil <= now) return {};
    held.holders++;
    held.keepUntil = Math.max(held.keepUntil, claim.keepUntil);
    return { preview: { retry: true } };
  }

  async settle(key: string, outcome: SubmitOutcome): Promise<void> {
    const held = this.held.get(key);
    if (!held) return;
    held.holders = Math.max(0, held.holders - 1);
    if (outcome !== 'refused') held.mayHaveStarted = true;
    if (held.mayHaveStarted || held.holders > 0) return;
    this.forget(key, held);
    if (held.day === this.roll(this.now())) {
      this.credits -= held.credits;
      // A first look counts in the credits only.
      if (held.kind === 'preview') return;
      this.tryons--;
      const count = (this.clients.get(held.client) ?? 1) - 1;
      if (count > 0) this.clients.set(held.client, count);
      else this.clients.delete(held.client);
    }
  }

  async usage(): Promise<SpendUsage> {
    const day = this.roll(this.now());
    return { day, tryons: this.tryons, credits: this.credits };
  }

  /** Forgets try-ons and photos no retry can reach any more (at most once a minute). */
  private sweep(now: number): void {
    if (now - this.sweptAt < 60_000) return;
    this.sweptAt = now;
    for (const [key, held] of this.held) if (held.keepUntil <= now) this.forget(key, held);
    for (const sets of [this.photos, this.colourPhotos]) {
      for (const [id, photo] of sets) if (photo.keepUntil <= now) sets.delete(id);
    }
  }

  private forget(key: string, held: Held): void {
    this.held.delete(key);
    (held.kind === 'colour_preview' ? this.colourPhotos : this.photos).get(held.photoId)?.keys.delete(key);
  }
}
