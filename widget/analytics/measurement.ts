// Measuring what the try-on earns without personal data: an anonymous id per browser, kept only
// where the shop's visitor consent allows measurement, and the exposure report to the shop's own
// proxy (`POST /exposures`), and the group and id on the shop's cart, so the proxy can count
// exposed browsers by group and match them with orders. A chunk of its own, imported by the button
// only on a page with a `holdout`, and by the panel (its "Add to cart" marks the cart again): the
// first script does not grow.
//
// Consent: on Shopify, the Customer Privacy API decides (`analyticsProcessingAllowed()`, and its
// `visitorConsentCollected` event when the shopper answers the banner); elsewhere the element's
// `measurement` attribute, which the shop's consent banner sets to `allowed` (any other value, or
// none, is no consent). Without consent no id is stored, and one stored before is deleted: orders
// still count by group.
import { proxyBase } from '../core/availability.js';
import type { CartPlatform } from '../core/events.js';
import type { HoldoutGroup } from './holdout.js';

/** The localStorage key holding this browser's anonymous id (only with consent). */
export const BROWSER_KEY = 'tryon-browser';

/** What the proxy takes as a browser id: 22–64 of base64url's characters. */
const BROWSER_ID = /^[A-Za-z0-9_-]{22,64}$/;

/** The Customer Privacy API, typed here (not on Window: themes declare Shopify differently). */
interface CustomerPrivacyPage {
  Shopify?: {
    customerPrivacy?: { analyticsProcessingAllowed?: () => boolean };
    loadFeatures?: (features: { name: string; version: string }[], done: (error?: unknown) => void) => void;
  };
}

/** The minimal storage the id needs (localStorage, or a stand-in in tests). */
export interface IdStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** 128 random bits, base64url without padding: 22 characters, nothing derived from the shopper. */
export function newBrowserId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

/**
 * Whether the visitor's consent allows measurement: Shopify's Customer Privacy API where the page
 * has it, else the element's `measurement` attribute (`allowed`).
 */
export function measurementAllowed(attribute: string | null | undefined): boolean {
  const privacy = (window as CustomerPrivacyPage).Shopify?.customerPrivacy;
  if (typeof privacy?.analyticsProcessingAllowed === 'function') {
    try {
      return privacy.analyticsProcessingAllowed() === true;
    } catch {
      return false;
    }
  }
  return (attribute ?? '').trim().toLowerCase() === 'allowed';
}

/**
 * This browser's anonymous id when measurement is allowed (the stored one, else a new one, stored);
 * undefined, and any stored id deleted, when it is not. Undefined too when storage cannot be used.
 */
export function browserId(allowed: boolean, storage: () => IdStorage = () => localStorage): string | undefined {
  try {
    const store = storage();
    if (!allowed) {
      store.removeItem(BROWSER_KEY);
      return undefined;
    }
    const kept = store.getItem(BROWSER_KEY);
    if (kept !== null && BROWSER_ID.test(kept)) return kept;
    store.setItem(BROWSER_KEY, newBrowserId());
    // Read back: a storage that accepts writes and forgets them is no storage.
    const stored = store.getItem(BROWSER_KEY);
    return stored !== null && BROWSER_ID.test(stored) ? stored : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Calls `changed` whenever the visitor's consent may have changed: Shopify's
 * `visitorConsentCollected` (the banner was answered), and once the Customer Privacy API has loaded
 * on a Shopify page that had not loaded it yet. Elsewhere the `measurement` attribute's changes
 * reach the element itself. Once a page.
 */
function watchConsent(changed: () => void): void {
  const page = window as CustomerPrivacyPage;
  document.addEventListener('visitorConsentCollected', changed);
  if (page.Shopify && !page.Shopify.customerPrivacy && typeof page.Shopify.loadFeatures === 'function') {
    try {
      page.Shopify.loadFeatures([{ name: 'consent-tracking-api', version: '0.1' }], (error) => {
        if (error) console.warn('<tryon-button>: Shopify did not load its Customer Privacy API:', error);
        else changed();
      });
    } catch (error) {
      console.warn('<tryon-button>: Shopify did not load its Customer Privacy API:', error);
    }
  }
}

/** What one exposure report carries: never more than the seam names. */
export interface Exposure {
  product: string;
  group: HoldoutGroup;
  browser?: string | undefined;
}

/** Said once a page: the proxy's count of exposures misses this browser. */
let toldUnreported = false;

/**
 * Reports one exposure to the shop's proxy (`POST {endpoint}/exposures`). `keepalive`: a shopper
 * who leaves at once is still counted. A report the proxy did not take is said in the console, once
 * a page: the lift report then undercounts exposed browsers, which the shop should know.
 */
export async function reportExposure(endpoint: string, exposure: Exposure): Promise<boolean> {
  const body = JSON.stringify({
    product: exposure.product,
    group: exposure.group,
    ...(exposure.browser ? { browser: exposure.browser } : {}),
  });
  const answer = await fetch(new URL('exposures', proxyBase(endpoint)), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body,
    keepalive: true,
    credentials: 'omit',
  }).catch(() => undefined);
  if (answer?.ok) return true;
  if (!toldUnreported) {
    toldUnreported = true;
    console.warn(
      `<tryon-button>: the proxy did not take this page's exposure report (${answer ? `HTTP ${answer.status}` : 'no answer'}), so the lift report does not count it.`,
    );
  }
  return false;
}

/** The cart-level marks: the browser's group, and its anonymous id when consent allows it. */
export interface CartMarks {
  group: HoldoutGroup;
  browser?: string | undefined;
}

/** What the page holds of Shopify's and WooCommerce's scripts' settings: where their carts are. */
interface CartPage {
  Shopify?: { routes?: { root?: string } };
  wc_add_to_cart_params?: { wc_ajax_url?: string };
  woocommerce_params?: { wc_ajax_url?: string };
}

/** The last marks sent per platform, so an unchanged cart is not asked again on the same page. */
const sent = new Map<CartPlatform, string>();

/**
 * Marks the shop's cart with the group and the browser id, so that its order carries them: Shopify's
 * cart attributes `_tryon_group` and `_tryon_browser` (`POST cart/update.js`; an empty id removes one
 * marked before consent was withdrawn), WooCommerce's session (`?wc-ajax=tryon_cart_marks`; the
 * plugin copies it to the order's meta). The cart is marked at each exposure, not only at "Add to
 * cart": a shopper in the holdout, or one who adds with the theme's own button, is counted in their
 * group too. `again` asks even when this page marked it so already (the cart may have been
 * replaced). A cart that did not take the marks is said in the console: its orders will not count.
 */
export async function markCart(platform: CartPlatform, marks: CartMarks, again = false): Promise<boolean> {
  if (platform === 'event') return false;
  const key = `${marks.group}|${marks.browser ?? ''}`;
  if (!again && sent.get(platform) === key) return true;
  sent.set(platform, key);
  const page = window as CartPage;
  const ajax =
    page.wc_add_to_cart_params?.wc_ajax_url || page.woocommerce_params?.wc_ajax_url || '/?wc-ajax=%%endpoint%%';
  const answer = await fetch(
    platform === 'shopify'
      ? `${page.Shopify?.routes?.root || '/'}cart/update.js`
      : new URL(ajax.replace('%%endpoint%%', 'tryon_cart_marks'), location.href),
    platform === 'shopify'
      ? {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
          body: JSON.stringify({ attributes: { _tryon_group: marks.group, _tryon_browser: marks.browser ?? '' } }),
        }
      : {
          method: 'POST',
          credentials: 'same-origin',
          body: new URLSearchParams({ group: marks.group, browser: marks.browser ?? '' }),
        },
  ).catch(() => undefined);
  if (answer?.ok) return true;
  sent.delete(platform);
  console.warn(
    `<tryon-button>: the ${platform} cart did not take the try-on's marks (${answer ? `HTTP ${answer.status}` : 'no answer'}): its orders do not count in the lift report.`,
  );
  return false;
}

/** What measuring reads of the element. */
export interface MeasuredElement extends HTMLElement {
  readonly endpoint: string;
  /** The `measurement` attribute: `allowed` when the shop's consent banner has the visitor's consent. */
  readonly measurement: string;
  readonly cartPlatform: CartPlatform | undefined;
}

/** Each element measured on the page, with its group and browser id as last worked out. */
const measured = new Map<MeasuredElement, CartMarks>();
let watching = false;
/** The products whose exposure this page reported: once per product a page view, however many buttons show it. */
const reported = new Set<string>();

/** The cart of the element's page: the platform of `add-to-cart`, else Shopify's on a Shopify page. */
const cartOf = (element: MeasuredElement): CartPlatform | undefined =>
  element.cartPlatform ?? ('Shopify' in window ? 'shopify' : undefined);

/**
 * With `holdout`: the browser id as consent now allows it, the exposure of `product` to the proxy
 * (the button calls it once per product a page shows) and the marks on the shop's cart. Called
 * again without a product when consent changes: the id is kept or deleted, the cart marked anew.
 */
export async function measure(element: MeasuredElement, group: HoldoutGroup, product?: string): Promise<void> {
  if (!watching) watchConsent(remeasure);
  watching = true;
  const marks: CartMarks = { group, browser: browserId(measurementAllowed(element.measurement)) };
  measured.set(element, marks);
  if (product && !reported.has(product)) {
    reported.add(product);
    await reportExposure(element.endpoint, { product, ...marks });
  }
  const platform = cartOf(element);
  if (platform) await markCart(platform, marks);
}

/** Consent changed on the page: every element still on it works its id out again. */
function remeasure(): void {
  for (const [element, { group }] of measured) {
    if (element.isConnected) void measure(element, group);
    else measured.delete(element);
  }
}

/** The cart's marks again, at "Add to cart" (only on a page running the experiment). */
export async function markCartAgain(element: HTMLElement, platform: 'shopify' | 'woocommerce'): Promise<void> {
  const marks = measured.get(element as MeasuredElement);
  if (marks) await markCart(platform, marks, true);
}
