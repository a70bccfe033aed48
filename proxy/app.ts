// createProxy(options) → a Hono app using only Web-standard APIs (fetch, Web Crypto, streams),
// so the same app runs under Node (node.ts) and on Workers (worker.ts). It keeps the API key,
// fills in each product's garment from the catalog, guards the shop's credits and forwards to /v1.
// This file only wires things: the services every route shares, the cross-cutting middleware
// (middleware/), the routes (routes/) and the one error answer.
import { Hono } from 'hono';
import { requestId } from 'hono/request-id';
import { secureHeaders } from 'hono/secure-headers';
import { catalogPrices, productFinder, type CatalogFile, type ProductLookup } from './catalog.js';
import { ProxyError, isProxyError } from './errors.js';
import { GarmentFiles, type FileIdCache, type ReadAsset } from './garment-files.js';
import { hmac, hmacKey, toHex } from './crypto.js';
import { HandleSigner } from './handles.js';
import { resolveLimits, type ProxyLimits } from './limits.js';
import { PhotoRevocationsInMemory, type PhotoRevocations } from './photo-revocations.js';
import { clientAddress, clientKey, parseTrustProxy, type TrustProxy } from './client-address.js';
import { MemorySpendLedger, type SpendLedger } from './spend-ledger.js';
import { resolvePrices, type PartialPriceTable } from './prices.js';
import { originCheck } from './middleware/origin-check.js';
import { RateLimiter, rateLimit } from './middleware/rate-limit.js';
import { answerUnknownRoutes } from './middleware/unknown-routes.js';
import { redactingLog, requestLog } from './middleware/request-log.js';
import { TryonStatusBoard } from './tryon-status.js';
import { Upstream } from './upstream/client.js';
import { fileRoutes } from './routes/files.js';
import { photoRoutes } from './routes/photos.js';
import { productRoutes } from './routes/products.js';
import { tryonRoutes } from './routes/tryons.js';
import { webhookRoutes } from './routes/webhooks.js';
import type { ProxyServices, ProxyContext, ProxyEnv } from './context.js';

export type { CatalogFile, ProductEntry, ProductLookup } from './catalog.js';
export type { ProxyLimits } from './limits.js';
export type { PhotoRevocations } from './photo-revocations.js';
export { PhotoRevocationsInMemory } from './photo-revocations.js';
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
  fileIdCache?: FileIdCache;
  upstreamLabel?: 'sandbox' | 'live' | 'test';
  now?: () => number;
  /**
   * Who stands in front of the proxy: a hop count (`true` = 1), a list of proxy addresses/CIDRs,
   * or nothing (default: X-Forwarded-For is ignored). See client-address.ts.
   */
  trustProxy?: boolean | number | string | string[] | TrustProxy;
  /** The client's address (node.ts passes the socket address). */
  clientAddress?: (c: ProxyContext) => string | undefined;
  /**
   * Credits per view and per video by tier, over the catalog's `defaults.prices` and the built-in
   * table (the sandbox's prices): what the daily credit budget counts.
   */
  prices?: PartialPriceTable;
  /** Where try-ons are reserved; default one process's memory. A shared store goes here. */
  spendLedger?: SpendLedger;
  /** Public base URL of the proxy for output URLs; default: taken from each request's path. */
  publicUrl?: string;
  /** Where forgotten photos are recorded; default in memory (one process). Share one store between instances. */
  revocations?: PhotoRevocations;
}

export function createProxy(options: ProxyOptions): Hono<ProxyEnv> {
  if (!options.apiKey) throw new TypeError('createProxy: apiKey is required');
  if (!options.baseUrl) throw new TypeError('createProxy: baseUrl is required');
  if (!options.secret) throw new TypeError('createProxy: secret is required');
  const now = options.now ?? Date.now;
  const limits = resolveLimits(options.limits);
  const log = redactingLog(options.log ?? ((entry) => console.log(JSON.stringify(entry))),
    [options.apiKey, options.secret, options.webhookSecret ?? '']);
  const upstream = new Upstream({
    apiKey: options.apiKey, baseUrl: options.baseUrl, fetch: options.fetch, log,
    timeoutMs: limits.upstreamTimeoutMs, uploadTimeoutMs: limits.uploadTimeoutMs, retries: limits.retries, retryBaseMs: limits.retryBaseMs,
  });
  const rootKey = hmacKey(options.secret);
  const derived = (label: string) => rootKey.then(async (key) => hmacKey(await hmac(key, `tryon-proxy/${label}`)));
  const idempotencyRoot = derived('idempotency');
  const clientRoot = derived('client');
  const trust = parseTrustProxy(options.trustProxy);

  const services: ProxyServices = {
    limits,
    upstream,
    handles: new HandleSigner(options.secret, now),
    revocations: options.revocations ?? new PhotoRevocationsInMemory(now),
    findProduct: productFinder(options.catalog),
    garmentFiles: new GarmentFiles(upstream, {
      assetsDir: options.assetsDir, readAsset: options.readAsset, cache: options.fileIdCache, fetch: options.fetch, log,
    }),
    board: new TryonStatusBoard(upstream, {
      intervalMs: limits.pollIntervalMs,
      pushedIntervalMs: options.webhookSecret ? Math.max(limits.pollIntervalMs, limits.pushedPollIntervalMs) : limits.pollIntervalMs,
      now, log,
    }),
    writes: new RateLimiter(limits.ratePerMinute, now),
    reads: new RateLimiter(limits.readsPerMinute, now),
    spend: options.spendLedger ?? new MemorySpendLedger(limits, now),
    prices: resolvePrices(catalogPrices(options.catalog), options.prices),
    log,
    now,
    client: (c) => {
      const found = clientAddress(options.clientAddress?.(c), c.req.header('x-forwarded-for'), trust);
      const address = found ? clientKey(found) : 'unknown';
      // Without an address, clients of one shop origin share a bucket rather than everyone sharing one.
      return address === 'unknown' ? `unknown|${c.req.header('origin') ?? ''}` : address;
    },
    hashClient: async (address) => toHex(await hmac(await clientRoot, address)),
    idempotencyKey: async (parts) => toHex(await hmac(await idempotencyRoot, parts.join('|'))),
    webhookSecret: options.webhookSecret,
    publicUrl: options.publicUrl,
    upstreamLabel: options.upstreamLabel ?? (options.apiKey.startsWith('sk_test_') ? 'test' : 'live'),
  };

  const app = new Hono<ProxyEnv>();
  app.use(requestId({ limitLength: 64 }));
  app.use(requestLog(log, now));
  app.use(secureHeaders({
    // Shop pages on other origins must be able to show the rendered images and videos.
    crossOriginResourcePolicy: 'cross-origin',
    crossOriginEmbedderPolicy: false,
    contentSecurityPolicy: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
    referrerPolicy: 'no-referrer',
  }));

  app.use(originCheck(options.allowedOrigins));

  app.route('/products', productRoutes(services));
  app.route('/photos', photoRoutes(services));
  app.route('/tryons', tryonRoutes(services));
  app.route('/files', fileRoutes(services));
  app.route('/webhooks', webhookRoutes(services));
  app.get('/health', (c) => c.json({ ok: true, upstream: services.upstreamLabel }));
  answerUnknownRoutes(app, rateLimit(services.reads, services.client));

  app.notFound(() => new ProxyError(404, 'not_found', 'There is nothing here.').toResponse());
  app.onError((error, c) => {
    if (isProxyError(error)) {
      if (error.status >= 500) log({ level: 'warn', event: 'answered_error', requestId: c.get('requestId'), code: error.code, status: error.status });
      // A refused (413) or stalled (408) body was not read to its end: do not reuse the connection.
      return error.toResponse({ 'x-request-id': c.get('requestId') ?? '', ...(error.status === 413 || error.status === 408 ? { connection: 'close' } : {}) });
    }
    // Hono's own HTTP errors (e.g. a malformed body) are the client's doing.
    const status = (error as { status?: number }).status;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      return new ProxyError(400, 'invalid_request', 'The request could not be read.').toResponse();
    }
    log({ level: 'error', event: 'internal_error', requestId: c.get('requestId'), name: error.name, message: error.message });
    return new ProxyError(500, 'internal_error', 'Something went wrong on our side; please try again.', true).toResponse();
  });
  return app;
}
