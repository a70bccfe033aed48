// Who is asking: the shopper's address, as established practice has it behind reverse proxies.
// Only the connection's own peer and the proxies the shop declared are believed. Each trusted
// proxy appends the address it received the request from to X-Forwarded-For, so reading the header
// from the right, the first address that is not a trusted proxy is the client; everything to its
// left was written by the client and is ignored. Web-standard only (Node and Workers).

/** An address range: IPv4 addresses are kept as IPv4-mapped IPv6, so one comparison serves both. */
export interface Network {
  bytes: Uint8Array;
  prefix: number;
}

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

/** IPv4 dotted quad → 4 bytes, or undefined when malformed (no leading zeros, each part ≤ 255). */
function parseIPv4(text: string): Uint8Array | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  const bytes = new Uint8Array(4);
  for (let i = 0; i < 4; i++) {
    const part = parts[i]!;
    if (!/^(0|[1-9]\d{0,2})$/.test(part)) return undefined;
    const value = Number(part);
    if (value > 255) return undefined;
    bytes[i] = value;
  }
  return bytes;
}

/** IPv6 text (with `::`, an embedded IPv4 tail, no zone) → 16 bytes, or undefined. */
function parseIPv6(text: string): Uint8Array | undefined {
  if (text.length > 45 || !/^[0-9A-Fa-f:.]+$/.test(text)) return undefined;
  let groups: number[];
  let tail = text;
  const lastColon = text.lastIndexOf(':');
  const v4 = text.includes('.') ? parseIPv4(text.slice(lastColon + 1)) : undefined;
  if (text.includes('.')) {
    if (!v4) return undefined;
    tail = `${text.slice(0, lastColon + 1)}${((v4[0]! << 8) | v4[1]!).toString(16)}:${((v4[2]! << 8) | v4[3]!).toString(16)}`;
  }
  const halves = tail.split('::');
  if (halves.length > 2) return undefined;
  const parse = (half: string): number[] | undefined => {
    if (half === '') return [];
    const out: number[] = [];
    for (const group of half.split(':')) {
      if (!/^[0-9A-Fa-f]{1,4}$/.test(group)) return undefined;
      out.push(parseInt(group, 16));
    }
    return out;
  };
  const head = parse(halves[0]!);
  const rest = halves.length === 2 ? parse(halves[1]!) : [];
  if (!head || !rest) return undefined;
  if (halves.length === 2) {
    if (head.length + rest.length > 7) return undefined;
    groups = [...head, ...new Array<number>(8 - head.length - rest.length).fill(0), ...rest];
  } else {
    if (head.length !== 8) return undefined;
    groups = head;
  }
  const bytes = new Uint8Array(16);
  groups.forEach((group, i) => {
    bytes[i * 2] = group >> 8;
    bytes[i * 2 + 1] = group & 0xff;
  });
  return bytes;
}

const MAPPED_PREFIX = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff];

function mapped(v4: Uint8Array): Uint8Array {
  return new Uint8Array([...MAPPED_PREFIX, ...v4]);
}

function isMapped(bytes: Uint8Array): boolean {
  return MAPPED_PREFIX.every((b, i) => bytes[i] === b);
}

/**
 * An address as 16 bytes (IPv4 as IPv4-mapped IPv6), or undefined when it is not one. Accepts what
 * proxies write: bare addresses, `[v6]`, `v4:port` and `[v6]:port`; a zone (`%eth0`) is dropped.
 */
export function parseAddress(raw: string): Uint8Array | undefined {
  let text = raw.trim();
  if (text.length === 0 || text.length > 64) return undefined;
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(text);
  if (bracketed) text = bracketed[1]!;
  else if (/^[\d.]+:\d{1,5}$/.test(text)) text = text.slice(0, text.indexOf(':'));
  text = text.replace(/%[\w.-]+$/, '');
  if (!text.includes(':')) {
    const v4 = parseIPv4(text);
    return v4 ? mapped(v4) : undefined;
  }
  return parseIPv6(text);
}

/** The canonical text of a parsed address: dotted IPv4 for IPv4 (mapped or not), compressed IPv6. */
export function formatAddress(bytes: Uint8Array): string {
  if (isMapped(bytes)) return Array.from(bytes.subarray(12)).join('.');
  const groups: number[] = [];
  for (let i = 0; i < 16; i += 2) groups.push((bytes[i]! << 8) | bytes[i + 1]!);
  // The longest run of two or more zero groups becomes "::" (RFC 5952).
  let bestAt = -1;
  let bestLength = 1;
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength) {
      bestAt = i;
      bestLength = j - i;
    }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestAt < 0) return hex.join(':');
  return `${hex.slice(0, bestAt).join(':')}::${hex.slice(bestAt + bestLength).join(':')}`;
}

/** `10.0.0.0/8`, `2001:db8::/32` or a single address → a network; undefined when malformed. */
export function parseNetwork(text: string): Network | undefined {
  const [address, prefixText, extra] = text.trim().split('/');
  if (extra !== undefined || address === undefined) return undefined;
  const v4 = !address.includes(':');
  const raw = v4 ? parseIPv4(address) : parseIPv6(address);
  if (!raw) return undefined;
  const bytes = v4 ? mapped(raw) : raw;
  const max = v4 ? 32 : 128;
  let prefix = max;
  if (prefixText !== undefined) {
    if (!/^\d{1,3}$/.test(prefixText) || Number(prefixText) > max) return undefined;
    prefix = Number(prefixText);
  }
  return { bytes, prefix: v4 ? prefix + 96 : prefix };
}

export function inNetwork(bytes: Uint8Array, network: Network): boolean {
  let bits = network.prefix;
  for (let i = 0; i < 16 && bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if ((bytes[i]! & mask) !== (network.bytes[i]! & mask)) return false;
  }
  return true;
}

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
