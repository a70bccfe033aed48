// Verifies the signature Shopify adds to every request it forwards through an App Proxy
// (https://shopify.dev/docs/apps/build/online-store/display-dynamic-data#calculate-a-digital-signature):
// the query parameters minus `signature`, each as `key=value` (repeated keys' values joined with
// a comma), sorted, concatenated with no separator, HMAC-SHA256 with the app's shared secret, hex.
//
// Web Crypto only, so the same middleware runs wherever the proxy runs (Node, Workers). Published
// as `tryon-button/proxy/shopify-app-proxy`.
import type { Context, MiddlewareHandler } from 'hono';
import { constantTimeEqual, hmac, toHex } from '../crypto.js';
import { ProxyError } from '../errors.js';

export interface AppProxySignatureOptions {
  /** The app's client secret (Shopify Partners → the app → Client credentials). */
  secret: string;
  /**
   * Oldest `timestamp` accepted, in seconds, to limit replays of a captured URL. Shopify stamps
   * every forwarded request, so a few minutes covers clock skew. 0 turns the check off.
   */
  maxAgeSeconds?: number;
  /**
   * Requests that do not come through the App Proxy and must not be checked. Default: the
   * upstream service's webhooks (`…/webhooks`), which are verified by their own signature.
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
  return [...grouped].map(([key, values]) => `${key}=${values.join(',')}`).sort().join('');
}

/** The signature Shopify would put on these parameters. */
export async function signAppProxyParams(params: URLSearchParams, secret: string): Promise<string> {
  return toHex(await hmac(secret, appProxyMessage(params)));
}

export type AppProxyVerdict = 'valid' | 'missing' | 'mismatch' | 'stale';

export async function checkAppProxySignature(
  params: URLSearchParams,
  options: Pick<AppProxySignatureOptions, 'secret' | 'maxAgeSeconds' | 'now'>,
): Promise<AppProxyVerdict> {
  const given = params.get('signature');
  if (!given || params.getAll('signature').length !== 1) return 'missing';
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
  missing: 'This request did not come through the shop\'s App Proxy (no signature).',
  mismatch: 'The App Proxy signature does not match.',
  stale: 'The App Proxy signature has expired; reload the page.',
};

/**
 * Hono middleware for the token proxy when it runs behind Shopify's App Proxy. Mount it before the
 * routes: `app.use('*', verifyShopifyAppProxy({ secret }))`. Unsigned, forged or stale requests
 * get 401 in the proxy's error shape and never reach a route.
 */
export function verifyShopifyAppProxy(options: AppProxySignatureOptions): MiddlewareHandler {
  if (!options.secret) throw new Error('verifyShopifyAppProxy needs the app\'s secret.');
  const exempt = options.exempt ?? ((c: Context) => /\/webhooks\/?$/.test(new URL(c.req.url).pathname));
  return async (c, next) => {
    if (exempt(c)) return next();
    const verdict = await checkAppProxySignature(new URL(c.req.url).searchParams, options);
    if (verdict !== 'valid') {
      return new ProxyError(401, 'invalid_signature', refusals[verdict], verdict === 'stale').toResponse();
    }
    return next();
  };
}
