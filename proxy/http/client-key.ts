// The key a request's client is counted under: its rate limits, its spend cap per client, its
// stream slots and the hashed compliance line. An address is keyed by itself (IPv4) or its /64
// (IPv6); behind Shopify's App Proxy, the shopper it vouches for. Worked out once per request and
// kept on the context (c.set('client')), however many of those ask: a POST /tryons asks three
// times and pays once (and the App Proxy's count of addresses per signature is touched once, too).
// Which address is the client's is client-address.ts.
import { ProxyError } from './errors.js';
import { clientAddress, forwardedByClient, type TrustProxy } from './client-address.js';
import { formatAddress, isMapped, parseAddress } from './ip-bytes.js';
import type { Log } from '../operator/log.js';
import type { ProxyContext } from './request-facts.js';

/** How many connections' client keys are remembered at once. */
const REMEMBERED_CLIENTS = 4096;

/**
 * The key limits are counted under: an IPv4 address itself, an IPv6 address by its /64 (one
 * home or phone network gets a /64 and can pick any address in it).
 */
export function clientKey(address: string): string {
  const bytes = parseAddress(address);
  if (!bytes) return address;
  if (isMapped(bytes)) return formatAddress(bytes);
  const network = new Uint8Array(16);
  network.set(bytes.subarray(0, 8));
  return `${formatAddress(network)}/64`;
}

/**
 * Who a verified request is for, when a proxy in front vouches for its shoppers (Shopify's App
 * Proxy: appProxyClients in middleware/shopify-app-proxy.ts); undefined for a request it did not verify.
 */
export interface VouchedClients {
  clientOf(c: ProxyContext, forwarded: () => string | undefined, sender: string): string | undefined;
}

export interface ClientRule {
  /** The connection's peer address (connection-address on the runtime, or the shop's own reader). */
  peerOf: (c: ProxyContext) => string | undefined;
  trust: TrustProxy;
  /** Behind Shopify's App Proxy, the shopper it forwarded. */
  appProxy?: VouchedClients | undefined;
  mode: 'production' | 'development' | 'test';
  log: Log;
}

/** `(c) => client`: the first call works the client out and keeps it on the context; later calls read it. */
export function clientOfRequest(rule: ClientRule): (c: ProxyContext) => string {
  const identify = identifier(rule);
  return (c) => {
    const known = c.get('client');
    if (known !== undefined) return known;
    const found = identify(c);
    c.set('client', found);
    return found;
  };
}

function identifier({ peerOf, trust, appProxy, mode, log }: ClientRule): (c: ProxyContext) => string {
  let warnedUnknown = false;
  // The same connection asks again and again (keep-alive, a shopper's polls): its key is
  // remembered, so a read parses no address. Bounded: cleared whole when full, then refilled.
  const keys = new Map<string, string>();
  return (c) => {
    const peer = peerOf(c);
    const xff = c.req.header('x-forwarded-for');
    const remembered = peer === undefined ? undefined : xff === undefined ? peer : `${peer}\n${xff}`;
    let sender = remembered === undefined ? undefined : keys.get(remembered);
    if (sender === undefined) {
      const found = clientAddress(peer, xff, trust);
      if (!found) {
        // Never a header the client chooses: without the peer there is no client to key by. In
        // production that is refused; in development every such request shares one allowance.
        if (!warnedUnknown) {
          warnedUnknown = true;
          log({
            level: mode === 'production' ? 'error' : 'warn',
            event: 'client_unknown',
            message: "the connection's address is unknown (serve with @hono/node-server, or pass clientAddress)",
          });
        }
        if (mode === 'production')
          throw new ProxyError(
            500,
            'internal_error',
            'This try-on service cannot tell who is asking; it is not set up correctly.',
          );
        return 'unknown';
      }
      sender = clientKey(found);
      if (keys.size >= REMEMBERED_CLIENTS) keys.clear();
      if (remembered !== undefined) keys.set(remembered, sender);
    }
    if (!appProxy) return sender;
    const forwarded = () => {
      const address = forwardedByClient(peer, xff, trust);
      return address === undefined ? undefined : clientKey(address);
    };
    return appProxy.clientOf(c, forwarded, sender) ?? sender;
  };
}
