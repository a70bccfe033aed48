// The three tiers' prices and job times: what a live key is charged (test keys are charged nothing)
// and how long a job takes, drawn log-normal around each tier's median so that the widget's progress
// and the proxy's polling meet realistic spreads. The hosted API publishes no prices; these are the
// defaults the proxy's price table also uses (docs/upstream-api.md, "Gaps").
export const tiers = ['draft', 'standard', 'premium'] as const;
export type Tier = (typeof tiers)[number];

/** Credits per rendered view (images) and per video, charged at submit to live keys only. */
export const price = {
  image: { draft: 1, standard: 2, premium: 4 },
  video: { draft: 5, standard: 10, premium: 20 },
} as const satisfies Record<'image' | 'video', Record<Tier, number>>;

/** A job time as docs/upstream-api.md states latencies: a median and a 95th percentile, in seconds at SANDBOX_SPEED=1. */
export interface Latency {
  median: number;
  p95: number;
}

/**
 * How long a job takes at SANDBOX_SPEED=1, from submit to its front output (queued time included).
 * Standard and premium use docs/upstream-api.md's typical p95 (25 s and 60 s); their medians (15 s and
 * 35 s) are the sandbox's own assumption. A draft is "cheap and meant for iteration": a few seconds.
 * Videos have no stated latency; they take about three times the image front.
 */
export const latency = {
  front: {
    draft: { median: 3, p95: 5 },
    standard: { median: 15, p95: 25 },
    premium: { median: 35, p95: 60 },
  },
  video: {
    draft: { median: 12, p95: 20 },
    standard: { median: 40, p95: 65 },
    premium: { median: 80, p95: 130 },
  },
} as const satisfies Record<'front' | 'video', Record<Tier, Latency>>;

export const durations = {
  /** Share of a job's time spent `queued` before `processing`. */
  queuedShare: 0.1,
  /** Each non-front catalog view, as a share of the job's front time (it reuses the front output). */
  derivedViewShare: 0.4,
  /** Draws beyond this many standard deviations are cut off, so no job takes an absurd time. */
  maxDeviations: 2.5,
} as const;

/** The 95th percentile of the standard normal distribution. */
const z95 = 1.6448536269514722;

/** σ of the log-normal distribution with the given median and p95: p95 = median · e^(σ·z95). */
export const sigmaOf = (l: Latency) => Math.log(l.p95 / l.median) / z95;

/** A standard normal draw (Box–Muller); `random` is injectable so tests can pin it. */
export function normalDraw(random: () => number = Math.random): number {
  const u = 1 - random(); // (0, 1]: log(0) is never taken
  const v = random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

/**
 * One job's time in seconds at SANDBOX_SPEED=1: log-normal with the latency's median and p95,
 * truncated at ±maxDeviations σ. `spread: false` gives the median exactly (reproducible timing).
 */
export function drawSeconds(l: Latency, options: { spread?: boolean; random?: () => number } = {}): number {
  if (options.spread === false) return l.median;
  const limit = durations.maxDeviations;
  const z = Math.max(-limit, Math.min(limit, normalDraw(options.random)));
  return l.median * Math.exp(sigmaOf(l) * z);
}

export const startingCredits = 100;
