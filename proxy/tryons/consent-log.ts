// The compliance line written for every accepted try-on: when, which product, which photo handle
// (or which of the shop's models: `source: "model"`, no consent),
// a salted hash of the client (never its address), which consent text in which language the
// shopper agreed to, and how long the proxy said it keeps their photo and result. Never the image,
// never an upstream id: the photo is named by the random id of its handle.
import type { ProxyLimits } from '../limits/limits.js';
import type { Log } from '../operator/log.js';

/** How long the proxy answers for a photo, a result and a share link, in seconds: what the consent step states. */
export interface Retention {
  photoSeconds: number;
  resultSeconds: number;
  shareLinkSeconds: number;
}

/** The lifetimes the proxy keeps a photo, a result and a share link for. */
export type RetentionLimits = Pick<ProxyLimits, 'photoTtlSeconds' | 'tryonTtlSeconds' | 'fileTtlSeconds'>;

export function retentionOf(limits: RetentionLimits): Retention {
  return {
    photoSeconds: limits.photoTtlSeconds,
    resultSeconds: limits.tryonTtlSeconds,
    shareLinkSeconds: limits.fileTtlSeconds,
  };
}

export interface ConsentEntry {
  product: string;
  /** The random id of the photo's handle. */
  photo: string;
  client: string;
  requestId: string;
  /** What the widget sent; absent from older clients, recorded as null. */
  consentVersion?: string | undefined;
  consentLanguage?: string | undefined;
  /**
   * Whose picture: the shopper's photo from this browser, their photo given by their phone (a
   * hand-off: the consent recorded is the one given there), one of the shop's models (no consent asked),
   * or a piece over an earlier try-on (an outfit: its photo's consent, recorded with that try-on, holds).
   */
  source?: 'photo' | 'handoff' | 'model' | 'outfit' | undefined;
  /** The model's id, for a model try-on. */
  model?: string | undefined;
}

export async function logConsent(
  services: {
    /** Salted hash of a client address: the line never holds the address itself. */
    hashClient: (address: string) => Promise<string>;
    limits: RetentionLimits;
    log: Log;
    now: () => number;
  },
  entry: ConsentEntry,
): Promise<void> {
  // The client key may carry the page's origin after a '|' (no address known): hash the address part.
  const address = entry.client.split('|')[0] ?? entry.client;
  services.log({
    event: 'consent',
    time: new Date(services.now()).toISOString(),
    product: entry.product,
    photo: entry.photo,
    client: await services.hashClient(address),
    requestId: entry.requestId,
    consentVersion: entry.consentVersion ?? null,
    consentLanguage: entry.consentLanguage ?? null,
    source: entry.source ?? 'photo',
    ...(entry.model !== undefined ? { model: entry.model } : {}),
    retention: retentionOf(services.limits),
  });
}
