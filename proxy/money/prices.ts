// What a try-on costs in upstream credits, so the daily budget can count credits, not just
// try-ons. The hosted API does not publish prices: the defaults are the sandbox's table, and a
// shop sets its own in the catalog's `defaults.prices` or TRYON_PRICES (the environment wins).
import { z } from 'zod';

/** The tiers a try-on can be made in; the catalog chooses one per product, the price table prices each. */
export const TIERS = ['draft', 'standard', 'premium'] as const;
export type Tier = (typeof TIERS)[number];

export interface PriceTable {
  /** Credits per rendered view of an image try-on. */
  image: Record<Tier, number>;
  /** Credits per video try-on. */
  video: Record<Tier, number>;
}

export const DEFAULT_PRICES: PriceTable = {
  image: { draft: 1, standard: 2, premium: 4 },
  video: { draft: 5, standard: 10, premium: 20 },
};

const credits = z.number().finite().nonnegative().max(1_000_000);
const byTier = z.strictObject({ draft: credits.optional(), standard: credits.optional(), premium: credits.optional() });

/** A partial price table, as written in a catalog's defaults or TRYON_PRICES. */
export const priceTableSchema = z.strictObject({ image: byTier.optional(), video: byTier.optional() });
export type PartialPriceTable = z.infer<typeof priceTableSchema>;

/** Later tables override earlier ones, tier by tier, over the defaults. */
export function resolvePrices(...tables: (PartialPriceTable | undefined)[]): PriceTable {
  const prices: PriceTable = { image: { ...DEFAULT_PRICES.image }, video: { ...DEFAULT_PRICES.video } };
  for (const table of tables) {
    for (const output of ['image', 'video'] as const) {
      for (const [tier, value] of Object.entries(table?.[output] ?? {})) {
        if (value !== undefined) prices[output][tier as Tier] = value;
      }
    }
  }
  return prices;
}

/** Credits one try-on reserves: each view of an image try-on, or the one video. */
export function creditsFor(prices: PriceTable, tier: Tier, output: 'image' | 'video', views: number): number {
  return output === 'video' ? prices.video[tier] : prices.image[tier] * views;
}
