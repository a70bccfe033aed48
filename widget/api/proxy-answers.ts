// What the shop's proxy answers (docs/proxy.md, "Routes"), as the widget reads it, and the one gate
// every try-on status passes: its output URLs made absolute against the endpoint, or refused.
import type { TryonFidelity, TryonOutput } from '../core/events.js';
import { networkUrl, RefusedUrl } from './network-url.js';
import { ProxyCallError } from './proxy-errors.js';

/** The proxy's try-on status answer (docs/proxy.md). */
export interface ProxyStatus {
  status: 'queued' | 'processing' | 'succeeded' | 'failed' | string;
  outputs: TryonOutput[];
  /** Why the try-on failed, in the proxy's words (the run keeps it as the session's error). */
  error?: { code: string; message: string; retryable: boolean };
  /** The first look's own job, when the product has one: `status`/`outputs` above stay the full render's. */
  preview?: { status: string; outputs: TryonOutput[] };
  /** The proxy's check of the outputs against the product, on a finished try-on (or while a view is made again). */
  fidelity?: TryonFidelity | undefined;
  /** A layered try-on's outfit: every piece it shows, the base first (`over`). */
  pieces?: { product: string; variant?: string }[];
}

export interface ProductInfo {
  product: string;
  views: string[];
  video: boolean;
  tier: string;
  name?: string;
  /** The product's variants (colours) a try-on can ask for, with the shopper's name for each. */
  variants?: ProductVariant[];
  /** How long the proxy keeps a photo and a result, in seconds (absent from older proxies). */
  retention?: { photoSeconds: number; resultSeconds: number; shareLinkSeconds?: number };
  /** How many other colours may be previewed as drafts per try-on ("See all colours"); 0 or absent: off. */
  colourPreviews?: number;
  /** Whether the photo must show the whole body, head to feet (the photo check asks for it; absent: no). */
  fullBody?: boolean;
  /** false: no try-on of it today (absent from older proxies: available). */
  available?: boolean;
  unavailableReason?: string;
  /** The shop's models the product may be seen on ("See it on a model"); [] or absent: none. */
  models?: ProductModel[];
  /**
   * Seconds a try-on of it usually takes on the proxy's upstream (the median of its recent ones,
   * else what the proxy was told): `image[n - 1]` for n of its views, `video` when it offers one.
   * Absent from older proxies.
   */
  typicalSeconds?: { image: number[]; video?: number };
  /** The product's own garment image (its swatch), shown beside a result whose colours may differ. */
  swatch?: string;
  /** The pieces that go with it ("Complete the look"), available ones only; [] or absent: none. */
  pairs?: ProductPair[];
}

/** A piece that goes with a product: `image` is a picture on the proxy's origin (made absolute against the endpoint). */
export interface ProductPair {
  product: string;
  name: string;
  image: string;
  variants: ProductVariant[];
}

export interface ProductVariant {
  id: string;
  name: string;
  /** This colour's garment image (its swatch). */
  swatch?: string;
}
/** One of the shop's models: `image` is a picture the proxy serves (made absolute against the endpoint). */
export interface ProductModel {
  id: string;
  name: string;
  image: string;
}
/** A desktop's hand-off (POST /handoffs): its handle, the phone's code, when the code ends. */
export interface StartedHandoff {
  handoff: string;
  code: string;
  expiresAt: string;
}
/**
 * What the desktop reads of its hand-off: `confirming` once the phone's photo came, until the
 * number the phone shows is typed here (`triesLeft` wrong numbers still allowed); the photo only then.
 */
export interface HandoffState {
  status: 'waiting' | 'confirming' | 'received' | 'expired';
  photo?: string;
  triesLeft?: number;
  expiresAt: string;
}
export interface UploadedPhoto {
  photo: string;
  expiresAt: string;
  /** A hand-off upload (the phone's): the number to type on the computer. */
  handoff?: 'confirming';
  confirmation?: string;
}
export interface CreatedTryon {
  tryon: string;
  status: string;
  views: string[];
}
export interface TryonRequest {
  product: string;
  /**
   * Exactly one of the three: the shopper's photo (a handle), one of the shop's models by id, or
   * `over`, a finished try-on this piece is rendered on ("Complete the look").
   */
  photo?: string;
  model?: string;
  over?: string;
  requestId: string;
  /** The variant (colour) to try on; absent for the product's own garment. */
  variant?: string;
  views?: string[];
  output?: 'image' | 'video';
  /** Which consent text the shopper agreed to (consent-version.ts) and its language. */
  consentVersion?: string;
  consentLanguage?: string;
  /** `preview`: a draft, front-view colour preview of a listed variant with the same photo ("See all colours"). */
  quality?: 'preview';
  /** `off`: no first look beside this try-on (the shopper already sees its colour's draft). */
  preview?: 'off';
}

const verdicts = new Set(['true', 'differs', 'unchecked']);

/**
 * The check as the widget may show it: a verdict it does not know, or a body that is not a check,
 * claims nothing (no label), rather than a "checked" the proxy did not say.
 */
function fidelityOf(answer: unknown): TryonFidelity | undefined {
  const { verdict, views, rerender } = (answer ?? {}) as Partial<TryonFidelity>;
  if (!verdict || !verdicts.has(verdict)) return undefined;
  return { verdict, views: Array.isArray(views) ? views : [], ...(rerender ? { rerender } : {}) };
}

/**
 * Output URLs come relative to the proxy's mount (`files/…`) and are made absolute against the endpoint.
 * One the widget will not use (network-url.ts) refuses the whole answer: the shopper sees the
 * error step rather than a result the endpoint may have tampered with, and watching stops.
 */
export function normaliseStatus(answer: ProxyStatus, base: URL): ProxyStatus {
  const normalised = (list: unknown): TryonOutput[] =>
    (Array.isArray(list) ? (list as TryonOutput[]) : [])
      .filter((o) => o && typeof o.url === 'string')
      .map((o) => ({
        ...o,
        view: o.view || 'front',
        type: o.type === 'video' ? 'video' : 'image',
        url: networkUrl(o.url, base),
      }));
  try {
    const outputs = normalised(answer.outputs);
    // The first look's URLs pass the same gate as the full render's.
    const preview =
      answer.preview && typeof answer.preview === 'object' && typeof answer.preview.status === 'string'
        ? { status: answer.preview.status, outputs: normalised(answer.preview.outputs) }
        : undefined;
    return { ...answer, outputs, preview, fidelity: fidelityOf(answer.fidelity) };
  } catch (error) {
    if (error instanceof RefusedUrl) throw new ProxyCallError('refused_url', { retryable: false });
    throw error;
  }
}
