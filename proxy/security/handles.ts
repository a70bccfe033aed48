// Every id the browser sees is a handle: `v1.<kind>.<payload>.<signature>`, all base64url.
// The payload is AES-GCM encrypted (so raw upstream ids never reach the browser) and the whole
// `v1.<kind>.<payload>` is signed with HMAC-SHA256 (so the proxy refuses anything it did not mint).
// Both keys are derived from the one proxy secret. The IV is derived from the plaintext, which
// makes a handle deterministic for the same claims and expiry: a status poll returns the same
// file URLs each time, so the browser's image cache keeps working.
//
// Why this is our own composition rather than an audited library's:
// - Handles must be deterministic on every instance (same claims and expiry, same handle, with no
//   shared memo). JWE (`jose`, dir + A256GCM) draws a random IV per token, so each status read would
//   mint new file URLs. AES-GCM-SIV (`@noble/ciphers`) is the audited fit, but neither package is a
//   dependency; switching to it would need adding one (and a new `v2.` prefix beside `v1.`).
// - It is SIV-style and uses only vetted primitives from Web Crypto (Node and Workers alike, no
//   dependency): IV = HMAC-SHA256(ivKey, kind ‖ plaintext)[0..12], a PRF of the plaintext, so two
//   different claims share an IV with probability about n²/2⁹⁷; equal claims give the equal handle
//   (intended). AES-256-GCM with the kind as associated data. An HMAC-SHA256 over
//   `v1.<kind>.<payload>` with a third key, checked in constant time before decrypting, binds
//   version and kind and commits to the key (GCM alone does not). Keys are separated by HMAC with
//   distinct labels from the proxy secret; base64url is accepted in its one canonical spelling.
// - Its properties are tested (test/proxy/handles.test.ts): any changed character refused, wrong
//   kind, expired and another secret's handles refused, 100 000 handles with 100 000 IVs, no
//   upstream id readable, comparison reads every byte whatever the first difference.
// Cost: a cold mint or open is a few Web Crypto calls; a handle minted or opened before is answered
// from a bounded memo (Memo, below), so a polled status read pays for none.
import { concatBytes, constantTimeEqual, fromBase64Url, hmac, hmacKey, toBase64Url } from './crypto.js';
import { ProxyError } from '../http/errors.js';

/**
 * Every kind of handle the proxy mints. The request log cuts each of them out of paths and its
 * test mints one of every kind listed here, so a kind added here is covered by both.
 */
export const HANDLE_KINDS = ['photo', 'tryon', 'file', 'handoff'] as const;
export type HandleKind = (typeof HANDLE_KINDS)[number];

export interface PhotoClaims {
  /** Random id of this photo handle; the compliance log names the photo by it. */
  id: string;
  fileId: string;
  /**
   * The photo came by a hand-off: the shopper agreed on their phone, to this consent text in this
   * language (each may be unknown: ""), and the desktop's try-on records that consent.
   */
  phoneConsent?: { version: string; language: string } | undefined;
}
/** A desktop's hand-off (photos/phone-handoffs.ts): the random id the store knows it by. */
export interface HandoffClaims {
  id: string;
}
export interface TryonClaims {
  jobId: string;
  product: string;
  views: string[];
  output: 'image' | 'video';
  /** Id of the photo handle the try-on was made from. */
  photoId: string;
  /** The upstream job of its first look (a draft beside it), when one was started. */
  previewJobId?: string | undefined;
  /** The variant of the product it is of, when one was chosen (an outfit names it among its pieces). */
  variant?: string | undefined;
  /** A piece over another try-on: every piece of the outfit, base first, this one last. */
  pieces?: OutfitPiece[] | undefined;
}
/** One piece of an outfit: a product, and its variant when one was chosen. */
export interface OutfitPiece {
  product: string;
  variant?: string;
}
/** Pieces as one short string (`lehenga:red,dupatta`): product and variant ids never hold `:` or `,`. */
const packPieces = (pieces: OutfitPiece[]): string =>
  pieces.map((p) => (p.variant === undefined ? p.product : `${p.product}:${p.variant}`)).join(',');
const unpackPieces = (text: string): OutfitPiece[] =>
  text.split(',').map((each) => {
    const [product = '', variant] = each.split(':');
    return variant === undefined ? { product } : { product, variant };
  });
export interface FileClaims {
  fileId: string;
  /** The upstream job whose outputs must contain fileId. */
  jobId: string;
  view: string;
  type: 'image' | 'video';
  /** Id of the photo handle the try-on was made from, so forgetting the photo reaches its files. */
  photoId: string;
}
export interface ClaimsOf {
  photo: PhotoClaims;
  tryon: TryonClaims;
  file: FileClaims;
  handoff: HandoffClaims;
}

const VERSION = 'v1';
const encoder = new TextEncoder();
const decoder = new TextDecoder();

interface Keys {
  mac: CryptoKey;
  iv: CryptoKey;
  enc: CryptoKey;
}

type Packed = (string | number)[];

/** Claims as short positional arrays, so handles (and the URLs holding them) stay short. */
const codecs: { [K in HandleKind]: { pack(c: ClaimsOf[K]): Packed; unpack(p: Packed): ClaimsOf[K] | undefined } } = {
  photo: {
    // The phone's consent rides at the end, only for a photo given by a hand-off: other photo handles keep
    // their shorter shape, and every handle already minted still opens.
    pack: (c) => [c.id, c.fileId, ...(c.phoneConsent ? [c.phoneConsent.version, c.phoneConsent.language] : [])],
    unpack: ([id, fileId, version, language]) =>
      typeof id === 'string' &&
      typeof fileId === 'string' &&
      (version === undefined || (typeof version === 'string' && typeof language === 'string'))
        ? {
            id,
            fileId,
            ...(typeof version === 'string' ? { phoneConsent: { version, language: language as string } } : {}),
          }
        : undefined,
  },
  handoff: {
    pack: (c) => [c.id],
    unpack: ([id]) => (typeof id === 'string' ? { id } : undefined),
  },
  tryon: {
    // The first look's job rides at the end, only when there is one: a handle without it keeps the
    // shorter shape, and every handle already minted still opens.
    // The variant and an outfit's pieces ride after it, likewise only when there are any.
    pack: (c) => [
      c.jobId,
      c.product,
      c.views.join(','),
      c.output === 'video' ? 1 : 0,
      c.photoId,
      ...(c.variant !== undefined || c.pieces
        ? [c.previewJobId ?? '', c.variant ?? '', c.pieces ? packPieces(c.pieces) : '']
        : c.previewJobId
          ? [c.previewJobId]
          : []),
    ],
    unpack: ([jobId, product, views, output, photoId, previewJobId, variant, pieces]) =>
      typeof jobId === 'string' &&
      typeof product === 'string' &&
      typeof views === 'string' &&
      typeof photoId === 'string' &&
      (previewJobId === undefined || typeof previewJobId === 'string') &&
      (variant === undefined || typeof variant === 'string') &&
      (pieces === undefined || typeof pieces === 'string')
        ? {
            jobId,
            product,
            views: views.split(','),
            output: output === 1 ? 'video' : 'image',
            photoId,
            ...(previewJobId ? { previewJobId } : {}),
            ...(variant ? { variant } : {}),
            ...(pieces ? { pieces: unpackPieces(pieces) } : {}),
          }
        : undefined,
  },
  file: {
    pack: (c) => [c.fileId, c.jobId, c.view, c.type === 'video' ? 1 : 0, c.photoId],
    unpack: ([fileId, jobId, view, type, photoId]) =>
      typeof fileId === 'string' && typeof jobId === 'string' && typeof view === 'string' && typeof photoId === 'string'
        ? { fileId, jobId, view, type: type === 1 ? 'video' : 'image', photoId }
        : undefined,
  },
};

/**
 * A handle's claims and its expiry (epoch seconds), as open() answers them. Every open of the same
 * handle shares one object, so it is frozen: a caller that wants other claims makes its own.
 */
export type OpenedClaims<K extends HandleKind> = ClaimsOf[K] & { expiresAt: number };

export interface Minted {
  handle: string;
  expiresAt: Date;
}

/**
 * A small insertion-ordered memo with a size bound. Handles are deterministic (the IV is an HMAC
 * of the plaintext), so the same claims and expiry always make the same handle, and a handle that
 * verified once verifies again: remembering both spares the Web Crypto round trips that otherwise
 * dominate every status read. Only handles this signer minted or verified enter it, so a forged
 * one always pays the full check; expiry is checked on every use, memo or not.
 */
class Memo<V> {
  private readonly entries = new Map<string, V>();
  constructor(private readonly limit: number) {}
  get(key: string): V | undefined {
    return this.entries.get(key);
  }
  set(key: string, value: V): void {
    if (this.entries.size >= this.limit) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, value);
  }
}

const MEMO_LIMIT = 10_000;

export class HandleSigner {
  private keys: Promise<Keys>;
  private readonly minted = new Memo<Minted>(MEMO_LIMIT);
  private readonly opened = new Memo<{ kind: HandleKind; exp: number; opened: object }>(MEMO_LIMIT);

  constructor(
    secret: string,
    private readonly now: () => number = Date.now,
  ) {
    if (!secret) throw new TypeError('a handle secret is required');
    this.keys = (async () => {
      const root = await hmacKey(secret);
      const derive = (label: string) => hmac(root, `tryon-handle/${label}`);
      const encRaw = await derive('enc');
      return {
        mac: await hmacKey(await derive('mac')),
        iv: await hmacKey(await derive('iv')),
        enc: await crypto.subtle.importKey('raw', encRaw as BufferSource, 'AES-GCM', false, ['encrypt', 'decrypt']),
      };
    })();
  }

  /** Mints a handle valid for ttlSeconds (or until `expiresAt`, in epoch seconds). */
  async mint<K extends HandleKind>(
    kind: K,
    claims: ClaimsOf[K],
    ttlSeconds: number,
    expiresAt?: number,
  ): Promise<Minted> {
    const keys = await this.keys;
    const exp = expiresAt ?? Math.floor(this.now() / 1000) + Math.ceil(ttlSeconds);
    const text = JSON.stringify([exp, ...codecs[kind].pack(claims)]);
    const memoKey = `${kind}|${text}`;
    const known = this.minted.get(memoKey);
    if (known) return known;
    const plain = encoder.encode(text);
    const additionalData = encoder.encode(kind);
    const iv = (await hmac(keys.iv, concatBytes(additionalData, plain))).slice(0, 12);
    const sealed = new Uint8Array(
      await crypto.subtle.encrypt(
        { name: 'AES-GCM', iv: iv as BufferSource, additionalData: additionalData as BufferSource },
        keys.enc,
        plain as BufferSource,
      ),
    );
    const payload = new Uint8Array(iv.length + sealed.length);
    payload.set(iv, 0);
    payload.set(sealed, iv.length);
    const body = `${VERSION}.${kind}.${toBase64Url(payload)}`;
    const signature = toBase64Url(await hmac(keys.mac, body));
    const minted = { handle: `${body}.${signature}`, expiresAt: new Date(exp * 1000) };
    this.minted.set(memoKey, minted);
    this.remember(minted.handle, kind, exp, claims);
    return minted;
  }

  /**
   * Opens a handle of the expected kind. Anything not minted by this secret, of another kind or
   * malformed → 404 invalid_handle; a genuine but expired handle → 401 expired_handle.
   */
  async open<K extends HandleKind>(kind: K, handle: string): Promise<OpenedClaims<K>> {
    const { exp, opened } = await this.verify(kind, handle);
    return this.unexpired(kind, exp, opened);
  }

  /**
   * Opens a genuine handle of the expected kind even if it has expired (404 invalid_handle for
   * anything else): forgetting a photo must work after its handle expired, as its try-ons may not have.
   */
  async openExpired<K extends HandleKind>(kind: K, handle: string): Promise<OpenedClaims<K>> {
    return (await this.verify(kind, handle)).opened;
  }

  private async verify<K extends HandleKind>(
    kind: K,
    handle: string,
  ): Promise<{ exp: number; opened: OpenedClaims<K> }> {
    // A handle opened before is answered from the memo, with the claims object made then: a status
    // read polled a thousand times opens the same handle a thousand times. Only handles that
    // verified enter the memo, so a hit needs none of the checks below.
    const known = this.opened.get(handle);
    if (known && known.kind === kind) return { exp: known.exp, opened: known.opened as OpenedClaims<K> };
    const invalid = () => new ProxyError(404, 'invalid_handle', `This ${kind} link is not valid.`);
    if (typeof handle !== 'string' || handle.length > 4096) throw invalid();
    const parts = handle.split('.');
    if (parts.length !== 4) throw invalid();
    const [version, handleKind, payloadText, signatureText] = parts as [string, string, string, string];
    if (version !== VERSION || handleKind !== kind) throw invalid();
    const keys = await this.keys;
    let signature: Uint8Array;
    let payload: Uint8Array;
    try {
      signature = fromBase64Url(signatureText);
      payload = fromBase64Url(payloadText);
    } catch {
      throw invalid();
    }
    const expected = await hmac(keys.mac, `${version}.${handleKind}.${payloadText}`);
    if (!constantTimeEqual(signature, expected)) throw invalid();
    let decoded: unknown;
    try {
      const plain = await crypto.subtle.decrypt(
        {
          name: 'AES-GCM',
          iv: payload.slice(0, 12) as BufferSource,
          additionalData: encoder.encode(kind) as BufferSource,
        },
        keys.enc,
        payload.slice(12) as BufferSource,
      );
      decoded = JSON.parse(decoder.decode(plain));
    } catch {
      throw invalid();
    }
    if (!Array.isArray(decoded) || typeof decoded[0] !== 'number') throw invalid();
    const [exp, ...packed] = decoded as [number, ...Packed];
    const claims = codecs[kind].unpack(packed) as ClaimsOf[K] | undefined;
    if (!claims) throw invalid();
    return { exp, opened: this.remember(handle, kind, exp, claims) as OpenedClaims<K> };
  }

  private unexpired<K extends HandleKind>(kind: K, exp: number, opened: OpenedClaims<K>): OpenedClaims<K> {
    if (exp * 1000 <= this.now()) {
      throw new ProxyError(401, 'expired_handle', `This ${kind} link has expired; please start again.`);
    }
    return opened;
  }

  private remember(handle: string, kind: HandleKind, exp: number, claims: object): object {
    const opened = Object.freeze({ ...claims, expiresAt: exp });
    this.opened.set(handle, { kind, exp, opened });
    return opened;
  }
}
