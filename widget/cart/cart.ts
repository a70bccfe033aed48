// Adding the variant tried on to the shop's own cart, the way the shop's platform adds it, and
// telling the theme so its cart count and drawer refresh. In the panel's chunk: only a result
// offers "Add to cart".
//
// Shopify: the Ajax Cart API (`POST {routes.root}cart/add.js`, then `GET {routes.root}cart.js`),
// then what the common themes listen to (docs/integrations/shopify.md):
// - Dawn and its family: `publish(PUB_SUB_EVENTS.cartUpdate, …)` (assets/pubsub.js), and the
//   sections its <cart-drawer> or <cart-notification> renders (`renderContents`), which is what
//   updates Dawn's cart bubble;
// - Horizon 4: the storefront standard event `shopify:cart:lines-update`, whose `promise` resolves
//   with the cart (its cart icon reads `cart.totalQuantity`);
// - Horizon 2–3: `cart:update` with `detail.data.itemCount`.
// WooCommerce: its own AJAX add-to-cart (`?wc-ajax=add_to_cart`) where its add-to-cart script is on
// the page, then its `added_to_cart` jQuery event (fragments refresh the mini-cart); else the
// product form's post, as a page without that script adds (the page reloads with WooCommerce's notice).
// Either way the line carries the try-on's mark (cart-marks.ts).
import { shopifyLineProperties, wooCommerceLineFields } from './cart-marks.js';

/** An add the shop's cart refused or could not be reached for; `reason` is the platform's own words, if any. */
export class CartError extends Error {
  constructor(readonly reason?: string) {
    super(reason || 'The cart did not take the item.');
    this.name = 'CartError';
  }
}

/** What the page holds of Shopify's and the themes' globals, typed here (not on Window: themes declare them differently). */
interface ShopifyPage {
  Shopify?: { routes?: { root?: string } };
  publish?: (event: string, data: unknown) => unknown;
}

/** Dawn's <cart-drawer> and <cart-notification>: the sections they render after an add. */
interface DawnCart extends HTMLElement {
  getSectionsToRender(): { id: string }[];
  renderContents(state: unknown): void;
}

/** The parts of Shopify's `/cart.js` the themes are told. */
interface ShopifyCart {
  token?: string;
  item_count: number;
  total_price?: number;
  currency?: string;
}

/** Shopify's error answer (422, 404): `{status, message, description}`. */
function shopifyReason(body: unknown): string | undefined {
  const record = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const said = record['description'] ?? record['message'];
  return typeof said === 'string' && said.trim() ? said.trim() : undefined;
}

async function json(response: Response): Promise<unknown> {
  return response.json().catch(() => undefined);
}

function dawnCart(): DawnCart | undefined {
  const cart = document.querySelector('cart-notification, cart-drawer') as Partial<DawnCart> | null;
  return cart && typeof cart.getSectionsToRender === 'function' && typeof cart.renderContents === 'function'
    ? (cart as DawnCart)
    : undefined;
}

/** A Shopify line to add: the variant's id, and the catalog product it was tried on as (its mark). */
export interface ShopifyLine {
  id: string;
  tryon?: string | undefined;
}

/**
 * Adds one of each Shopify variant in `lines` (one line each, in one request: all or none), each
 * marked with the try-on it was seen in; resolves with the cart's new item count.
 */
export async function addToShopifyCart(lines: ShopifyLine[]): Promise<number> {
  const ids = lines.map((line) => line.id);
  const page = window as ShopifyPage;
  const root = page.Shopify?.routes?.root || '/';
  const dawn = dawnCart();
  // Dawn's cart renders the sections it asks for with the add; asking for them here lets it refresh as after its own add.
  const sections = dawn?.getSectionsToRender().map((section) => section.id) ?? [];
  const added = await fetch(`${root}cart/add.js`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify({
      items: lines.map((line) => ({ id: Number(line.id), quantity: 1, ...shopifyLineProperties(line.tryon) })),
      ...(sections.length ? { sections, sections_url: location.pathname } : {}),
    }),
  }).catch(() => {
    throw new CartError();
  });
  const answer = await json(added);
  if (!added.ok) throw new CartError(shopifyReason(answer));
  const cartAnswer = await fetch(`${root}cart.js`, { headers: { Accept: 'application/json' } }).catch(() => undefined);
  const cart = (cartAnswer?.ok ? await json(cartAnswer) : undefined) as ShopifyCart | undefined;
  const itemCount = typeof cart?.item_count === 'number' ? cart.item_count : undefined;
  tellShopifyThemes(ids, answer as Record<string, unknown> | undefined, cart, itemCount, dawn);
  return itemCount ?? NaN;
}

/** The events the common themes refresh their cart from; one theme's listener that throws spares the others. */
function tellShopifyThemes(
  ids: string[],
  answer: Record<string, unknown> | undefined,
  cart: ShopifyCart | undefined,
  itemCount: number | undefined,
  dawn: DawnCart | undefined,
): void {
  const page = window as ShopifyPage;
  const id = ids[0] ?? '';
  const items = Array.isArray(answer?.['items']) ? (answer['items'] as Record<string, unknown>[]) : [];
  const sections = answer?.['sections'];
  const attempt = (what: string, tell: () => unknown) => {
    try {
      tell();
    } catch (error) {
      console.error(`<tryon-button>: the theme's ${what} threw after the add: ${String(error)}`);
    }
  };
  // Dawn: `publish` is a classic script's function (on window); PUB_SUB_EVENTS is a top-level const
  // (not on window, and reading it by name would need eval), whose cartUpdate is 'cart-update'.
  if (typeof page.publish === 'function') {
    attempt('publish(cart-update)', () =>
      page.publish!('cart-update', { source: 'tryon-button', productVariantId: id, cartData: answer }),
    );
  }
  if (dawn && sections && typeof sections === 'object') {
    // Dawn's renderContents reads one line item (its `key`, `id`) with the sections beside it.
    attempt('cart renderContents', () => dawn.renderContents({ ...(items[0] ?? {}), sections }));
  }
  if (itemCount === undefined) return;
  const detail = { source: 'tryon-button', itemCount, variantId: id, ...(sections ? { sections } : {}) };
  // Horizon 4 (storefront standard events): listeners read the event's own `promise` (its cart icon, `cart.totalQuantity`).
  const currencyCode = cart?.currency ?? '';
  const result = {
    cart: {
      id: cart?.token ?? '',
      totalQuantity: itemCount,
      cost: { totalAmount: { amount: ((cart?.total_price ?? 0) / 100).toFixed(2), currencyCode } },
      lines: [],
      discountCodes: [],
    },
    detail,
  };
  const linesUpdate = Object.assign(new Event('shopify:cart:lines-update', { bubbles: true }), {
    action: 'add',
    context: 'dialog',
    lines: ids.map((each) => ({ merchandiseId: each, quantity: 1 })),
    promise: Promise.resolve(result),
  });
  attempt('shopify:cart:lines-update listener', () => document.dispatchEvent(linesUpdate));
  // Horizon 2–3: `cart:update` with the new count (an absolute count: the source is not its product form).
  attempt('cart:update listener', () =>
    document.dispatchEvent(
      new CustomEvent('cart:update', {
        bubbles: true,
        detail: { resource: cart, sourceId: 'tryon-button', data: detail },
      }),
    ),
  );
}

/** What the page holds of WooCommerce: its add-to-cart script's settings, and jQuery. */
interface WooCommercePage {
  wc_add_to_cart_params?: { wc_ajax_url?: string; cart_url?: string; cart_redirect_after_add?: string };
  jQuery?: (target: unknown) => { trigger(event: string, data?: unknown[]): unknown };
}

/**
 * Adds one of WooCommerce product `product` (its variation `variation`, if any). With
 * WooCommerce's add-to-cart script on the page: its AJAX endpoint, then `added_to_cart` so the
 * fragments (mini-cart, count) refresh. Without it: the product form's post, which reloads the
 * page; resolves 'reloading' then. An add that is not the `last` of several (an outfit's pieces)
 * posts the same fields without leaving the page, so the last one's page load shows them all.
 */
export async function addToWooCommerceCart(
  product: string,
  variation: string | undefined,
  tryon?: string,
  last = true,
): Promise<'added' | 'reloading'> {
  const page = window as WooCommercePage;
  const params = page.wc_add_to_cart_params;
  if (!params?.wc_ajax_url && !last) {
    const posted = await fetch(location.href, {
      method: 'POST',
      body: new URLSearchParams(productFormFields(product, variation, tryon)),
      credentials: 'same-origin',
    }).catch(() => {
      throw new CartError();
    });
    if (!posted.ok) throw new CartError();
    return 'added';
  }
  if (!params?.wc_ajax_url) {
    postProductForm(product, variation, tryon);
    return 'reloading';
  }
  const url = params.wc_ajax_url.replace('%%endpoint%%', 'add_to_cart');
  // WooCommerce's endpoint takes a variation's own id as product_id and finds its parent and attributes.
  const body = new URLSearchParams({
    product_id: variation || product,
    quantity: '1',
    ...wooCommerceLineFields(tryon),
  });
  const answer = await fetch(url, {
    method: 'POST',
    body,
    credentials: 'same-origin',
    headers: { Accept: 'application/json' },
  }).catch(() => {
    throw new CartError();
  });
  const data = (await json(answer)) as { error?: unknown; fragments?: unknown; cart_hash?: unknown } | undefined;
  if (!answer.ok || !data || data.error || !data.fragments) throw new CartError();
  if (params.cart_redirect_after_add === 'yes' && params.cart_url && last) {
    // The shop asked WooCommerce to go to the cart after each add; its own buttons do the same.
    location.assign(params.cart_url);
    return 'reloading';
  }
  try {
    // No button as the third argument: WooCommerce would put its "View cart" link after it.
    page.jQuery?.(document.body).trigger('added_to_cart', [data.fragments, data.cart_hash]);
  } catch (error) {
    console.error(`<tryon-button>: the theme's added_to_cart handler threw after the add: ${String(error)}`);
  }
  return 'added';
}

/** The fields of WooCommerce's product form for one product (or its variation), with the try-on's mark. */
function productFormFields(
  product: string,
  variation: string | undefined,
  tryon: string | undefined,
): Record<string, string> {
  return {
    'add-to-cart': product,
    product_id: product,
    quantity: '1',
    ...(variation ? { variation_id: variation } : {}),
    ...wooCommerceLineFields(tryon),
  };
}

/** WooCommerce's product form, posted: what a theme without its AJAX script does (a page load). */
function postProductForm(product: string, variation: string | undefined, tryon: string | undefined): void {
  const form = document.createElement('form');
  form.method = 'post';
  form.action = location.href;
  form.hidden = true;
  const fields = productFormFields(product, variation, tryon);
  for (const [name, value] of Object.entries(fields)) {
    const input = document.createElement('input');
    input.type = 'hidden';
    input.name = name;
    input.value = value;
    form.append(input);
  }
  document.body.append(form);
  form.submit();
}
