// What a page writes on <tryon-button> in a framework's markup, shared by the JSX, Vue and Svelte
// typings: its attributes, the properties a framework may set directly, and its events.
import type { TryonEventMap, TryonEventName } from '../events.js';
import type { Strings } from '../i18n/en.js';

/** The element's attributes, by the names they have in HTML. */
export interface TryonButtonAttributes {
  /** The product's id in the shop's catalog (required). */
  product?: string;
  /** Where the token proxy is mounted; relative to the page or absolute. Default `/tryon`. */
  endpoint?: string;
  /** Comma-separated views to render; empty = every view the product offers. */
  views?: string;
  /** The variant (colour) to try on, by the shop's own id; empty for the product's own garment. */
  variant?: string;
  /** Offer "Make a video" when the product allows it. */
  video?: boolean;
  /** Language of the texts: `en` (default) or `hi`. */
  lang?: string;
  /** The shop's privacy page, linked from the consent step. */
  'privacy-url'?: string;
  /** When to fetch the dialog's code: `idle` (default) or `interaction`. */
  prefetch?: 'idle' | 'interaction';
  /** Where to send conversion events, space-separated: `shopify`, `dataLayer`. Default: none. */
  analytics?: string;
  /** "Add to cart" on the result: `shopify`, `woocommerce` or `event`. Default: none. */
  'add-to-cart'?: 'shopify' | 'woocommerce' | 'event';
  /** The id the cart adds when the try-on had no variant (Shopify: the only variant; WooCommerce: the product). */
  'cart-id'?: string;
  /** A share (0–1) of browsers that never see the button, for an honest measure of lift. Default: none. */
  holdout?: string;
}

/**
 * Properties with no attribute (or set as a property by React 19 and Svelte 5, which assign a
 * property whenever the element has one).
 */
export interface TryonButtonProperties {
  privacyUrl?: string;
  /** Overrides for any text, by key (see docs/widget.md). */
  strings?: Partial<Strings>;
  /** Milliseconds between status polls when Server-Sent Events are unavailable. */
  pollInterval?: number;
}

/**
 * Event listeners named `on` + the event's own name (`ontryon-open`), which React 19 and Svelte 5
 * both turn into addEventListener('tryon-open', …) on a custom element.
 */
export type TryonButtonEventProps = {
  [K in TryonEventName as `on${K}`]?: (event: TryonEventMap[K]) => void;
};
