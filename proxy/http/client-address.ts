// Who is asking: the shopper's address, as established practice has it behind reverse proxies.
// Only the connection's own peer and the proxies the shop declared are believed. Each trusted
// proxy appends the address it received the request from to X-Forwarded-For, so reading the header
// from the right, the first address that is not a trusted proxy is the client; everything to its
// left was written by the client and is ignored. Web-standard only (Node and Workers). The
// address arithmetic itself is ip-bytes.ts; the key a client is counted under is client-key.ts.
import { formatAddress, inNetwork, parseAddress, parseNetwork, type Network } from './ip-bytes.js';

/**
 * Which peers may speak for the client:
 * - `none`: only the connection's peer counts; X-Forwarded-For is ignored;
 * - `hops`: that many proxies stand in front, whatever their addresses (`true` = 1);
 * - `networks`: proxies are recognised by address or CIDR; any number of them may chain.
 */
export type TrustProxy = { kind: 'none' } | { kind: 'hops'; hops: number } | { kind: 'networks'; networks: Network[] };

export const TRUST_NONE: TrustProxy = { kind: 'none' };

const MAX_HOPS = 16;
/** X-Forwarded-For entries looked at, from the right: a longer chain is the client's padding. */
const MAX_ENTRIES = 64;

/** The names proxy-addr (Express's `trust proxy`) gives to the usual private ranges. */
const NAMED_NETWORKS: Record<string, string[]> = {
  loopback: ['127.0.0.1/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

export class TrustProxyError extends TypeError {
  constructor(text: string) {
    super(
      `TRYON_TRUST_PROXY "${text}" is not true, false, a hop count (0-${MAX_HOPS}) or a comma-separated list of proxy addresses/CIDRs (or loopback, linklocal, uniquelocal)`,
    );
    this.name = 'TrustProxyError';
  }
}

/**
 * Reads the trust setting: `true`/`1` = one hop, `false`/`0`/empty = none, `2` = two hops,
 * `10.0.0.1, 10.1.0.0/16, ::1` = those proxies (`loopback`, `linklocal`, `uniquelocal` name their ranges). Throws TrustProxyError when malformed.
 */
export function parseTrustProxy(value: string | boolean | number | string[] | TrustProxy | undefined): TrustProxy {
  if (value === undefined || value === false) return TRUST_NONE;
  if (value === true) return { kind: 'hops', hops: 1 };
  if (typeof value === 'object' && !Array.isArray(value)) return value;
  if (typeof value === 'number') return hopsOf(value, String(value));
  const entries = (Array.isArray(value) ? value : value.split(',')).map((e) => e.trim()).filter(Boolean);
  const text = Array.isArray(value) ? value.join(',') : value;
  if (entries.length === 0) return TRUST_NONE;
  if (entries.length === 1) {
    const only = entries[0]!.toLowerCase();
    if (only === 'true') return { kind: 'hops', hops: 1 };
    if (only === 'false') return TRUST_NONE;
    if (/^\d+$/.test(only)) return hopsOf(Number(only), text);
  }
  const networks: Network[] = [];
  for (const entry of entries) {
    const named = NAMED_NETWORKS[entry.toLowerCase()];
    if (named) {
      networks.push(...named.map((text) => parseNetwork(text)!));
      continue;
    }
    const network = parseNetwork(entry);
    if (!network) throw new TrustProxyError(text);
    networks.push(network);
  }
  return { kind: 'networks', networks };
}

function hopsOf(hops: number, text: string): TrustProxy {
  if (!Number.isInteger(hops) || hops < 0 || hops > MAX_HOPS) throw new TrustProxyError(text);
  return hops === 0 ? TRUST_NONE : { kind: 'hops', hops };
}

/** Where the walk ended: the client's address, and the X-Forwarded-For entry it wrote, if any. */
interface Walk {
  client: Uint8Array;
  forwarded: Uint8Array | undefined;
}

function walk(peer: string | undefined, forwardedFor: string | null | undefined, trust: TrustProxy): Walk | undefined {
  const peerBytes = peer === undefined ? undefined : parseAddress(peer);
  if (!peerBytes) return undefined;
  const entries = (forwardedFor ?? '').split(',').slice(-MAX_ENTRIES).reverse();
  // hops: the peer is hop 1; each further hop was appended by the one before it.
  const trusted = (bytes: Uint8Array, index: number) =>
    trust.kind === 'none'
      ? false
      : trust.kind === 'hops'
        ? index < trust.hops
        : trust.networks.some((network) => inNetwork(bytes, network));
  let current = peerBytes;
  let index = 0;
  for (; index < entries.length; index++) {
    if (!trusted(current, index)) break;
    const next = parseAddress(entries[index]!);
    if (!next) return { client: current, forwarded: undefined };
    current = next;
  }
  return { client: current, forwarded: index < entries.length ? parseAddress(entries[index]!) : undefined };
}

/**
 * The client's address: the connection's peer unless it is a trusted proxy, then the right-most
 * X-Forwarded-For entry that is not one. An entry that is not an address stops the walk at the
 * last address a trusted proxy vouched for, so junk can never name a bucket. undefined when the
 * peer itself is unknown (then nothing in the request is believed either).
 */
export function clientAddress(
  peer: string | undefined,
  forwardedFor: string | null | undefined,
  trust: TrustProxy,
): string | undefined {
  const found = walk(peer, forwardedFor, trust);
  return found && formatAddress(found.client);
}

/**
 * The address the client itself says it forwarded for: the X-Forwarded-For entry just left of
 * the client. Only worth reading when the client is a proxy the proxy cannot list by address but
 * can recognise otherwise (Shopify's App Proxy, by its signature); undefined when there is none
 * or it is not an address.
 */
export function forwardedByClient(
  peer: string | undefined,
  forwardedFor: string | null | undefined,
  trust: TrustProxy,
): string | undefined {
  const found = walk(peer, forwardedFor, trust);
  return found?.forwarded && formatAddress(found.forwarded);
}

/**
 * The connection's peer as the runtime knows it, the way Hono's conninfo helpers read it: Node's
 * socket (`@hono/node-server` passes `incoming`), Bun's `requestIP`, Deno's `remoteAddr`, and on
 * Workers the `CF-Connecting-IP` Cloudflare sets. Only runtime bindings are read, never a header a
 * client could send, except on Workers, where Cloudflare overwrites that one. Web-standard: no
 * runtime is imported, each is recognised by what it passes.
 */
export function connectionAddress(c: {
  env: unknown;
  req: { raw: Request; header(name: string): string | undefined };
}): string | undefined {
  if (onWorkers()) return c.req.header('cf-connecting-ip');
  const env = c.env as Record<string, unknown> | undefined;
  if (!env || typeof env !== 'object') return undefined;
  const node = (env.incoming ?? (env.server as Record<string, unknown> | undefined)?.incoming) as
    { socket?: { remoteAddress?: string } } | undefined;
  if (node?.socket) return node.socket.remoteAddress;
  const bun = (typeof env.requestIP === 'function' ? env : env.server) as
    { requestIP?: (request: Request) => { address?: string } | null } | undefined;
  if (typeof bun?.requestIP === 'function') return bun.requestIP(c.req.raw)?.address;
  const deno = env.remoteAddr as { hostname?: string } | undefined;
  if (deno && typeof deno.hostname === 'string') return deno.hostname;
  return undefined;
}

function onWorkers(): boolean {
  return (globalThis as { navigator?: { userAgent?: string } }).navigator?.userAgent === 'Cloudflare-Workers';
}

/** The runtime the proxy runs on, when it is one whose connections connectionAddress can read. */
export function knownRuntime(): 'workers' | 'node' | 'bun' | 'deno' | undefined {
  const global = globalThis as { Bun?: unknown; Deno?: unknown; process?: { versions?: { node?: string } } };
  if (onWorkers()) return 'workers';
  if (global.Bun !== undefined) return 'bun';
  if (global.Deno !== undefined) return 'deno';
  if (typeof global.process?.versions?.node === 'string') return 'node';
  return undefined;
}
