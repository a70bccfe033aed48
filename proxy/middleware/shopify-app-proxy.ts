// Verifies the signature Shopify adds to every request it forwards through an App Proxy
// (https://shopify.dev/docs/apps/build/online-store/display-dynamic-data#calculate-a-digital-signature):
// the query parameters minus `signature`, each as `key=value` (repeated keys' values joined with
// a comma), sorted, concatenated with no separator, HMAC-SHA256 with the app's shared secret, hex.
// Shopify's own parameters (shop, logged_in_customer_id, path_prefix, timestamp, signature) must
// each appear exactly once, so no value of them is ever the shopper's.
//
// Then says who the shopper is (appProxyClients, below), which the signature alone cannot.
//
// Web Crypto only, so the same middleware runs wherever the proxy runs (Node, Workers). Published
// as `tryon-proxy/shopify-app-proxy`.
import type { Context, MiddlewareHandler } from 'hono';
import { constantTimeEqual, hmac, toHex } from '../security/crypto.js';
import { ProxyError } from '../http/errors.js';

export interface AppProxySignatureOptions {
  /** The app's client secret (Shopify Partners → the app → Client credentials). */
  secret: string;
  /**
   * Oldest `timestamp` accepted, in seconds, to limit replays of a captured URL. Shopify stamps
   * every forwarded request, so a few minutes covers clock skew. 0 turns the check off.
   */
  maxAgeSeconds?: number;
  /**
   * Requests that do not come through the App Proxy and must not be checked. Default: the proxy's
   * own webhook routes only, `POST <mount>/webhooks` and `POST <mount>/shopify/webhooks` exactly
   * (the try-on service and Shopify call them directly, and each has its own signature); any other
   * path ending in `/webhooks` is checked.
   */
  exempt?: (c: Context) => boolean;
  /** Clock for the age check, in milliseconds (tests). */
  now?: () => number;
}

/** The message Shopify signs: sorted `key=value` pairs, joined by nothing. */
export function appProxyMessage(params: URLSearchParams): string {
  const grouped = new Map<string, string[]>();
  for (const [key, value] of params) {
    if (key === 'signature') continue;
    const values = grouped.get(key);
    if (values) values.push(value);
    else grouped.set(key, [value]);
  }
  return [...grouped]
    .map(([key, values]) => `${key}=${values.join(',')}`)
    .sort()
    .join('');
}

/** The signature Shopify would put on these parameters. */
export async function signAppProxyParams(params: URLSearchParams, secret: string): Promise<string> {
  return toHex(await hmac(secret, appProxyMessage(params)));
}

/**
 * The parameters Shopify adds to every request it forwards. Each must be there exactly once: a
 * repeated key is signed as its values joined by commas, so a shopper's own
 * `?logged_in_customer_id=…` beside Shopify's would carry a valid signature, and whichever value
 * a reader took first could be the shopper's choice of identity.
 */
export const APP_PROXY_PARAMETERS = ['shop', 'logged_in_customer_id', 'path_prefix', 'timestamp', 'signature'] as const;

export type AppProxyVerdict = 'valid' | 'missing' | 'malformed' | 'mismatch' | 'stale';

export async function checkAppProxySignature(
  params: URLSearchParams,
  options: Pick<AppProxySignatureOptions, 'secret' | 'maxAgeSeconds' | 'now'>,
): Promise<AppProxyVerdict> {
  const given = params.get('signature');
  if (!given) return 'missing';
  for (const name of APP_PROXY_PARAMETERS) if (params.getAll(name).length !== 1) return 'malformed';
  const expected = await signAppProxyParams(params, options.secret);
  if (!constantTimeEqual(given.toLowerCase(), expected)) return 'mismatch';
  const maxAge = options.maxAgeSeconds ?? 300;
  if (maxAge > 0) {
    const stamped = Number(params.get('timestamp'));
    const nowSeconds = (options.now ?? Date.now)() / 1000;
    if (!Number.isFinite(stamped) || Math.abs(nowSeconds - stamped) > maxAge) return 'stale';
  }
  return 'valid';
}

const refusals: Record<Exclude<AppProxyVerdict, 'valid'>, string> = {
  missing: "This request did not come through the shop's App Proxy (no signature).",
  malformed: `The App Proxy parameters ${APP_PROXY_PARAMETERS.join(', ')} must each appear exactly once.`,
  mismatch: 'The App Proxy signature does not match.',
  stale: 'The App Proxy signature has expired; reload the page.',
};

/**
 * The proxy's own webhook routes under wherever this middleware is mounted: `app.use('*', …)` on an
 * app routed at `/tryon` matches as `/tryon/*`, so the routes are `/tryon/webhooks` (the try-on
 * service's) and `/tryon/shopify/webhooks` (Shopify's orders), nothing else.
 */
export function isOwnWebhookRoute(c: Context): boolean {
  const mount = c.req.routePath.replace(/\/?\*$/, '');
  const path = new URL(c.req.url).pathname;
  return c.req.method === 'POST' && (path === `${mount}/webhooks` || path === `${mount}/shopify/webhooks`);
}

/**
 * Hono middleware for the token proxy when it runs behind Shopify's App Proxy. Mount it before the
 * routes: `app.use('*', verifyShopifyAppProxy({ secret }))`. Unsigned, forged or stale requests
 * get 401 in the proxy's error shape and never reach a route.
 */
export function verifyShopifyAppProxy(options: AppProxySignatureOptions): MiddlewareHandler {
  if (!options.secret) throw new Error("verifyShopifyAppProxy needs the app's secret.");
  const exempt = options.exempt ?? isOwnWebhookRoute;
  return async (c, next) => {
    if (exempt(c)) return next();
    const verdict = await checkAppProxySignature(new URL(c.req.url).searchParams, options);
    if (verdict !== 'valid') {
      return new ProxyError(401, 'invalid_signature', refusals[verdict], verdict === 'stale').toResponse();
    }
    return next();
  };
}

// Who the shopper is behind the App Proxy. Shopify forwards every shopper from its own servers,
// so the connection's peer is Shopify, shared by every shopper of the store. Shopify says who it
// forwarded for in two places (https://shopify.dev/docs/apps/build/online-store/app-proxies/authenticate-app-proxies):
// the signed query's `logged_in_customer_id` (empty for a guest) and an `X-Forwarded-For` header
// with the shopper's address, which the signature does not cover. The signature covers the query
// only (not the path, method, body or headers) and stays valid for ±maxAgeSeconds, and without a
// query of the page's own it is the same for every shopper in the same second. So whoever holds a
// captured signed query can send it straight to the proxy's own URL for minutes, with any path and
// any X-Forwarded-For. Therefore:
// - a signed customer id is the client: a replay can only ever be that customer;
// - a guest's forwarded address is believed, but one signature vouches for at most
//   `clientsPerSignature` different addresses (remembered until the signature expires); past
//   that, the request is counted against its sender, the connection's own client (Shopify's
//   server for a real shopper, the replayer for a replay), so a captured query buys at most that
//   many fresh buckets, never one per request.
// The allowance is kept per process (per isolate on Workers): with several instances the bound is
// that many per instance.

export interface AppProxyClientOptions extends Pick<AppProxySignatureOptions, 'secret' | 'maxAgeSeconds' | 'now'> {
  /** Different guest addresses one signature may vouch for (default 16). */
  clientsPerSignature?: number;
}

/** Signatures remembered at most; the oldest are forgotten first (they expire first). */
const REMEMBERED_SIGNATURES = 50_000;

export interface AppProxyClients {
  /** The check: unsigned, forged or stale requests get 401 (the proxy's own webhook route excepted). */
  verify: MiddlewareHandler;
  /**
   * The client of a verified request, given the address Shopify says it forwarded for and the
   * sender (the client the connection rules give); undefined for a request that was not verified.
   */
  clientOf(c: Context, forwarded: () => string | undefined, sender: string): string | undefined;
}

export function appProxyClients(options: AppProxyClientOptions): AppProxyClients {
  const now = options.now ?? Date.now;
  const perSignature = options.clientsPerSignature ?? 16;
  const maxAgeMs = (options.maxAgeSeconds ?? 300) * 1000;
  if (!(maxAgeMs > 0))
    throw new TypeError(
      'appProxyClients: maxAgeSeconds must be above 0: a signature that never expires could be replayed forever',
    );
  const verified = new WeakMap<Request, URLSearchParams>();
  /** signature → the guest addresses it has vouched for, until it can no longer be used. */
  const vouched = new Map<string, { until: number; clients: Set<string> }>();
  const check = verifyShopifyAppProxy(options);

  const verify: MiddlewareHandler = (c, next) =>
    check(c, async () => {
      verified.set(c.req.raw, new URL(c.req.url).searchParams);
      await next();
    });

  function vouches(signature: string, stamped: number, client: string): boolean {
    const at = now();
    for (const [key, entry] of vouched) {
      if (entry.until > at && vouched.size <= REMEMBERED_SIGNATURES) break;
      vouched.delete(key);
    }
    let entry = vouched.get(signature);
    if (!entry) {
      // Remembered for as long as the age check lets the signature through.
      entry = { until: stamped * 1000 + maxAgeMs, clients: new Set() };
      vouched.set(signature, entry);
    }
    if (entry.clients.has(client)) return true;
    if (entry.clients.size >= perSignature) return false;
    entry.clients.add(client);
    return true;
  }

  return {
    verify,
    clientOf(c, forwarded, sender) {
      const params = verified.get(c.req.raw);
      if (!params) return undefined;
      const shop = params.get('shop') ?? '';
      const customer = params.get('logged_in_customer_id');
      if (customer) return `shopify-customer:${shop}:${customer}`;
      const address = forwarded();
      if (address === undefined) return sender;
      const signature = params.get('signature')!.toLowerCase();
      return vouches(signature, Number(params.get('timestamp')), address) ? address : sender;
    },
  };
}
