// Bytes and keys, in Web Crypto only (so they run on Node and Workers): the encodings handles and
// signatures are written in, HMAC-SHA256, and a comparison whose time never says where two
// values first differ. Every signature the proxy makes or checks goes through here.

const encoder = new TextEncoder();

const asBytes = (value: string | Uint8Array): Uint8Array => (typeof value === 'string' ? encoder.encode(value) : value);

export function toHex(bytes: ArrayBuffer | Uint8Array): string {
  return Array.from(bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes), (b) =>
    b.toString(16).padStart(2, '0'),
  ).join('');
}

/** Standard base64 (with padding) → bytes; throws on anything else. */
export function fromBase64(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/**
 * Decodes unpadded base64url, accepting only its one canonical spelling: the unused low bits of
 * the last character must be zero (else four strings would decode to the same bytes, and a handle
 * would have several spellings that all verify).
 */
export function fromBase64Url(text: string): Uint8Array {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) throw new TypeError('not base64url');
  const last = text.length % 4 === 0 ? undefined : BASE64URL.indexOf(text[text.length - 1]!);
  // 2 characters carry 1 byte (4 spare bits), 3 carry 2 bytes (2 spare bits).
  if (last !== undefined && (last & (text.length % 4 === 2 ? 0b1111 : 0b11)) !== 0)
    throw new TypeError('not canonical base64url');
  return fromBase64(text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4));
}

/** `a` then `b`, as one array. */
export function concatBytes(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b;
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

/** Compares in time that depends only on the lengths, never on where the bytes differ. */
export function constantTimeEqual(a: Uint8Array | string, b: Uint8Array | string): boolean {
  const left = asBytes(a);
  const right = asBytes(b);
  let diff = left.length ^ right.length;
  for (let i = 0; i < Math.max(left.length, right.length); i++) diff |= (left[i] ?? 0) ^ (right[i] ?? 0);
  return diff === 0;
}

export async function hmacKey(secret: string | Uint8Array): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', asBytes(secret) as BufferSource, { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
  ]);
}

/** HMAC-SHA256 of `message`, under a key from hmacKey() or straight from a secret. */
export async function hmac(key: CryptoKey | string | Uint8Array, message: string | Uint8Array): Promise<Uint8Array> {
  const cryptoKey = typeof key === 'string' || key instanceof Uint8Array ? await hmacKey(key) : key;
  return new Uint8Array(await crypto.subtle.sign('HMAC', cryptoKey, asBytes(message) as BufferSource));
}

export function randomId(bytes = 12): string {
  return toBase64Url(crypto.getRandomValues(new Uint8Array(bytes)));
}
