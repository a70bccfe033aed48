// The spend ledger of one process (spend-ledger.ts says what it guards): the default store's, and
// the rule the Redis script and the shop object's tables follow in their own languages. Each method
// does all its work before its first await: atomic on one event loop.
import {
  dailyRefusal,
  utcDay,
  type HeldKind,
  type Reservation,
  type SpendClaim,
  type SpendLedger,
  type SpendLimits,
  type SpendUsage,
  type SubmitOutcome,
} from './spend-ledger.js';

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

export class MemorySpendLedger implements SpendLedger {
  private readonly held = new Map<string, Held>();
  private readonly photos = new Map<string, { keys: Set<string>; keepUntil: number }>();
  /** Each photo's colour drafts, apart from its try-ons (their own cap). */
  private readonly colourDrafts = new Map<string, { keys: Set<string>; keepUntil: number }>();
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
    const sets = kind === 'colour_preview' ? this.colourDrafts : this.photos;
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
    for (const sets of [this.photos, this.colourDrafts]) {
      for (const [id, photo] of sets) if (photo.keepUntil <= now) sets.delete(id);
    }
  }

  private forget(key: string, held: Held): void {
    this.held.delete(key);
    (held.kind === 'colour_preview' ? this.colourDrafts : this.photos).get(held.photoId)?.keys.delete(key);
  }
}
