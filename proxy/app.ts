// createProxy(options) → a Hono app using only Web-standard APIs (fetch, Web Crypto, streams),
// so the same app runs under Node (node.ts) and on Workers (worker.ts). It keeps the API key,
// fills in each product's garment from the catalog, guards the shop's credits and forwards to /v1.
// This file only wires things: the services every route shares, the cross-cutting middleware
// (middleware/), the routes (routes/) and the one error answer.
import { Hono } from 'hono';
import { catalogPrices, productFinder } from './catalog/catalog.js';
import { ProxyError, answerInternalError, isProxyError } from './http/errors.js';
import { GarmentFiles } from './catalog/garment-files.js';
import { hmac, hmacKey, toHex } from './security/crypto.js';
import { HandleSigner } from './security/handles.js';
import { resolveLimits } from './limits/limits.js';
import { connectionAddress, knownRuntime, parseTrustProxy } from './http/client-address.js';
import { clientOfRequest } from './http/client-key.js';
import { resolvePrices } from './money/prices.js';
import { TryonTimes, typicalSecondsSchema } from './timings/tryon-times.js';
import { originCheck } from './middleware/origin-check.js';
import { appProxyClients } from './middleware/shopify-app-proxy.js';
import { rateLimit } from './limits/rate-limit.js';
import { answerUnknownRoutes } from './middleware/unknown-routes.js';
import { redactingLog } from './middleware/request-log.js';
import { everyAnswer } from './middleware/every-answer.js';
import { TryonStatusBoard } from './tryons/status-board.js';
import { ResultChecks } from './results/result-check.js';
import { BudgetAlerts } from './money/budget-alerts.js';
import { MemoryStore } from './store/memory.js';
import { noMetrics } from './operator/metrics.js';
import { Upstream } from './upstream/client.js';
import { fileRoutes } from './routes/files.js';
import { handoffRoutes } from './routes/handoffs.js';
import { photoRoutes } from './routes/photos.js';
import { productRoutes } from './routes/products.js';
import { tryonRoutes } from './routes/tryons.js';
import { webhookRoutes } from './routes/webhooks.js';
import { shopifyWebhookRoutes } from './routes/shopify-webhooks.js';
import { exposureRoutes } from './routes/exposures.js';
import { OrderIntake } from './orders/orders-in.js';
import type { ProxyServices } from './routes/services.js';
import type { ProxyEnv } from './http/request-facts.js';

export type { CatalogFile, CatalogJson, CatalogVariant, ProductEntry, ProductLookup } from './catalog/catalog.js';
export { CatalogError, defineCatalog } from './catalog/catalog.js';
export type { ProxyLimits } from './limits/limits.js';
export type { PhotoRevocations } from './photos/revocations.js';
export { DEFAULT_LIMITS } from './limits/limits.js';

import { checkCatalogImagesReadable, environmentMode, type ProxyOptions } from './config/proxy-options.js';

export type { ProxyOptions };

/** The routes a shop's pages call (and so behind the origin check); the others are called by servers. */
const SHOPPER_ROUTES = ['/products', '/photos', '/tryons', '/files', '/handoffs', '/exposures'] as const;

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
    options.shopifyAppSecret ?? '',
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
  const typical = typicalSecondsSchema.safeParse(options.typicalSeconds ?? {});
  if (!typical.success)
    throw new TypeError(
      `createProxy: typicalSeconds: ${typical.error.issues.map((i) => `${i.path.join('.') || '(table)'} ${i.message}`).join('; ')}`,
    );
  const times = new TryonTimes(store, { typicalSeconds: typical.data, log });
  const revocations = store.photoRevocations(now);
  const findProduct = productFinder(options.catalog);
  const garmentFiles = new GarmentFiles(upstream, store, {
    assetsDir: options.assetsDir,
    readAsset: options.readAsset,
    fetch: options.fetch,
    uploadTimeoutMs: limits.uploadTimeoutMs,
    catalogImageBytes: limits.catalogImageBytes,
    catalogImageTimeoutMs: limits.catalogImageTimeoutMs,
    log,
  });
  const prices = resolvePrices(catalogPrices(options.catalog), options.prices);
  const idempotencyKey = async (parts: string[]) => toHex(await hmac(await idempotencyRoot, parts.join('|')));
  const services: ProxyServices = {
    limits,
    upstream,
    handles: new HandleSigner(options.secret, now),
    revocations,
    findProduct,
    garmentFiles,
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
      downPercent: limits.upstreamDownPercent,
      stuckPercent: limits.upstreamStuckPercent,
      times,
      // Each result checked against its garment before it is written as succeeded (results/).
      results: new ResultChecks({
        upstream,
        garmentFiles,
        findProduct,
        spend,
        usage,
        revocations,
        prices,
        idempotencyKey,
        limits,
        log,
        now,
        metrics,
      }),
    }),
    times,
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
    prices,
    log,
    now,
    client,
    hashClient: async (address) => toHex(await hmac(await clientRoot, address)),
    idempotencyKey,
    webhookSecret: options.webhookSecret,
    orders: new OrderIntake(store.orderBook(now), options.secret, now),
    shopifyAppSecret: options.shopifyAppSecret ?? options.shopifyAppProxy?.secret,
    publicUrl: options.publicUrl,
    upstreamLabel: options.upstreamLabel ?? (options.apiKey.startsWith('sk_test_') ? 'test' : 'live'),
  };

  const app = new Hono<ProxyEnv>();
  // Request id, the security headers (prepared once) and the log line: one middleware.
  app.use(everyAnswer(log, now));

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
  app.route('/shopify', shopifyWebhookRoutes(services));
  app.route('/exposures', exposureRoutes(services));
  // Its two possible answers, serialised once: a balancer asks many times a second.
  const healthText = (storeUp: boolean) =>
    JSON.stringify({
      ok: storeUp,
      upstream: services.upstreamLabel,
      // One process's memory cannot be down: its answer names no store.
      ...(store.kind === 'memory' ? {} : { store: storeUp ? 'up' : 'down' }),
    });
  const health = { up: healthText(true), down: healthText(false) };
  app.get('/health', async () => {
    // A store that does not answer stops every spend: the balancer should send shoppers elsewhere.
    const storeUp = await store.healthy().catch(() => false);
    return new Response(storeUp ? health.up : health.down, {
      status: storeUp ? 200 : 503,
      headers: { 'content-type': 'application/json' },
    });
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
