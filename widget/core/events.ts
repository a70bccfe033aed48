// The typed `detail` of every event <tryon-button> dispatches. All of them bubble and are
// composed, so a page can listen on the element, on a container or on `document`.

/** A step of the shopper's try-on, also reflected as the element's `status` attribute. */
export type TryonStatus = 'idle' | 'consent' | 'photo' | 'uploading' | 'queued' | 'rendering' | 'result' | 'error';

/** One rendered output: an image per view, or a video. `url` is absolute. */
export interface TryonOutput {
  view: string;
  url: string;
  type: 'image' | 'video';
  contentType?: string;
}

/** What every event names: the product and, when the page set one, its variant. */
export interface TryonSubject {
  product: string;
  /** The variant (colour) tried on, when the element's `variant` is set. */
  variant?: string;
}

/**
 * What an event names (and a request sends): the product, and its variant only when there is one, since
 * an absent variant is the product's own garment. The one place that leaves an empty variant out.
 */
export const tryonSubject = (product: string, variant: string | undefined): TryonSubject => ({
  product,
  ...(variant ? { variant } : {}),
});

// An interface of its own rather than an alias, so compilers and editors name it in their messages.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface TryonOpenDetail extends TryonSubject {}
export interface TryonCloseDetail extends TryonSubject {
  status: TryonStatus;
}
export interface TryonSubmitDetail extends TryonSubject {
  requestId: string;
  views: string[];
  output: 'image' | 'video';
}
export interface TryonProgressDetail extends TryonSubject {
  status: TryonStatus;
  /** Upload percent (0–100) while uploading. */
  percent?: number;
  /** Milliseconds since the try-on was submitted. */
  elapsedMs?: number;
  /** The expected p95 duration for the product's tier, in milliseconds. */
  expectedMs?: number;
  tryon?: string;
}
export interface TryonResultDetail extends TryonSubject {
  tryon: string;
  requestId: string;
  outputs: TryonOutput[];
}
/** The first look (a quick draft) was painted while the full render is still being made. */
export interface TryonPreviewDetail extends TryonSubject {
  tryon: string;
  /** Milliseconds from the try-on's submit to its first look painted. */
  ms: number;
}
/** The proxy's check of a try-on against the product (docs/proxy.md): what the shopper is told of its colours. */
export type FidelityVerdict = 'true' | 'differs' | 'unchecked';
/** One view's check: its colour difference from the garment (CIEDE2000) and whether the garment is all there. */
export interface ViewFidelity {
  view: string;
  colour: { deltaE: number };
  coverage: 'ok' | 'missing' | 'partial';
}
/** A try-on's check, as its status carries it; `rerender` while (and after) a view that differed is made again. */
export interface TryonFidelity {
  verdict: FidelityVerdict;
  views: ViewFidelity[];
  rerender?: 'running' | 'done' | 'failed';
}
/**
 * Once per finished try-on: what the proxy's check found. `true`: its colours match the product;
 * `differs`: the shopper was told they may differ; `unchecked`: nothing was claimed (the check could
 * not run, was off, or the proxy does not check).
 */
export interface TryonFidelityDetail extends TryonSubject, TryonFidelity {
  tryon: string;
}
export interface TryonErrorDetail extends TryonSubject {
  code: string;
  message: string;
  retryable: boolean;
}

/** Where "Add to cart" adds: the element's `add-to-cart` attribute. */
export type CartPlatform = 'shopify' | 'woocommerce' | 'event';

/** One piece of an outfit: a product and, when it has one, its variant (colour). */
export interface OutfitPiece {
  product: string;
  variant?: string;
}

/** One line of a cart add: a piece and the id its cart is given (`item`, as in the event itself). */
export interface CartLine extends OutfitPiece {
  item?: string;
}

export interface TryonAddToCartDetail extends TryonSubject {
  /** How it is added: `shopify`, `woocommerce`, or `event` (only this event: the shop's code adds). */
  cart: CartPlatform;
  /** The id the cart is given: the variant tried on, else the element's `cart-id`; absent when neither is set. */
  item?: string;
  /**
   * Every line this add puts in the cart, the first as the fields above: one for "Add to cart",
   * each piece of the outfit (the base first) for "Add the look to cart".
   */
  lines: CartLine[];
  /**
   * The shop's own work for this add (with `add-to-cart="event"`, the add itself): the result
   * step says "Adding to cart…" until the promise settles, then added or failed by its outcome.
   * Call it during the event's dispatch. Without it, an `event` add counts as added at once.
   */
  waitUntil(work: Promise<unknown>): void;
}

/** A page view that could show the button, in an experiment with a holdout (`holdout` attribute). */
export interface TryonExposureDetail extends TryonSubject {
  /** This browser's group: `holdout` browsers never see the button. */
  group: 'treatment' | 'holdout';
  /** The share held out on this page (the `holdout` attribute). */
  holdout: number;
}

/**
 * The photo check's verdict on the chosen photo, before anything is uploaded (`photo-check`
 * attribute). `fail` lists why in `reasons` (codes: `no_person`, `several_people`,
 * `face_not_visible`, `not_full_body`, `too_dark`, `too_blurry`, `too_small`); `skipped` is
 * `photo-check="off"`; `unavailable` means the check could not run in this browser (its model did
 * not load, no module workers) and the shopper went on unchecked. After a `fail` in `warn` mode, a
 * shopper who presses "Use it anyway" gets a second event with `overridden: true`.
 */
export interface TryonPhotoCheckDetail extends TryonSubject {
  result: 'pass' | 'fail' | 'skipped' | 'unavailable';
  reasons: string[];
  mode: 'warn' | 'strict' | 'off';
  overridden?: boolean;
  /** How long the check took on the device, in milliseconds (pass and fail). */
  ms?: number;
}

/** The outfit on the result changed ("Complete the look"): every piece it shows now, the base first. */
export interface TryonOutfitDetail extends TryonSubject {
  pieces: OutfitPiece[];
}

export interface TryonEventMap {
  'tryon-open': CustomEvent<TryonOpenDetail>;
  'tryon-close': CustomEvent<TryonCloseDetail>;
  'tryon-submit': CustomEvent<TryonSubmitDetail>;
  'tryon-progress': CustomEvent<TryonProgressDetail>;
  'tryon-result': CustomEvent<TryonResultDetail>;
  'tryon-error': CustomEvent<TryonErrorDetail>;
  'tryon-add-to-cart': CustomEvent<TryonAddToCartDetail>;
  'tryon-exposure': CustomEvent<TryonExposureDetail>;
  'tryon-preview': CustomEvent<TryonPreviewDetail>;
  'tryon-photo-check': CustomEvent<TryonPhotoCheckDetail>;
  'tryon-fidelity': CustomEvent<TryonFidelityDetail>;
  'tryon-outfit': CustomEvent<TryonOutfitDetail>;
}

export type TryonEventName = keyof TryonEventMap;
export type TryonEventDetail<K extends TryonEventName> = TryonEventMap[K]['detail'];

/** Every event of the widget bubbles and crosses shadow roots, so a page can listen anywhere. */
export function tryonEvent<K extends TryonEventName>(
  name: K,
  detail: TryonEventDetail<K>,
): CustomEvent<TryonEventDetail<K>> {
  return new CustomEvent(name, { detail, bubbles: true, composed: true });
}

declare global {
  // Declaration merging needs an interface: it adds the widget's events to every element's map.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface HTMLElementEventMap extends TryonEventMap {}
}
