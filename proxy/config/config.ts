// Environment → validated proxy configuration (docs/proxy.md, "Configuration"): loadConfig reads
// every TRYON_* variable into a ProxyConfig. Refuses an unsafe production start with one message
// listing every problem; the key is never printed, only its kind. What a configuration holds, and
// what is made of it, is proxy-config.ts (re-exported here, so node.ts, worker.ts and the demo
// import one module); what createProxy takes, proxy-options.ts. The folder sits just below the
// entries: ProxyOptions names the store, the catalog, the metrics and the App Proxy's options, so
// config/ reads nearly every part of the proxy.
import { z } from 'zod';
import { DEFAULT_LIMITS, type ProxyLimits } from '../limits/limits.js';
import { TrustProxyError, parseTrustProxy, type TrustProxy } from '../http/client-address.js';
import { priceTableSchema, type PartialPriceTable } from '../money/prices.js';
import { typicalSecondsSchema, type PartialTypicalSeconds } from '../timings/tryon-times.js';
import { ConfigError, type ProxyConfig } from './proxy-config.js';

export { ConfigError, describeConfig, describeKey, proxyOptionsFrom } from './proxy-config.js';
export type { ConfiguredOptions, ProxyConfig } from './proxy-config.js';

/** env var → limit name; each a non-negative integer. */
const LIMIT_VARS: Record<string, keyof ProxyLimits> = {
  TRYON_UPLOAD_MAX_BYTES: 'uploadBytes',
  TRYON_RATE_PER_MINUTE: 'ratePerMinute',
  TRYON_READS_PER_MINUTE: 'readsPerMinute',
  TRYON_TRYONS_PER_PHOTO: 'tryonsPerPhoto',
  TRYON_OUTFIT_PIECES: 'outfitPieces',
  TRYON_DAILY_TRYONS: 'dailyTryons',
  TRYON_DAILY_CREDITS: 'dailyCredits',
  TRYON_CLIENT_DAILY_TRYONS: 'clientDailyTryons',
  TRYON_UPLOAD_IDLE_MS: 'uploadIdleMs',
  TRYON_UPLOAD_TOTAL_MS: 'uploadTotalMs',
  TRYON_HEADERS_TIMEOUT_MS: 'headersTimeoutMs',
  TRYON_POLL_INTERVAL_MS: 'pollIntervalMs',
  TRYON_PUSHED_POLL_INTERVAL_MS: 'pushedPollIntervalMs',
  TRYON_UPSTREAM_TIMEOUT_MS: 'upstreamTimeoutMs',
  TRYON_UPSTREAM_DOWN_PERCENT: 'upstreamDownPercent',
  TRYON_UPSTREAM_STUCK_PERCENT: 'upstreamStuckPercent',
  TRYON_MIN_PHOTO_SIDE: 'minPhotoSide',
  // Retention, as the consent step states it (GET /products/{product} answers it): seconds.
  TRYON_PHOTO_TTL_SECONDS: 'photoTtlSeconds',
  TRYON_RESULT_TTL_SECONDS: 'tryonTtlSeconds',
  TRYON_SHARE_LINK_TTL_SECONDS: 'fileTtlSeconds',
  // Open status streams (SSE); 0: no cap.
  TRYON_STREAMS_PER_CLIENT: 'streamsPerClient',
  TRYON_STREAMS_PER_INSTANCE: 'streamsPerInstance',
  TRYON_STREAMS_PER_TRYON: 'streamsPerTryon',
  // CPU the check of one result against its garment may take (ms); past it the result is unchecked.
  TRYON_FIDELITY_CPU_MS: 'fidelityCpuMs',
};

/** A photo, a result or a link that expires within a minute could not be used at all. */
const SHORTEST_TTL_SECONDS = 60;
const TTL_LIMITS = new Set<keyof ProxyLimits>(['photoTtlSeconds', 'tryonTtlSeconds', 'fileTtlSeconds']);

const wholeNumber = z
  .string()
  .regex(/^\d{1,15}$/)
  .transform(Number);

const ORIGIN = /^https?:\/\/[^/\s?#]+$/;

const text = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v === '' ? undefined : v));

/** This machine, by the URL's parsed host (so `http://127.0.0.1:x@elsewhere/` is elsewhere). */
function isLoopbackHost(url: URL): boolean {
  return /^(127\.\d+\.\d+\.\d+|\[::1\]|localhost)$/.test(url.hostname);
}

/**
 * The try-on service's address as production needs it. https, since the key travels with every
 * call (http only to this machine, such as the sandbox in a test). And no trailing /v1: the proxy
 * adds /v1/… to every path itself, and an address copied with it (the sandbox's start-up line
 * shows its API under /v1) names the version twice in the operator's configuration.
 */
function productionBaseUrlProblems(url: URL): string[] {
  const problems: string[] = [];
  // The URL is only described by its host and path: a user name or password in it is never printed.
  const path = url.pathname.replace(/\/+$/, '');
  if (url.protocol === 'http:' && !isLoopbackHost(url))
    problems.push(
      `TRYON_BASE_URL must use https in production (the key travels with every call): write https://${url.host}${path}, or use http only to this machine (127.0.0.1, localhost, [::1])`,
    );
  if (/\/v1$/i.test(path))
    problems.push(
      `TRYON_BASE_URL must not end in /v1 (the proxy adds /v1 to every call itself): write TRYON_BASE_URL=${url.protocol}//${url.host}${path.slice(0, -3)} (the service's address without /v1, as the sandbox's URL is)`,
    );
  return problems;
}

/** Which entry reads the configuration: a Worker has no second port, so its admin token needs none. */
export interface LoadOptions {
  entry?: 'node' | 'workers';
}

export function loadConfig(env: Record<string, string | undefined>, options: LoadOptions = {}): ProxyConfig {
  const workers = options.entry === 'workers';
  const problems: string[] = [];
  const read = (name: string) => text.parse(env[name]);
  const nodeEnv = read('NODE_ENV');
  const mode = nodeEnv === 'production' ? 'production' : nodeEnv === 'test' ? 'test' : 'development';
  const production = mode === 'production';

  const apiKey = read('TRYON_API_KEY');
  if (production && !apiKey)
    problems.push('TRYON_API_KEY is required when NODE_ENV=production (the sandbox is for development only)');
  if (apiKey && !/^sk_[A-Za-z0-9_]+$/.test(apiKey)) problems.push('TRYON_API_KEY does not look like an API key (sk_…)');

  const baseUrl = read('TRYON_BASE_URL');
  if (baseUrl && !z.url({ protocol: /^https?$/ }).safeParse(baseUrl).success)
    problems.push(`TRYON_BASE_URL is not an http(s) URL`);
  else if (baseUrl && production) problems.push(...productionBaseUrlProblems(new URL(baseUrl)));
  if (apiKey && !baseUrl) problems.push('TRYON_BASE_URL is required with TRYON_API_KEY (the hosted API’s address)');

  let secret = read('TRYON_PROXY_SECRET');
  let secretGenerated = false;
  if (!secret) {
    if (production) problems.push('TRYON_PROXY_SECRET is required when NODE_ENV=production (it signs every handle)');
    else {
      const bytes = crypto.getRandomValues(new Uint8Array(32));
      secret = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
      secretGenerated = true;
    }
  } else if (secret.length < 32) {
    problems.push('TRYON_PROXY_SECRET must be at least 32 characters');
  }

  const originsText = read('TRYON_ALLOWED_ORIGINS');
  const allowedOrigins = (originsText ?? '')
    .split(',')
    .map((o) => o.trim().replace(/\/$/, ''))
    .filter(Boolean);
  if (production && allowedOrigins.length === 0)
    problems.push(
      'TRYON_ALLOWED_ORIGINS is required when NODE_ENV=production (the shop’s exact origins, comma-separated)',
    );
  if (production && allowedOrigins.includes('*'))
    problems.push('TRYON_ALLOWED_ORIGINS may not be * in production: list the shop’s exact origins');
  for (const origin of allowedOrigins) {
    if (origin !== '*' && !ORIGIN.test(origin))
      problems.push(`TRYON_ALLOWED_ORIGINS: "${origin}" is not an origin (scheme://host[:port], no path)`);
  }

  const redisUrl = read('TRYON_REDIS_URL');
  if (redisUrl && !/^rediss?:\/\/[^\s]+$/.test(redisUrl))
    problems.push('TRYON_REDIS_URL must be a redis:// or rediss:// URL');
  // Every instance must verify the handles the others mint: one secret, set by the operator.
  if (redisUrl && secretGenerated)
    problems.push(
      'TRYON_PROXY_SECRET is required with TRYON_REDIS_URL (every instance must verify the handles the others mint)',
    );

  // The admin listener (GET /metrics, GET /usage) is the operator's: its own port, never the public one.
  const adminTokenName = read('TRYON_ADMIN_TOKEN') !== undefined ? 'TRYON_ADMIN_TOKEN' : 'TRYON_METRICS_TOKEN';
  const adminToken = read(adminTokenName);
  const adminPortText = read('TRYON_ADMIN_PORT');
  const adminPort = adminPortText === undefined ? undefined : Number(adminPortText);
  if (adminToken && adminToken.length < 16) problems.push(`${adminTokenName} must be at least 16 characters`);
  if (adminPortText !== undefined && !(/^\d{1,5}$/.test(adminPortText) && adminPort! <= 65535))
    problems.push(`TRYON_ADMIN_PORT "${adminPortText}" is not a port number`);
  // No default port: two instances on one machine would fight over it, and a port nobody chose is
  // a port nobody firewalls.
  if (workers && adminPortText !== undefined)
    problems.push(
      "TRYON_ADMIN_PORT does not apply on Workers: GET /usage is served at the Worker's own address to TRYON_ADMIN_TOKEN",
    );
  if (!workers && adminToken && adminPortText === undefined)
    problems.push(
      `${adminTokenName} is set but TRYON_ADMIN_PORT is not: /metrics and /usage are served only on the admin port (e.g. TRYON_ADMIN_PORT=9464, bound to 127.0.0.1)`,
    );
  if (!workers && !adminToken && adminPortText !== undefined)
    problems.push(
      'TRYON_ADMIN_PORT is set but TRYON_ADMIN_TOKEN is not: the admin listener answers only to its bearer token (at least 16 characters)',
    );

  const webhookSecret = read('TRYON_WEBHOOK_SECRET');
  if (webhookSecret && !/^whsec_[A-Za-z0-9+/=]{16,}$/.test(webhookSecret))
    problems.push('TRYON_WEBHOOK_SECRET must look like whsec_<base64>');

  // The WooCommerce plugin's orders (POST /orders on the admin listener), signed like the try-on service's webhooks.
  const ordersSecret = read('TRYON_ORDERS_SECRET');
  if (ordersSecret && !/^whsec_[A-Za-z0-9+/=]{16,}$/.test(ordersSecret))
    problems.push(
      'TRYON_ORDERS_SECRET must look like whsec_<base64> (the secret the WooCommerce plugin signs orders with)',
    );
  if (ordersSecret && !adminToken)
    problems.push(
      'TRYON_ORDERS_SECRET is set but TRYON_ADMIN_TOKEN is not: orders are taken only on the admin listener (POST /orders), which needs its bearer token',
    );

  // Budget alerts: checked at start, so a typo is said now rather than on the day the budget runs out.
  const alertUrl = read('TRYON_BUDGET_ALERT_URL');
  const alertSecret = read('TRYON_BUDGET_ALERT_SECRET');
  if (alertUrl !== undefined) {
    let parsedUrl: URL | undefined;
    try {
      parsedUrl = new URL(alertUrl);
    } catch {
      problems.push('TRYON_BUDGET_ALERT_URL is not a URL');
    }
    if (parsedUrl) {
      const loopback = isLoopbackHost(parsedUrl);
      if (parsedUrl.protocol !== 'https:' && !(parsedUrl.protocol === 'http:' && (!production || loopback))) {
        problems.push('TRYON_BUDGET_ALERT_URL must be an https URL (http only to loopback, or outside production)');
      }
      if (parsedUrl.username || parsedUrl.password)
        problems.push(
          'TRYON_BUDGET_ALERT_URL must not hold a user name or password (the alerts are signed with TRYON_BUDGET_ALERT_SECRET)',
        );
    }
    if (!alertSecret)
      problems.push(
        'TRYON_BUDGET_ALERT_URL is set but TRYON_BUDGET_ALERT_SECRET is not: every alert is signed (Standard Webhooks, whsec_<base64>)',
      );
  }
  if (alertSecret !== undefined && !/^whsec_[A-Za-z0-9+/=]{16,}$/.test(alertSecret))
    problems.push('TRYON_BUDGET_ALERT_SECRET must look like whsec_<base64>');
  if (alertSecret !== undefined && alertUrl === undefined)
    problems.push('TRYON_BUDGET_ALERT_SECRET is set but TRYON_BUDGET_ALERT_URL is not');

  const limits: Partial<ProxyLimits> = {};
  for (const [name, limit] of Object.entries(LIMIT_VARS)) {
    const value = read(name);
    if (value === undefined) continue;
    const parsed = wholeNumber.safeParse(value);
    if (!parsed.success) problems.push(`${name} must be a whole number (default ${DEFAULT_LIMITS[limit]})`);
    else if (TTL_LIMITS.has(limit) && parsed.data < SHORTEST_TTL_SECONDS)
      problems.push(`${name} must be at least ${SHORTEST_TTL_SECONDS} seconds (default ${DEFAULT_LIMITS[limit]})`);
    else limits[limit] = parsed.data;
  }

  const portText = read('TRYON_PORT') ?? read('PORT');
  const port = portText === undefined ? 8787 : Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    problems.push(`TRYON_PORT/PORT "${portText}" is not a port number`);
  if (adminPort !== undefined && adminPort !== 0 && adminPort === port)
    problems.push(
      `TRYON_ADMIN_PORT must differ from the public port (${port}): the public port never serves /metrics or /usage`,
    );

  let trustProxy: TrustProxy = { kind: 'none' };
  try {
    trustProxy = parseTrustProxy(read('TRYON_TRUST_PROXY'));
  } catch (error) {
    if (!(error instanceof TrustProxyError)) throw error;
    problems.push(error.message);
  }

  const hostname = read('TRYON_HOST') ?? (production ? '0.0.0.0' : '127.0.0.1');
  // A hop count believes whoever connects: on every interface, a client reaching the port directly
  // is its own "proxy" and writes the address it likes.
  if (production && trustProxy.kind === 'hops' && !/^(127\.\d+\.\d+\.\d+|::1|localhost)$/.test(hostname)) {
    problems.push(
      `TRYON_TRUST_PROXY is a hop count but the proxy listens on ${hostname}: anyone reaching that port directly could choose their address. Set TRYON_HOST=127.0.0.1 (the web server on the same machine), or list the proxies' addresses in TRYON_TRUST_PROXY`,
    );
  }

  const shopifyAppSecret = read('TRYON_SHOPIFY_APP_SECRET');
  if (shopifyAppSecret !== undefined && shopifyAppSecret.length < 16)
    problems.push("TRYON_SHOPIFY_APP_SECRET must be the Shopify app's client secret (at least 16 characters)");

  let prices: PartialPriceTable | undefined;
  const pricesText = read('TRYON_PRICES');
  if (pricesText) {
    let json: unknown;
    try {
      json = JSON.parse(pricesText);
    } catch {
      problems.push('TRYON_PRICES is not JSON (e.g. {"image":{"premium":5},"video":{"draft":4}})');
    }
    if (json !== undefined) {
      const parsed = priceTableSchema.safeParse(json);
      if (parsed.success) prices = parsed.data;
      else
        problems.push(
          `TRYON_PRICES: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(table)'} ${i.message}`).join('; ')} (credits per view by tier under "image", per video under "video")`,
        );
    }
  }

  let typicalSeconds: PartialTypicalSeconds | undefined;
  const typicalText = read('TRYON_TYPICAL_SECONDS');
  if (typicalText) {
    let json: unknown;
    try {
      json = JSON.parse(typicalText);
    } catch {
      problems.push('TRYON_TYPICAL_SECONDS is not JSON (e.g. {"image":{"standard":4.5},"video":{"standard":12}})');
    }
    if (json !== undefined) {
      const parsed = typicalSecondsSchema.safeParse(json);
      if (parsed.success) typicalSeconds = parsed.data;
      else
        problems.push(
          `TRYON_TYPICAL_SECONDS: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(table)'} ${i.message}`).join('; ')} (seconds of a front-view image by tier under "image", of a video under "video")`,
        );
    }
  }

  const publicUrl = read('TRYON_PUBLIC_URL');
  if (publicUrl && !z.url({ protocol: /^https?$/ }).safeParse(publicUrl).success)
    problems.push('TRYON_PUBLIC_URL is not an http(s) URL');

  if (problems.length > 0) throw new ConfigError(problems);
  return {
    mode,
    apiKey,
    useSandbox: !apiKey,
    baseUrl,
    secret: secret!,
    secretGenerated,
    allowedOrigins,
    catalogPath: read('TRYON_CATALOG'),
    assetsDir: read('TRYON_ASSETS_DIR'),
    webhookSecret,
    ordersSecret,
    fileIdCachePath: read('TRYON_FILE_ID_CACHE'),
    redisUrl,
    adminToken,
    adminPort,
    adminHostname: read('TRYON_ADMIN_HOST') ?? '127.0.0.1',
    budgetAlert: alertUrl && alertSecret ? { url: alertUrl, secret: alertSecret } : undefined,
    trustProxy,
    shopifyAppSecret,
    prices,
    typicalSeconds,
    port,
    hostname,
    publicUrl,
    limits,
  };
}
