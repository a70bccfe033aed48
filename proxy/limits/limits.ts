// Limits protect the shop's credits and the proxy itself. Defaults are safe for a public
// product page; every one can be changed through options or the environment.

export interface ProxyLimits {
  /** Largest photo accepted, in bytes (413 above). */
  uploadBytes: number;
  /** Largest JSON body, in bytes. */
  jsonBytes: number;
  /** Smallest photo side in pixels where the header shows it (422 photo_too_small). */
  minPhotoSide: number;
  /** Uploads and try-on submits per client per minute. */
  ratePerMinute: number;
  /** Status, event and file reads per client per minute. */
  readsPerMinute: number;
  /** Distinct try-ons one uploaded photo may start. */
  tryonsPerPhoto: number;
  /** Pieces one outfit may hold over a photo, the first try-on included (422 outfit_too_long past it). */
  outfitPieces: number;
  /** Distinct try-ons the whole proxy may start per UTC day. */
  dailyTryons: number;
  /** Credits (by the price table) the whole proxy may spend per UTC day. */
  dailyCredits: number;
  /** Distinct try-ons one client (an IPv4 address, an IPv6 /64) may start per UTC day. */
  clientDailyTryons: number;
  /** One upstream poll per try-on per this interval, shared by every watcher. */
  pollIntervalMs: number;
  /**
   * Once a verified webhook has arrived for a try-on, upstream is known to push its changes, so
   * it is polled only this often, as a safety net for a lost event (with webhooks configured).
   */
  pushedPollIntervalMs: number;
  /**
   * How long upstream may fail a try-on's polls before the try-on ends as `upstream_unavailable`,
   * in percent of its tier's slow case (draft 10 s, standard 25 s, premium 60 s: tryons/give-up.ts).
   */
  upstreamDownPercent: number;
  /**
   * How long after it was accepted a try-on that upstream still calls unfinished ends as
   * `upstream_unavailable`, in percent of its tier's slow case (tryons/give-up.ts): 1000 is ten
   * times the p95, 250 s for a standard image.
   */
  upstreamStuckPercent: number;
  /** Timeout of each upstream JSON call. */
  upstreamTimeoutMs: number;
  /** A photo upload that sends nothing for this long (before or inside the photo) is closed with 408. */
  uploadIdleMs: number;
  /** A photo upload must have arrived whole within this long (408 otherwise). */
  uploadTotalMs: number;
  /**
   * Node only: a request whose head (request line and headers) has not arrived whole within this
   * long is answered 408 and closed. 0: none. Workers' front end bounds heads itself.
   */
  headersTimeoutMs: number;
  /** Largest catalog image fetched by URL, counted as it streams (the fetch is stopped past it). */
  catalogImageBytes: number;
  /** A catalog image fetched by URL must have arrived whole within this long, redirects included. */
  catalogImageTimeoutMs: number;
  /** Timeout of an upload to /v1/files and of the start of a file download. */
  uploadTimeoutMs: number;
  /** Extra attempts for safe upstream calls (reads, the idempotent submit). */
  retries: number;
  /** Base of the jittered exponential backoff between attempts. */
  retryBaseMs: number;
  photoTtlSeconds: number;
  tryonTtlSeconds: number;
  fileTtlSeconds: number;
  /** SSE comment sent this often so idle connections stay open through proxies. */
  heartbeatMs: number;
  /** An SSE stream closes after this long even if the try-on is not done; the widget reconnects. */
  streamMaxMs: number;
  /** Status streams (SSE) one client may hold open on one instance (429 too_many_streams past it). */
  streamsPerClient: number;
  /** Status streams one instance (a Node process, a Workers isolate) holds open for everyone. */
  streamsPerInstance: number;
  /** Watchers of one try-on its Durable Object streams to, across every isolate (Workers only). */
  streamsPerTryon: number;
}

export const DEFAULT_LIMITS: ProxyLimits = {
  uploadBytes: 15 * 1024 * 1024,
  jsonBytes: 16 * 1024,
  minPhotoSide: 256,
  ratePerMinute: 30,
  readsPerMinute: 600,
  tryonsPerPhoto: 5,
  outfitPieces: 3,
  dailyTryons: 500,
  dailyCredits: 2000,
  clientDailyTryons: 20,
  pollIntervalMs: 1000,
  pushedPollIntervalMs: 10_000,
  upstreamDownPercent: 100,
  upstreamStuckPercent: 1000,
  upstreamTimeoutMs: 15_000,
  uploadIdleMs: 15_000,
  uploadTotalMs: 120_000,
  // A browser sends its whole head at once; 20 s covers the worst mobile line (Apache's
  // mod_reqtimeout gives 20 s too), where Node's own 60 s, checked every 30 s, lets a socket hang on 90 s.
  headersTimeoutMs: 20_000,
  // What upstream's /v1/files takes: a larger image could not be used anyway.
  catalogImageBytes: 15 * 1024 * 1024,
  catalogImageTimeoutMs: 15_000,
  uploadTimeoutMs: 60_000,
  retries: 2,
  retryBaseMs: 250,
  photoTtlSeconds: 3600,
  tryonTtlSeconds: 86_400,
  fileTtlSeconds: 86_400,
  heartbeatMs: 15_000,
  streamMaxMs: 10 * 60_000,
  // A shopper watches one try-on at a time; a few tabs, or shoppers behind one NAT, stay far below.
  streamsPerClient: 20,
  streamsPerInstance: 2000,
  streamsPerTryon: 50,
};

export function resolveLimits(partial: Partial<ProxyLimits> = {}): ProxyLimits {
  const limits = { ...DEFAULT_LIMITS };
  for (const [key, value] of Object.entries(partial) as [keyof ProxyLimits, number | undefined][]) {
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      throw new TypeError(`limit ${key} must be a non-negative number`);
    }
    limits[key] = value;
  }
  return limits;
}
