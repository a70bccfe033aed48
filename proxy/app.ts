// createProxy(options) → a Hono app using only Web-standard APIs (fetch, Web Crypto, streams),
// so the same app runs under Node (node.ts) and on Workers (worker.ts). It keeps the API key,
// fills in each product's garment from the catalog, guards the shop's credits and forwards to /v1.
import { Hono } from 'hono';
import { requestId } from 'hono/request-id';
import { secureHeaders } from 'hono/secure-headers';
import { productFinder, type CatalogFile, type ProductLookup } from './catalog.js';
import { ProxyError, isProxyError } from './errors.js';
import { GarmentFiles, type FileIdCache, type ReadAsset } from './garment-files.js';
import { HandleSigner, hmac, hmacKey, toHex } from './handles.js';
import { resolveLimits, type ProxyLimits } from './limits.js';
import { clientAddress, clientKey, parseTrustProxy, type TrustProxy } from './client-address.js';
import { RateLimiter, TryonBudget } from './budget.js';
import { TryonStatusBoard } from './tryon-status.js';
import { Upstream } from './upstream.js';
import { fileRoutes } from './routes/files.js';
import { photoRoutes } from './routes/photos.js';
import { productRoutes } from './routes/products.js';
import { tryonRoutes } from './routes/tryons.js';
import { webhookRoutes } from './routes/webhooks.js';
import type { Proxy, ProxyContext, ProxyEnv } from './context.js';

export type { CatalogFile, ProductEntry, ProductLookup } from './catalog.js';
export type { ProxyLimits } from './limits.js';
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
  /** Public base URL of the proxy for output URLs; default: taken from each request's path. */
  publicUrl?: string;
}

/** Removes every secret from a log entry, whatever field it hid in. */
function redactingLog(sink: (entry: Record<string, unknown>) => void, secrets: string[]): (entry: Record<string, unknown>) => void {
  const hidden = secrets.filter((s) => s && s.length >= 6);
  return (entry) => {
    const stamped = { time: new Date().toISOString(), ...entry };
    try {
      // Checked on the serialised form so that a secret hidden in any nested field is found;
      // the entry is rebuilt only when one is (rare), not on every request.
      let text = JSON.stringify(stamped);
      if (!hidden.some((secret) => text.includes(secret))) {
        sink(stamped);
        return;
      }
      for (const secret of hidden) text = text.split(secret).join('[redacted]');
      sink(JSON.parse(text) as Record<string, unknown>);
    } catch {
      // A broken log sink must never break a shopper's request.
    }
  };
}

const HANDLE_IN_PATH = /v1\.(photo|tryon|file)\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/g;

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
  const allowAny = options.allowedOrigins.includes('*');
  const allowed = new Set(options.allowedOrigins.filter((o) => o !== '*'));

  const proxy: Proxy = {
    limits,
    upstream,
    handles: new HandleSigner(options.secret, now),
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
    budget: new TryonBudget(limits, now),
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
  app.use(async (c, next) => {
    const started = now();
    await next();
    log({
      event: 'request', requestId: c.get('requestId'), method: c.req.method,
      path: c.req.path.replace(HANDLE_IN_PATH, 'v1.$1.…'), status: c.res.status, ms: now() - started,
    });
  });
  app.use(secureHeaders({
    // Shop pages on other origins must be able to show the rendered images and videos.
    crossOriginResourcePolicy: 'cross-origin',
    crossOriginEmbedderPolicy: false,
    contentSecurityPolicy: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
    referrerPolicy: 'no-referrer',
  }));

  // CORS by exact origin. A cross-origin request from an origin not on the list is refused
  // outright (preflight included); webhooks and health are called by servers, not pages.
  app.use(async (c, next) => {
    const origin = c.req.header('origin');
    const path = c.req.path;
    if (!origin || /\/(webhooks|health)\/?$/.test(path)) return next();
    const host = c.req.header('host');
    const sameOrigin = origin === new URL(c.req.url).origin || (host !== undefined && /^https?:\/\//.test(origin) && new URL(origin).host === host);
    const crossAllowed = allowAny || allowed.has(origin);
    if (!sameOrigin && !crossAllowed) {
      throw new ProxyError(403, 'origin_not_allowed', 'This shop has not allowed try-on from this site.');
    }
    if (crossAllowed && !sameOrigin) {
      if (c.req.method === 'OPTIONS') {
        return new Response(null, {
          status: 204,
          headers: {
            'access-control-allow-origin': origin,
            'access-control-allow-methods': 'GET, POST, OPTIONS',
            'access-control-allow-headers': 'content-type, x-request-id',
            'access-control-max-age': '600',
            vary: 'Origin',
          },
        });
      }
      await next();
      c.res.headers.set('access-control-allow-origin', origin);
      c.res.headers.set('access-control-expose-headers', 'retry-after, x-request-id');
      c.res.headers.append('vary', 'Origin');
      return;
    }
    return next();
  });

  app.route('/products', productRoutes(proxy));
  app.route('/photos', photoRoutes(proxy));
  app.route('/tryons', tryonRoutes(proxy));
  app.route('/files', fileRoutes(proxy));
  app.route('/webhooks', webhookRoutes(proxy));
  app.get('/health', (c) => c.json({ ok: true, upstream: proxy.upstreamLabel }));

  app.notFound(() => new ProxyError(404, 'not_found', 'There is nothing here.').toResponse());
  app.onError((error, c) => {
    if (isProxyError(error)) {
      if (error.status >= 500) log({ level: 'warn', event: 'answered_error', requestId: c.get('requestId'), code: error.code, status: error.status });
      // A refused body may not have been read to its end: do not reuse the connection.
      return error.toResponse({ 'x-request-id': c.get('requestId') ?? '', ...(error.status === 413 ? { connection: 'close' } : {}) });
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
