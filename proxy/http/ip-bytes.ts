// IP addresses as bytes: parsing IPv4 and IPv6 text (strictly: no leading zeros, no zone), writing
// it back in canonical form, and address ranges (CIDR). IPv4 is kept as IPv4-mapped IPv6, so one
// comparison serves both. What client-address.ts reads X-Forwarded-For with; web-standard only.

/** An address range: IPv4 addresses are kept as IPv4-mapped IPv6, so one comparison serves both. */
export interface Network {
  bytes: Uint8Array;
  prefix: number;
}

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

export function isMapped(bytes: Uint8Array): boolean {
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
