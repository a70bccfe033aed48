// How long a try-on usually takes, from what happened: each succeeded try-on's time from accepted
// (the proxy's submit) to finished (the status board's finishing write), kept in the store as a
// bounded window of the most recent ones per kind (tier, and image with its number of views or
// video), so every instance answers the same median. Until a kind has enough of them, the figure
// is what the proxy was told of its upstream (`typicalSeconds`, TRYON_TYPICAL_SECONDS), else the
// defaults below. The widget shows it as "usually about …" and says a try-on taking twice as long
// is taking longer than usual. The store's part is the same in every store (tryon-times-memory.ts,
// -redis.ts, -durable.ts).
import { z } from 'zod';
import { TIERS, type Tier } from '../money/prices.js';
import type { Log } from '../operator/log.js';

/** The store's part: each kind's recent try-on times in seconds, newest first. */
export interface TryonTimeStore {
  /** Adds one finished try-on's seconds to its kind, keeping only the newest `keep`. */
  addTryonTime(kind: string, seconds: number, keep: number): Promise<void>;
  /** Each kind's kept times, newest first, in one round trip. */
  tryonTimes(kinds: readonly string[]): Promise<number[][]>;
}

/** Seconds of a try-on by tier: a front-view image, and a video. */
export interface TypicalSeconds {
  image: Record<Tier, number>;
  video: Record<Tier, number>;
}

/**
 * What the proxy assumes of the hosted API before it has measured anything: the sandbox's medians
 * (docs/upstream-api.md states only the slow case, a p95 of 25 s at standard and 60 s at premium;
 * a median is what "usually" means).
 */
export const DEFAULT_TYPICAL_SECONDS: TypicalSeconds = {
  image: { draft: 3, standard: 15, premium: 35 },
  video: { draft: 12, standard: 40, premium: 80 },
};

/** Each view after the front adds about this share of the front's time (it is turned from the front). */
export const FURTHER_VIEW_SHARE = 0.36;

/** How many recent try-ons of a kind make its median: enough to be steady, few enough to follow a change. */
export const RECENT_TRYONS = 50;

/** Below this many measured try-ons of a kind, its figure is still the one the proxy was told. */
export const MEASURED_ENOUGH = 5;

const seconds = z.number().finite().positive().max(3600);
const byTier = z.strictObject({ draft: seconds.optional(), standard: seconds.optional(), premium: seconds.optional() });

/** A partial table of typical seconds, as TRYON_TYPICAL_SECONDS gives it. */
export const typicalSecondsSchema = z.strictObject({ image: byTier.optional(), video: byTier.optional() });
export type PartialTypicalSeconds = z.infer<typeof typicalSecondsSchema>;

/** A product's typical try-on times: `image[n - 1]` for n of its views, `video` when it offers one. */
export interface ProductTimes {
  image: number[];
  video?: number;
}

/** What the finishing write tells (a status record, read structurally: this folder sits below tryons/). */
export interface FinishedTryon {
  tier?: string | undefined;
  acceptedAt?: number | undefined;
  snapshot: { status: string; at: number; outputs: readonly { type: 'image' | 'video' }[] };
}

/** The kind a try-on's time is kept under: `standard.image.3`, `premium.video`. */
export const kindOf = (tier: string, output: 'image' | 'video', views = 1): string =>
  output === 'video' ? `${tier}.video` : `${tier}.image.${views}`;

/** The middle of a list of seconds (the mean of the two middle ones for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

const isTier = (tier: string | undefined): tier is Tier => (TIERS as readonly (string | undefined)[]).includes(tier);

/** A figure as answered: tenths of a second, so a fast upstream's "4.5" is not rounded to a wrong whole. */
const tenths = (value: number) => Math.round(value * 10) / 10;

export class TryonTimes {
  private readonly coldStart: TypicalSeconds;
  private readonly log: Log;

  constructor(
    private readonly store: TryonTimeStore,
    options: { typicalSeconds?: PartialTypicalSeconds | undefined; log?: Log } = {},
  ) {
    this.coldStart = {
      image: { ...DEFAULT_TYPICAL_SECONDS.image, ...definedOf(options.typicalSeconds?.image) },
      video: { ...DEFAULT_TYPICAL_SECONDS.video, ...definedOf(options.typicalSeconds?.video) },
    };
    this.log = options.log ?? (() => undefined);
  }

  /** The figure before anything is measured: the front's, and a share of it for each further view. */
  private told(tier: Tier, output: 'image' | 'video', views: number): number {
    if (output === 'video') return this.coldStart.video[tier];
    return this.coldStart.image[tier] * (1 + FURTHER_VIEW_SHARE * (views - 1));
  }

  /**
   * Counts a try-on the finishing write just finished (exactly one write in the cluster does): a
   * succeeded one with a known tier and acceptance; a failed one says nothing of how long a render takes.
   */
  async tryonFinished(record: FinishedTryon): Promise<void> {
    const { snapshot, tier, acceptedAt } = record;
    if (snapshot.status !== 'succeeded' || !isTier(tier) || acceptedAt === undefined) return;
    const seconds = (snapshot.at - acceptedAt) / 1000;
    if (!(seconds > 0)) return;
    const video = snapshot.outputs.some((output) => output.type === 'video');
    const kind = kindOf(tier, video ? 'video' : 'image', Math.max(1, snapshot.outputs.length));
    await this.store
      .addTryonTime(kind, seconds, RECENT_TRYONS)
      .catch((error: Error) =>
        this.log({ level: 'warn', event: 'tryon_time_unwritten', kind, message: error.message }),
      );
  }

  /** A product's typical times, for each number of its views and its video: one store round trip. */
  async product(tier: string, views: number, video: boolean): Promise<ProductTimes> {
    const known: Tier = isTier(tier) ? tier : 'standard';
    const counts = Array.from({ length: Math.max(1, views) }, (_, i) => i + 1);
    const kinds = counts.map((n) => kindOf(known, 'image', n));
    if (video) kinds.push(kindOf(known, 'video'));
    const kept = await this.store.tryonTimes(kinds);
    const figure = (i: number, output: 'image' | 'video', n: number) => {
      const measured = kept[i] ?? [];
      return tenths(measured.length >= MEASURED_ENOUGH ? median(measured) : this.told(known, output, n));
    };
    return {
      image: counts.map((n, i) => figure(i, 'image', n)),
      ...(video ? { video: figure(counts.length, 'video', 1) } : {}),
    };
  }
}

function definedOf(table: Partial<Record<Tier, number | undefined>> | undefined): Partial<Record<Tier, number>> {
  return Object.fromEntries(Object.entries(table ?? {}).filter(([, value]) => value !== undefined));
}
