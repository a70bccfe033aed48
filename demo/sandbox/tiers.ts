export const tiers = ['draft', 'standard', 'premium'] as const;
export type Tier = (typeof tiers)[number];

/** Credits per rendered view (images) and per video, charged at submit to live keys only. */
export const price = {
  image: { draft: 1, standard: 2, premium: 4 },
  video: { draft: 5, standard: 10, premium: 20 },
} as const satisfies Record<'image' | 'video', Record<Tier, number>>;

/**
 * Seconds at SANDBOX_SPEED=1, near the p95 latencies the API document states (standard 25 s,
 * premium 60 s for a front view). Each further catalog view takes a fraction of the front,
 * because it reuses the front output.
 */
export const durations = {
  front: { draft: 4, standard: 15, premium: 35 },
  video: { draft: 20, standard: 40, premium: 80 },
  /** Share of a job's time spent `queued` before `processing`. */
  queuedShare: 0.1,
  /** Each non-front catalog view, as a share of the front's time. */
  derivedViewShare: 0.4,
} as const;

export const startingCredits = 100;
