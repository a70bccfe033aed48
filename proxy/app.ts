// createProxy(options) → a Hono app using only Web-standard APIs (fetch, Web Crypto, streams),
// so the same app runs under Node (node.ts) and on Workers (worker.ts). It keeps the API key,
// fills in each product's garment from the catalog, guards the shop's credits and forwards to /v1.
// This file only wires things: the services every route shares, the cross-cutting middleware
// (middleware/), the routes (routes/) and the one error answer.
import { Hono } from 'hono';
import {
  catalogImages,
  catalogPrices,
  parseCatalog,
  productFinder,
  type CatalogFile,
  type ProductLookup,
} from './catalog.js';
import { ProxyError, answerInternalError, isProxyError } from './errors.js';
import { GarmentFiles, type FileIdCache, type ReadAsset } from './garment-files.js';
import { hmac, hmacKey, toHex } from './crypto.js';
import { HandleSigner } from './handles.js';
import { resolveLimits, type ProxyLimits } from './limits.js';
import { connectionAddress, knownRuntime, parseTrustProxy, type TrustProxy } from './client-address.js';
import { clientOfRequest } from './request-client.js';
import { resolvePrices, type PartialPriceTable } from './prices.js';
import { originCheck } from './middleware/origin-check.js';
import { appProxyClients, type AppProxyClientOptions } from './middleware/shopify-app-proxy.js';
import { rateLimit } from './middleware/rate-limit.js';
import { answerUnknownRoutes } from './middleware/unknown-routes.js';
import { redactingLog } from './middleware/request-log.js';
import { answerHeaders } from './middleware/answer-headers.js';
import { TryonStatusBoard } from './tryon-status.js';
import { BudgetAlerts, type BudgetAlertOptions } from './budget-alerts.js';
import { MemoryStore } from './store/memory.js';
import { noMetrics, type ProxyMetrics } from './metrics.js';
import type { ProxyStore } from './store/store.js';
import { Upstream } from './upstream/client.js';
import { fileRoutes } from './routes/files.js';
import { handoffRoutes } from './routes/handoffs.js';
import { photoRoutes } from './routes/photos.js';
import { productRoutes } from './routes/products.js';
import { tryonRoutes } from './routes/tryons.js';
import { webhookRoutes } from './routes/webhooks.js';
import type { ProxyServices } from './context.js';
import type { ProxyContext, ProxyEnv } from './request-facts.js';

export type { CatalogFile, CatalogVariant, ProductEntry, ProductLookup } from './catalog.js';
export type { ProxyLimits } from './limits.js';
export type { PhotoRevocations } from './photo-revocations.js';
export { DEFAULT_LIMITS } from './limits.js';

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
  /** `production` refuses what cannot be made safe (default: NODE_ENV where there is one, else production). */
  mode?: 'production' | 'development' | 'test';
  /**
   * Credits per view and per video by tier, over the catalog's `defaults.prices` and the built-in
   * table (the sandbox's prices): what the daily credit budget counts.
   */
  prices?: PartialPriceTable;
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
function checkCatalogImagesReadable(options: ProxyOptions): void {
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

/** The routes a shop's pages call (and so behind the origin check); the others are called by servers. */
const SHOPPER_ROUTES = ['/products', '/photos', '/tryons', '/files', '/handoffs'] as const;

export function createProxy(options: ProxyOptions): Hono<ProxyEnv> {
  if (!options.apiKey) throw new TypeError('createProxy: apiKey is required');
  if (!options.baseUrl) throw new TypeError('createProxy: baseUrl is required');
  if (!options.secret) throw new TypeError('createProxy: secret is required');
  checkCatalogImagesReadable(options);
  const now = options.now ?? Date.now;
  const limits = resolveLimits(options.limits);
  const log = redactingLog(options.log ?? ((entry) => console.log(JSON.stringify(entry))), [
    options.apiKey,
    options.secret,
    options.webhookSecret ?? '',
    options.budgetAlert?.secret ?? '',
  ]);
  const store = options.store ?? new MemoryStore({ now, fileIdCache: options.fileIdCache, log });
  const metrics = options.metrics ?? noMetrics;
  const upstream = new Upstream({
    apiKey: options.apiKey,
    baseUrl: options.baseUrl,
    fetch: options.fetch,
    log,
    observe: metrics.upstreamCall,
    timeoutMs: limits.upstreamTimeoutMs,
    uploadTimeoutMs: limits.uploadTimeoutMs,
    retries: limits.retries,
    retryBaseMs: limits.retryBaseMs,
  });
  const rootKey = hmacKey(options.secret);
  const derived = (label: string) => rootKey.then(async (key) => hmacKey(await hmac(key, `tryon-proxy/${label}`)));
  const idempotencyRoot = derived('idempotency');
  const clientRoot = derived('client');
  const trust = parseTrustProxy(options.trustProxy);
  const mode = options.mode ?? environmentMode();
  const peerOf = options.clientAddress ?? connectionAddress;
  if (!options.clientAddress && !knownRuntime() && mode === 'production') {
    throw new TypeError(
      "createProxy: cannot tell who the client is on this runtime: pass clientAddress (the connection's peer address), or every shopper would share one allowance",
    );
  }
  const appProxy = options.shopifyAppProxy ? appProxyClients(options.shopifyAppProxy) : undefined;
  const client = clientOfRequest({ peerOf, trust, appProxy, mode, log });

  const usage = store.usageBook(now);
  const spend = store.spendLedger(limits, now);
  const services: ProxyServices = {
    limits,
    upstream,
    handles: new HandleSigner(options.secret, now),
    revocations: store.photoRevocations(now),
    findProduct: productFinder(options.catalog),
    garmentFiles: new GarmentFiles(upstream, store, {
      assetsDir: options.assetsDir,
      readAsset: options.readAsset,
      fetch: options.fetch,
      uploadTimeoutMs: limits.uploadTimeoutMs,
      log,
    }),
    board: new TryonStatusBoard(upstream, {
      intervalMs: limits.pollIntervalMs,
      pushedIntervalMs: options.webhookSecret
        ? Math.max(limits.pollIntervalMs, limits.pushedPollIntervalMs)
        : limits.pollIntervalMs,
      now,
      log,
      store,
      metrics,
      usage,
      keepMs: limits.tryonTtlSeconds * 1000,
    }),
    writes: { store, bucket: 'writes', perMinute: limits.ratePerMinute },
    reads: { store, bucket: 'reads', perMinute: limits.readsPerMinute },
    store,
    metrics,
    spend,
    usage,
    alerts: options.budgetAlert
      ? new BudgetAlerts({
          ...options.budgetAlert,
          ledger: spend,
          book: usage,
          limits,
          log,
          now,
          ...(options.fetch ? { fetch: options.fetch } : {}),
        })
      : undefined,
    background: (c, work, event) => {
      const logged = work.catch((error: Error) =>
        log({ level: 'warn', event, requestId: c.get('requestId'), message: error.message }),
      );
      // Hono's executionCtx throws where the runtime gives none (Node): the promise simply runs on there.
      try {
        c.executionCtx.waitUntil(logged);
      } catch {
        // not on Workers
      }
    },
    prices: resolvePrices(catalogPrices(options.catalog), options.prices),
    log,
    now,
    client,
    hashClient: async (address) => toHex(await hmac(await clientRoot, address)),
    idempotencyKey: async (parts) => toHex(await hmac(await idempotencyRoot, parts.join('|'))),
    webhookSecret: options.webhookSecret,
    publicUrl: options.publicUrl,
    upstreamLabel: options.upstreamLabel ?? (options.apiKey.startsWith('sk_test_') ? 'test' : 'live'),
  };

  const app = new Hono<ProxyEnv>();
  // Request id, the security headers (prepared once) and the log line: one middleware (issue 27).
  app.use(answerHeaders(log, now));

  if (appProxy) app.use(appProxy.verify);
  // Pages call the shopper's routes, so those check the page's origin; /webhooks and /health are
  // called by servers, and are not mounted behind it.
  const pagesOnly = originCheck(options.allowedOrigins);
  for (const path of SHOPPER_ROUTES) app.use(`${path}/*`, pagesOnly);

  app.route('/products', productRoutes(services));
  app.route('/photos', photoRoutes(services));
  app.route('/tryons', tryonRoutes(services));
  app.route('/files', fileRoutes(services));
  app.route('/handoffs', handoffRoutes(services));
  app.route('/webhooks', webhookRoutes(services));
  app.get('/health', async (c) => {
    // A store that does not answer stops every spend: the balancer should send shoppers elsewhere.
    const storeUp = await store.healthy().catch(() => false);
    // One process's memory cannot be down, and its answer stays what it always was.
    const storeState = store.kind === 'memory' ? {} : { store: storeUp ? 'up' : 'down' };
    return c.json({ ok: storeUp, upstream: services.upstreamLabel, ...storeState }, storeUp ? 200 : 503);
  });
  answerUnknownRoutes(app, rateLimit(services.reads, services.client), pagesOnly);

  app.notFound(() => new ProxyError(404, 'not_found', 'There is nothing here.').toResponse());
  app.onError(async (error, c) => {
    if (isProxyError(error)) {
      // Counted for the merchant's GET /usage (errors by code); a store that is down cannot count its own failure.
      if (error.code !== 'store_unavailable') {
        await usage
          .errorAnswered(error.code)
          .catch((problem: Error) =>
            log({ level: 'warn', event: 'usage_unwritten', code: error.code, message: problem.message }),
          );
      }
      if (error.status >= 500)
        log({
          level: 'warn',
          event: 'answered_error',
          requestId: c.get('requestId'),
          code: error.code,
          status: error.status,
        });
      // A refused (413) or stalled (408) body was not read to its end: do not reuse the connection.
      return error.toResponse({
        'x-request-id': c.get('requestId') ?? '',
        ...(error.status === 413 || error.status === 408 ? { connection: 'close' } : {}),
      });
    }
    // Hono's own HTTP errors (e.g. a malformed body) are the client's doing.
    const status = (error as { status?: number }).status;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      await usage
        .errorAnswered('invalid_request')
        .catch((problem: Error) =>
          log({ level: 'warn', event: 'usage_unwritten', code: 'invalid_request', message: problem.message }),
        );
      return new ProxyError(400, 'invalid_request', 'The request could not be read.').toResponse();
    }
    return answerInternalError(error, c.get('requestId'), log);
  });
  return app;
}

/** NODE_ENV as config.ts reads it (unset: development); a runtime without an environment (Workers) is production. */
function environmentMode(): 'production' | 'development' | 'test' {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  if (!env) return 'production';
  const nodeEnv = env.NODE_ENV;
  return nodeEnv === 'production' ? 'production' : nodeEnv === 'test' ? 'test' : 'development';
}
