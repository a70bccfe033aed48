// A stand-in of Shopify's storefront cart endpoints, for the theme block's "Add to cart".
//
// The answer shapes are Shopify's documentation's: the Ajax API reference, Cart API
// (https://shopify.dev/docs/api/ajax/reference/cart, "Ajax API" as documented in 2025, the Ajax API
// has no versioned releases; its error texts as of the changelog entry "[Cart AJAX API] Inventory
// error message updates", 2025-03-04), and Bundled section rendering
// (https://shopify.dev/docs/api/ajax/section-rendering, "sections" on /cart/add.js):
// - POST {root}cart/add.js, JSON `{items: [{id, quantity}], sections?, sections_url?}`:
//   200 `{items: [line item…], sections?: {id: html}}`;
//   422 `{status: 422, message: "Cart Error", description: "The maximum quantity of this item is already in your cart."}`
//   when the variant has no more stock; 404 `{status: 404, message: "Cart Error", description: "Cannot find variant"}`
//   for an id the shop does not have.
// - POST {root}cart/update.js, JSON `{attributes: {name: value}}`: sets the cart's attributes (an
//   empty value removes one), answers the cart;
// - a line item's `properties` (`{items: [{id, quantity, properties}]}` on cart/add.js): kept on the
//   line; the same variant with other properties is another line, as Shopify keeps it;
// - GET {root}cart.js: the cart `{token, note, attributes, original_total_price, total_price,
//   total_discount, total_weight, item_count, items, requires_shipping, currency,
//   items_subtotal_price, cart_level_discount_applications}`.
// Only the fields those pages list for a line item that a theme reads are filled in; prices in
// the currency's subunit, as Shopify answers them.
import { Hono } from 'hono';

export interface StandInVariant {
  id: number;
  title: string;
  price: number;
  stock: number;
  productId: number;
  handle: string;
}

interface Line {
  variant: StandInVariant;
  quantity: number;
  properties: Record<string, string>;
}

export interface ShopifyCartStandIn {
  app: Hono;
  /** Every POST to cart/add.js, its JSON body as sent. */
  adds: Record<string, unknown>[];
  /** The items in the cart now. */
  itemCount(): number;
  /** The cart's attributes now (cart/update.js). */
  attributes: Record<string, string>;
  /** Resolves once the cart's attributes satisfy `wanted` (at once when they do already). */
  attributesWhen(wanted: (attributes: Record<string, string>) => boolean): Promise<Record<string, string>>;
  /** The lines now: variant id, quantity and properties. */
  lines(): { id: number; quantity: number; properties: Record<string, string> }[];
}

/** The sections a theme asks for, rendered as Shopify would: each in its `.shopify-section` wrapper. */
function renderSection(id: string, itemCount: number): string | null {
  if (id === 'cart-icon-bubble') {
    return `<div id="shopify-section-cart-icon-bubble" class="shopify-section"><span class="cart-count-bubble"><span aria-hidden="true">${itemCount}</span></span></div>`;
  }
  return null;
}

export function shopifyCartStandIn(root: string, variants: StandInVariant[]): ShopifyCartStandIn {
  const lines: Line[] = [];
  const adds: Record<string, unknown>[] = [];
  const app = new Hono();
  const itemCount = () => lines.reduce((sum, line) => sum + line.quantity, 0);
  const attributes: Record<string, string> = {};
  const waiting = new Set<() => void>();
  const attributesWhen = (wanted: (attributes: Record<string, string>) => boolean) =>
    new Promise<Record<string, string>>((resolve) => {
      const check = () => {
        if (!wanted(attributes)) return;
        waiting.delete(check);
        resolve({ ...attributes });
      };
      waiting.add(check);
      check();
    });

  const lineItem = (line: Line) => ({
    id: line.variant.id,
    properties: line.properties,
    quantity: line.quantity,
    variant_id: line.variant.id,
    key: `${line.variant.id}:9f1c2b3a4d5e6f708192a3b4c5d6e7f8`,
    title: `Banarasi saree - ${line.variant.title}`,
    price: line.variant.price,
    original_price: line.variant.price,
    discounted_price: line.variant.price,
    line_price: line.variant.price * line.quantity,
    original_line_price: line.variant.price * line.quantity,
    final_price: line.variant.price,
    final_line_price: line.variant.price * line.quantity,
    total_discount: 0,
    discounts: [],
    product_id: line.variant.productId,
    product_has_only_default_variant: false,
    handle: line.variant.handle,
    url: `/products/${line.variant.handle}?variant=${line.variant.id}`,
    variant_title: line.variant.title,
    requires_shipping: true,
    gift_card: false,
  });

  app.post(`${root}cart/add.js`, async (c) => {
    const body = (await c.req.json().catch(() => undefined)) as
      | { items?: { id?: unknown; quantity?: unknown; properties?: Record<string, string> }[]; sections?: unknown }
      | undefined;
    adds.push(body as Record<string, unknown>);
    const wanted = body?.items ?? [];
    const added: Line[] = [];
    for (const item of wanted) {
      const variant = variants.find((v) => v.id === Number(item.id));
      if (!variant) return c.json({ status: 404, message: 'Cart Error', description: 'Cannot find variant' }, 404);
      const quantity = Number(item.quantity ?? 1);
      const properties = item.properties ?? {};
      const sameLine = (l: Line) =>
        l.variant.id === variant.id && JSON.stringify(l.properties) === JSON.stringify(properties);
      const line = lines.find(sameLine);
      const inCart = lines.filter((l) => l.variant.id === variant.id).reduce((sum, l) => sum + l.quantity, 0);
      if (inCart + quantity > variant.stock) {
        return c.json(
          {
            status: 422,
            message: 'Cart Error',
            description: 'The maximum quantity of this item is already in your cart.',
          },
          422,
        );
      }
      if (line) line.quantity += quantity;
      else lines.push({ variant, quantity, properties });
      added.push({ variant, quantity, properties });
    }
    const sectionIds =
      typeof body?.sections === 'string'
        ? body.sections.split(',')
        : Array.isArray(body?.sections)
          ? body.sections.map(String)
          : [];
    const sections = Object.fromEntries(sectionIds.map((id) => [id, renderSection(id, itemCount())]));
    return c.json({ items: added.map(lineItem), ...(sectionIds.length ? { sections } : {}) });
  });

  const cartJson = () => {
    const total = lines.reduce((sum, line) => sum + line.variant.price * line.quantity, 0);
    return {
      token: 'Z2NwLWV1cm9wZS13ZXN0MzoxMjM0NTY3ODkw?key=0123456789abcdef',
      note: null,
      attributes: { ...attributes },
      original_total_price: total,
      total_price: total,
      total_discount: 0,
      total_weight: 0,
      item_count: itemCount(),
      items: lines.map(lineItem),
      requires_shipping: lines.length > 0,
      currency: 'INR',
      items_subtotal_price: total,
      cart_level_discount_applications: [],
    };
  };

  app.get(`${root}cart.js`, (c) => c.json(cartJson()));

  app.post(`${root}cart/update.js`, async (c) => {
    const body = (await c.req.json().catch(() => undefined)) as { attributes?: Record<string, unknown> } | undefined;
    for (const [name, value] of Object.entries(body?.attributes ?? {})) {
      if (value === '' || value === null) delete attributes[name];
      else attributes[name] = String(value);
    }
    for (const check of [...waiting]) check();
    return c.json(cartJson());
  });

  const linesNow = () => lines.map((l) => ({ id: l.variant.id, quantity: l.quantity, properties: l.properties }));
  return { app, adds, itemCount, attributes, attributesWhen, lines: linesNow };
}
