// ProxyConfig, what a proxy configuration is (made from the environment by loadConfig in
// config.ts), and what is made of it: createProxy's options (proxyOptionsFrom) and the one safe
// start-up line (describeConfig). Kept apart from config.ts, which is the reading and checking of
// every variable.
import type { ProxyLimits } from '../limits/limits.js';
import type { TrustProxy } from '../http/client-address.js';
import type { PartialPriceTable } from '../money/prices.js';
import type { PartialTypicalSeconds } from '../timings/tryon-times.js';
import type { ProxyOptions } from './proxy-options.js';

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
  /** The Standard Webhooks secret the WooCommerce plugin signs its orders with (TRYON_ORDERS_SECRET): POST /orders on the admin listener. */
  ordersSecret?: string | undefined;
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
  /**
   * The Shopify app's client secret (TRYON_SHOPIFY_APP_SECRET): only App Proxy requests it signed
   * are served, and POST /shopify/webhooks counts only orders and refunds it signed.
   */
  shopifyAppSecret?: string | undefined;
  /** Credits per view and per video by tier (TRYON_PRICES, JSON); over the catalog's and the defaults. */
  prices?: PartialPriceTable | undefined;
  /** What a try-on takes before any is measured (TRYON_TYPICAL_SECONDS, JSON); over the defaults. */
  typicalSeconds?: PartialTypicalSeconds | undefined;
  port: number;
  hostname: string;
  publicUrl?: string | undefined;
  limits: Partial<ProxyLimits>;
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
    config.ordersSecret ? 'orders on (POST /orders on the admin listener, signed)' : undefined,
    config.budgetAlert ? 'budget alerts on' : undefined,
    config.shopifyAppSecret ? 'Shopify App Proxy signature required; Shopify order webhooks verified' : undefined,
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
  | 'typicalSeconds'
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
    ...(config.typicalSeconds ? { typicalSeconds: config.typicalSeconds } : {}),
    ...(config.budgetAlert ? { budgetAlert: config.budgetAlert } : {}),
  };
}
