// All the panel knows of the element that hosts it: the settings it reads and the element it
// dispatches the public events on. <tryon-button> implements it; the panel never imports the button,
// and reports back only through its `panel-status` event.
import type { Strings, Translation } from '../i18n/en.js';
import type { CartPlatform, TryonStatus } from './events.js';
import type { Unavailable } from './availability.js';

export interface PanelHost extends HTMLElement {
  readonly product: string;
  readonly endpoint: string;
  readonly views: string;
  /** The variant (colour) chosen on the page; empty for the product's own garment. */
  readonly variant: string;
  readonly video: boolean;
  readonly privacyUrl: string;
  /** Where to send conversion events (space-separated: `shopify`, `dataLayer`); empty for none. */
  readonly analytics: string;
  /** Where "Add to cart" on the result adds (the `add-to-cart` attribute, when valid); undefined for no such button. */
  readonly cartPlatform: CartPlatform | undefined;
  /** The raw `add-to-cart` attribute, to say when it names no way the widget knows. */
  readonly addToCart: string;
  /** The id the cart adds when the try-on had no variant (the `cart-id` attribute). */
  readonly cartId: string;
  readonly strings: Partial<Strings>;
  readonly pollInterval: number;
  /** The language the texts are shown in. */
  readonly language: string;
  /** That language's dictionary once loaded; undefined for English or a language the widget lacks. */
  readonly translation: Translation | undefined;
  /** What the proxy said about the product when the dialog opened ('' = it can be tried on): the button follows it. */
  productAvailability?(reason: Unavailable): void;
}

/**
 * `panel-status`: the panel's report of its step, dispatched on the panel itself (neither
 * bubbling nor composed, so the page never sees it); the host reflects it as its `status`.
 */
export type PanelStatusEvent = CustomEvent<TryonStatus>;

/**
 * `panel-ready`: a try-on watched after the dialog closed has its result (`detail`: the badge's
 * word and the sentence to announce), or the badge goes (`undefined`, the dialog opened). Like
 * `panel-status`, dispatched on the panel only; the host shows it as its ready badge.
 */
export type PanelReadyEvent = CustomEvent<{ badge: string; announcement: string } | undefined>;
