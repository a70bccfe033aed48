// What this tab remembers in sessionStorage: the last uploaded photo (until it expires) and the
// try-on being rendered (so a reload resumes watching it). Keys carry the endpoint, so two
// proxies on one page never mix; the try-on also carries the product. The photo is keyed by
// endpoint only: a photo handle is good for any product of the same proxy, and "use my last
// photo" is most useful on the next product page.

export interface StoredPhoto {
  photo: string;
  expiresAt: string;
}
export interface StoredTryon {
  tryon: string;
  requestId: string;
  /** The variant tried on, when the page chose one. */
  variant?: string;
  views: string[];
  output: 'image' | 'video';
  submittedAt: number;
  photo?: StoredPhoto;
}

export function endpointKey(endpoint: string): string {
  return new URL(endpoint || '/tryon', location.href).href.replace(/\/+$/, '');
}

export const photoKey = (endpoint: string) => `tryon:${endpointKey(endpoint)}:photo`;
export const tryonKey = (endpoint: string, product: string) => `tryon:${endpointKey(endpoint)}:${product}:tryon`;

export function read<T>(key: string): T | undefined {
  try {
    const text = sessionStorage.getItem(key);
    return text ? (JSON.parse(text) as T) : undefined;
  } catch {
    // Storage may be disabled (privacy mode) or hold junk: behave as if nothing was stored.
    return undefined;
  }
}

function write(key: string, value: unknown): void {
  try {
    if (value === undefined) sessionStorage.removeItem(key);
    else sessionStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Without storage the flow still works; only resume and "use my last photo" are lost.
  }
}

export function lastPhoto(endpoint: string, now = Date.now()): StoredPhoto | undefined {
  const stored = read<StoredPhoto>(photoKey(endpoint));
  if (!stored || typeof stored.photo !== 'string') return undefined;
  const expires = Date.parse(stored.expiresAt);
  // A minute's margin: a handle about to expire would fail at the proxy.
  if (!Number.isFinite(expires) || expires - 60_000 <= now) {
    write(photoKey(endpoint), undefined);
    return undefined;
  }
  return stored;
}

export const rememberPhoto = (endpoint: string, photo: StoredPhoto) => write(photoKey(endpoint), photo);
/** The proxy no longer knows the photo: stop offering it. */
export const forgetPhoto = (endpoint: string) => write(photoKey(endpoint), undefined);

export function currentTryon(endpoint: string, product: string): StoredTryon | undefined {
  const stored = read<StoredTryon>(tryonKey(endpoint, product));
  return stored && typeof stored.tryon === 'string' && typeof stored.requestId === 'string' ? stored : undefined;
}

export const rememberTryon = (endpoint: string, product: string, tryon: StoredTryon) =>
  write(tryonKey(endpoint, product), tryon);
/** The try-on is over (a result, a final failure, a cancel): a reload has nothing to resume. */
export const forgetTryon = (endpoint: string, product: string) => write(tryonKey(endpoint, product), undefined);
