// Environment → validated proxy configuration (docs/proxy.md, "Configuration"). Refuses an unsafe production
// start with one message listing every problem; the key is never printed, only its kind.
import { z } from 'zod';
import { DEFAULT_LIMITS, type ProxyLimits } from './limits.js';
import { TrustProxyError, parseTrustProxy, type TrustProxy } from './client-address.js';
import { priceTableSchema, type PartialPriceTable } from './prices.js';
import type { ProxyOptions } from './app.js';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`The try-on proxy cannot start:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

export interface ProxyConfig {
  mode: 'production' | 'development' | 'test';
  /** Absent in development only; then whoever starts the proxy must bring a sandbox (demo/ does; node.ts refuses). */
  apiKey?: string | undefined;
  /** true when no key is set (development): a sandbox has to stand in for the service. */
  useSandbox: boolean;
  baseUrl?: string | undefined;
  /** Signs handles; in development a random one is made if absent (handles then die on restart). */
  secret: string;
  secretGenerated: boolean;
  allowedOrigins: string[];
  catalogPath?: string | undefined;
  /** Folder catalog image paths are relative to; default the catalog file's folder. */
  assetsDir?: string | undefined;
  webhookSecret?: string | undefined;
  fileIdCachePath?: string | undefined;
  /** Shared store for several instances (TRYON_REDIS_URL); absent: one process's memory. */
  redisUrl?: string | undefined;
  /**
   * Bearer token of the admin listener's GET /metrics and GET /usage (TRYON_ADMIN_TOKEN, or its
   * old name TRYON_METRICS_TOKEN); absent: no admin listener.
   */
  adminToken?: string | undefined;
  /** Where budget alerts go (TRYON_BUDGET_ALERT_URL, with TRYON_BUDGET_ALERT_SECRET): see budget-alerts.ts. */
  budgetAlert?: { url: string; secret: string } | undefined;
  /** Port of the admin listener (TRYON_ADMIN_PORT): required with a token, never the public port. */
  adminPort?: number | undefined;
  /** Where the admin listener binds (TRYON_ADMIN_HOST): loopback unless the operator says otherwise. */
  adminHostname: string;
  /** Who stands in front of the proxy (TRYON_TRUST_PROXY): see client-address.ts. */
  trustProxy: TrustProxy;
  /** The Shopify app's client secret (TRYON_SHOPIFY_APP_SECRET): only App Proxy requests it signed are served. */
  shopifyAppSecret?: string | undefined;
  /** Credits per view and per video by tier (TRYON_PRICES, JSON); over the catalog's and the defaults. */
  prices?: PartialPriceTable | undefined;
  port: number;
  hostname: string;
  publicUrl?: string | undefined;
  limits: Partial<ProxyLimits>;
}

/** env var → limit name; each a non-negative integer. */
const LIMIT_VARS: Record<string, keyof ProxyLimits> = {
  TRYON_UPLOAD_MAX_BYTES: 'uploadBytes',
  TRYON_RATE_PER_MINUTE: 'ratePerMinute',
  TRYON_READS_PER_MINUTE: 'readsPerMinute',
  TRYON_TRYONS_PER_PHOTO: 'tryonsPerPhoto',
  TRYON_DAILY_TRYONS: 'dailyTryons',
  TRYON_DAILY_CREDITS: 'dailyCredits',
  TRYON_CLIENT_DAILY_TRYONS: 'clientDailyTryons',
  TRYON_UPLOAD_IDLE_MS: 'uploadIdleMs',
  TRYON_UPLOAD_TOTAL_MS: 'uploadTotalMs',
  TRYON_POLL_INTERVAL_MS: 'pollIntervalMs',
  TRYON_PUSHED_POLL_INTERVAL_MS: 'pushedPollIntervalMs',
  TRYON_UPSTREAM_TIMEOUT_MS: 'upstreamTimeoutMs',
  TRYON_MIN_PHOTO_SIDE: 'minPhotoSide',
  // Retention, as the consent step states it (GET /products/{product} answers it): seconds.
  TRYON_PHOTO_TTL_SECONDS: 'photoTtlSeconds',
  TRYON_RESULT_TTL_SECONDS: 'tryonTtlSeconds',
  TRYON_SHARE_LINK_TTL_SECONDS: 'fileTtlSeconds',
  // Open status streams (SSE); 0: no cap.
  TRYON_STREAMS_PER_CLIENT: 'streamsPerClient',
  TRYON_STREAMS_PER_INSTANCE: 'streamsPerInstance',
  TRYON_STREAMS_PER_TRYON: 'streamsPerTryon',
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
  if (apiKey && !baseUrl) problems.push('TRYON_BASE_URL is required with TRYON_API_KEY (the hosted API’s address)');
  if (production && baseUrl?.startsWith('http://') && !/^http:\/\/(127\.0\.0\.1|localhost)(:|\/|$)/.test(baseUrl)) {
    problems.push('TRYON_BASE_URL must use https in production (the key travels with every call)');
  }

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
      const loopback = /^(127\.\d+\.\d+\.\d+|\[::1\]|localhost)$/.test(parsedUrl.hostname);
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
    fileIdCachePath: read('TRYON_FILE_ID_CACHE'),
    redisUrl,
    adminToken,
    adminPort,
    adminHostname: read('TRYON_ADMIN_HOST') ?? '127.0.0.1',
    budgetAlert: alertUrl && alertSecret ? { url: alertUrl, secret: alertSecret } : undefined,
    trustProxy,
    shopifyAppSecret,
    prices,
    port,
    hostname,
    publicUrl,
    limits,
  };
}

/** The kind of a key, never any of its secret part. */
export function describeKey(apiKey: string | undefined): string {
  if (!apiKey) return 'none (sandbox)';
  if (apiKey.startsWith('sk_test_')) return 'test mode (sk_test_…)';
  if (apiKey.startsWith('sk_live_')) return 'live (sk_live_…)';
  return 'live (sk_…)';
}

/** One safe start-up line: mode, upstream, origins, key kind. */
export function describeConfig(config: ProxyConfig): string {
  const upstream = config.useSandbox ? 'the local sandbox (no TRYON_API_KEY set)' : (config.baseUrl ?? '(unset)');
  const origins = config.allowedOrigins.length > 0 ? config.allowedOrigins.join(', ') : 'same origin only';
  const notes = [
    config.secretGenerated
      ? 'handle secret made up for this run (set TRYON_PROXY_SECRET to keep handles across restarts)'
      : undefined,
    config.webhookSecret ? 'webhooks on' : 'webhooks off',
    config.redisUrl ? 'shared store Redis' : 'store in memory (one instance)',
    config.adminToken ? 'admin listener on (GET /metrics, GET /usage; bearer token)' : undefined,
    config.budgetAlert ? 'budget alerts on' : undefined,
    config.shopifyAppSecret ? 'Shopify App Proxy signature required' : undefined,
  ]
    .filter(Boolean)
    .join('; ');
  return `tryon proxy: mode ${config.mode}; upstream ${upstream}; key ${describeKey(config.apiKey)}; origins ${origins}; ${notes}`;
}

/** The createProxy options a configuration decides (everything but the catalog and how to reach it). */
export type ConfiguredOptions = Pick<
  ProxyOptions,
  | 'secret'
  | 'allowedOrigins'
  | 'webhookSecret'
  | 'limits'
  | 'trustProxy'
  | 'publicUrl'
  | 'prices'
  | 'mode'
  | 'shopifyAppProxy'
  | 'budgetAlert'
>;

/** One mapping from configuration to options, for every entry that starts a proxy (Node, Workers, the demo). */
export function proxyOptionsFrom(config: ProxyConfig): ConfiguredOptions {
  return {
    secret: config.secret,
    allowedOrigins: config.allowedOrigins,
    webhookSecret: config.webhookSecret,
    limits: config.limits,
    trustProxy: config.trustProxy,
    publicUrl: config.publicUrl,
    mode: config.mode,
    ...(config.shopifyAppSecret ? { shopifyAppProxy: { secret: config.shopifyAppSecret } } : {}),
    ...(config.prices ? { prices: config.prices } : {}),
    ...(config.budgetAlert ? { budgetAlert: config.budgetAlert } : {}),
  };
}
