// What createProxy (app.ts) is given, and the checks of it made once at creation: everything a
// shop, node.ts, worker.ts or config.ts can set. Kept apart from app.ts, which wires what they make.
import { catalogImages, parseCatalog, type CatalogFile, type ProductLookup } from '../catalog/catalog.js';
import type { ReadAsset } from '../catalog/garment-files.js';
import type { FileIdCache } from '../catalog/garment-ids.js';
import type { ProxyLimits } from '../limits/limits.js';
import type { TrustProxy } from '../http/client-address.js';
import type { PartialPriceTable } from '../money/prices.js';
import type { PartialTypicalSeconds } from '../timings/tryon-times.js';
import type { AppProxyClientOptions } from '../middleware/shopify-app-proxy.js';
import type { BudgetAlertOptions } from '../money/budget-alerts.js';
import type { ProxyMetrics } from '../operator/metrics.js';
import type { ProxyStore } from '../store/store.js';
import type { ProxyContext } from '../http/request-facts.js';

export interface ProxyOptions {
  /** Upstream API key; never logged, never answered. */
  apiKey: string;
  /** Upstream origin, e.g. the sandbox URL (no /v1 suffix). */
  baseUrl: string;
  /** Signs handles and salts hashes. */
  secret: string;
  /** Exact origins allowed cross-origin; [] = same-origin only; ['*'] = any (refused in production by config). */
  allowedOrigins: string[];
  catalog: CatalogFile | ProductLookup;
  /** Base directory of catalog image paths. */
  assetsDir?: string;
  readAsset?: ReadAsset;
  webhookSecret?: string;
  limits?: Partial<ProxyLimits>;
  log?: (entry: Record<string, unknown>) => void;
  fetch?: typeof fetch;
  /** Where the memory store keeps garment file ids across restarts (ignored with `store`). */
  fileIdCache?: FileIdCache;
  /**
   * What instances must agree on (rate limits, budgets, try-on status, webhook ids, garment ids):
   * default one process's memory; node.ts passes the Redis store when TRYON_REDIS_URL is set.
   */
  store?: ProxyStore;
  /** Counters for the operator (node.ts: prom-client behind GET /metrics); default none. */
  metrics?: ProxyMetrics;
  upstreamLabel?: 'sandbox' | 'live' | 'test';
  now?: () => number;
  /**
   * Who stands in front of the proxy: a hop count (`true` = 1), a list of proxy addresses/CIDRs,
   * or nothing (default: X-Forwarded-For is ignored). See client-address.ts.
   */
  trustProxy?: boolean | number | string | string[] | TrustProxy;
  /**
   * The connection's peer address. Default: what the runtime's server passes (Node's socket through
   * `@hono/node-server`, Bun, Deno; `CF-Connecting-IP` on Workers), as Hono's `getConnInfo` reads it.
   * Give it when serving the app some other way; outside development, a runtime the proxy cannot
   * read the peer from refuses to start without it.
   */
  clientAddress?: (c: ProxyContext) => string | undefined;
  /**
   * Behind Shopify's App Proxy: every request must carry Shopify's signature (the proxy's own
   * `POST /webhooks` excepted), and the client is the shopper Shopify forwarded (see
   * middleware/shopify-app-proxy.ts). TRYON_SHOPIFY_APP_SECRET in the environment.
   */
  shopifyAppProxy?: AppProxyClientOptions;
  /**
   * The Shopify app's client secret, which signs its webhooks: POST /shopify/webhooks counts
   * `orders/create` and `refunds/create` for the lift report (default: the App Proxy's secret).
   * TRYON_SHOPIFY_APP_SECRET in the environment.
   */
  shopifyAppSecret?: string;
  /** `production` refuses what cannot be made safe (default: NODE_ENV where there is one, else production). */
  mode?: 'production' | 'development' | 'test';
  /**
   * Credits per view and per video by tier, over the catalog's `defaults.prices` and the built-in
   * table (the sandbox's prices): what the daily credit budget counts.
   */
  prices?: PartialPriceTable;
  /**
   * What a try-on takes on this upstream before the proxy has measured enough of its own (seconds
   * of a front-view image and of a video, by tier), over the defaults (timings/tryon-times.ts).
   * For a sandbox, its medians times its SANDBOX_SPEED (the demo sets it so). TRYON_TYPICAL_SECONDS.
   */
  typicalSeconds?: PartialTypicalSeconds;
  /** Public base URL of the proxy for output URLs; default: taken from each request's path. */
  publicUrl?: string;
  /** One signed POST at 80 % and at 100 % of a day's budget (TRYON_BUDGET_ALERT_URL and _SECRET); default none. */
  budgetAlert?: BudgetAlertOptions;
}

/**
 * A catalog file whose images are paths (not http(s) URLs) is read with `readAsset`: without it the
 * first try-on would answer 500. Said at creation, naming what is missing, so a recipe that forgets
 * it fails where it is written. (A catalog given as a function is only known per request; its images
 * are checked when first read, and logged as `catalog_image_unreadable`.)
 */
export function checkCatalogImagesReadable(options: ProxyOptions): void {
  if (typeof options.catalog === 'function' || options.readAsset) return;
  const paths = catalogImages(parseCatalog(options.catalog)).filter((image) => !/^https?:\/\//.test(image.path));
  if (paths.length === 0) return;
  const first = paths[0]!;
  const owner = `product "${first.product}"${first.variant ? ` variant "${first.variant}"` : ''}`;
  throw new TypeError(
    `createProxy: the catalog lists garment images by path (${owner}: ${first.field} "${first.path}"${paths.length > 1 ? ` and ${paths.length - 1} more` : ''}) ` +
      `but no readAsset was given${options.assetsDir ? ` (assetsDir "${options.assetsDir}" only says where they are)` : ' (nor assetsDir)'}: ` +
      'pass readAsset (e.g. (path) => readFile(path) on Node, with assetsDir the folder they are in), use startProxy() from tryon-proxy/node, ' +
      'or give the images as https:// URLs.',
  );
}

/** NODE_ENV as config.ts reads it (unset: development); a runtime without an environment (Workers) is production. */
export function environmentMode(): 'production' | 'development' | 'test' {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  if (!env) return 'production';
  const nodeEnv = env.NODE_ENV;
  return nodeEnv === 'production' ? 'production' : nodeEnv === 'test' ? 'test' : 'development';
}
