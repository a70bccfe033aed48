// GET /products/{id}: what this product's try-on offers, so the widget shows only that, how long
// the proxy keeps a photo and a result, so the consent step can say so, and how long its try-on
// usually takes here, so the progress step can.
import { Hono } from 'hono';
import { ProxyError } from '../http/errors.js';
import { rateLimit } from '../limits/rate-limit.js';
import { retentionOf } from '../tryons/consent-log.js';
import { fullBodyOf, modelOf, productAsVariant, variantList, type ProductEntry } from '../catalog/catalog.js';
import { productImageOf } from '../tryons/upstream-body.js';
import { colourDraftsOf, firstLookOf } from '../tryons/first-look.js';
import { availabilityOf } from '../tryons/availability.js';
import type { ProxyServices } from './services.js';
import type { ProxyEnv } from '../http/request-facts.js';
import { noStoreJson } from '../http/no-store-json.js';

/** What these routes use of the shared services: no more, so a change elsewhere cannot reach them unseen. */
type ProductServices = Pick<
  ProxyServices,
  'client' | 'findProduct' | 'garmentFiles' | 'limits' | 'prices' | 'publicUrl' | 'reads' | 'spend' | 'times'
>;

/**
 * The product's variants, each with its swatch: the URL of its own garment image (or reference
 * person), served below, which the widget shows beside a result whose colours may differ.
 */
function variantsWithSwatches(product: ProductEntry, base: string): { id: string; name: string; swatch: string }[] {
  return variantList(product).map((variant) => ({ ...variant, swatch: imageUrl(base, product, variant.id) }));
}

/** Where this proxy serves a product's picture (its garment image, or the reference person), or one variant's. */
function imageUrl(base: string, product: ProductEntry, variant?: string): string {
  return `${base}/${encodeURIComponent(product.id)}/image${variant ? `?variant=${encodeURIComponent(variant)}` : ''}`;
}

/** The pieces a product lists that can be tried on now, in the catalog's order. */
async function pairsOf(
  services: ProductServices,
  product: ProductEntry,
  base: string,
): Promise<
  { product: string; name: string; image: string; variants: { id: string; name: string; swatch: string }[] }[]
> {
  const pieces = await Promise.all(
    (product.pairsWith ?? []).map(async (id) => {
      // A shop's own lookup may not know a piece it lists: it is left out, as an unavailable one is.
      const piece = await services.findProduct(id);
      if (!piece || !(await availabilityOf(services, piece)).available) return undefined;
      return {
        product: piece.id,
        name: piece.name ?? piece.id,
        image: imageUrl(base, piece),
        variants: variantsWithSwatches(piece, base),
      };
    }),
  );
  return pieces.filter((piece) => piece !== undefined);
}

export function productRoutes(services: ProductServices): Hono<ProxyEnv> {
  const app = new Hono<ProxyEnv>();
  const reads = rateLimit(services.reads, services.client);
  app.get('/:product', reads, async (c) => {
    const product = await services.findProduct(c.req.param('product'));
    if (!product) throw new ProxyError(404, 'unknown_product', 'This product has no try-on.');
    // A model's picture is served from here, beside the product (the catalog's path never reaches the browser).
    const base = services.publicUrl
      ? `${services.publicUrl.replace(/\/+$/, '')}/products`
      : c.req.path.slice(0, c.req.path.lastIndexOf('/'));
    // The budget changes with every try-on: no cache may keep an old "available".
    return noStoreJson({
      product: product.id,
      name: product.name,
      mode: product.mode,
      garment: product.garment,
      views: product.views,
      video: product.video !== undefined,
      tier: product.tier,
      // Always a list ([] when the product has none), so a client needs no second case; each with
      // its swatch, as the product has its own: the picture a result's colours are checked against.
      variants: variantsWithSwatches(product, base),
      swatch: imageUrl(base, product),
      // The shop's models the product may be seen on ("See it on a model"); [] when none.
      models: (product.models ?? []).map((model) => ({
        id: model.id,
        name: model.name,
        image: `${base}/${encodeURIComponent(product.id)}/models/${encodeURIComponent(model.id)}`,
      })),
      // How long this proxy keeps answering for a photo and a result: the widget states it at consent.
      retention: retentionOf(services.limits),
      // Whether a try-on starts a first look beside it, and how many colour drafts a photo may make (0: off).
      preview: firstLookOf(product),
      colourPreviews: colourDraftsOf(product),
      // Whether the widget's photo check asks for the whole body, head to feet (catalog `fullBody`, else by category).
      fullBody: product.fullBody ?? fullBodyOf(product.garment.category),
      // Seconds a try-on of it usually takes on this upstream (the median of the recent ones, else
      // what the proxy was told): image[n - 1] for n of its views, video when it offers one.
      typicalSeconds: await services.times.product(product.tier, product.views.length, product.video !== undefined),
      // Pieces that complete the look ("Complete the look"): the available ones, each with its own
      // picture (served below) and variants shaped as this product's own; [] when none.
      pairs: await pairsOf(services, product, base),
      // available: false (with unavailableReason "disabled" or "daily_budget_reached"): the widget hides its button.
      ...(await availabilityOf(services, product)),
    });
  });
  // A product's picture (a piece's for "Complete the look", a swatch beside a result whose colours
  // may differ): the catalog's image of it or of one variant (its garment, or the reference person
  // wearing it), served from here so the catalog's path never reaches the browser.
  app.get('/:product/image', reads, async (c) => {
    const product = await services.findProduct(c.req.param('product'));
    if (!product || product.enabled === false)
      throw new ProxyError(404, 'unknown_product', 'This product has no try-on.');
    const chosen = productAsVariant(product, c.req.query('variant') || undefined);
    if (!chosen) throw new ProxyError(404, 'unknown_variant', 'This product has no such variant.');
    const { bytes, contentType } = await services.garmentFiles.picture(productImageOf(chosen).path);
    return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
      'content-type': contentType,
      'cache-control': 'public, max-age=3600',
      'x-content-type-options': 'nosniff',
    });
  });
  // A model's picture: the shop's own, so it may be cached like any product image.
  app.get('/:product/models/:model', reads, async (c) => {
    const product = await services.findProduct(c.req.param('product'));
    if (!product) throw new ProxyError(404, 'unknown_product', 'This product has no try-on.');
    const model = modelOf(product, c.req.param('model'));
    if (!model) throw new ProxyError(404, 'unknown_model', 'This model is not offered for this product.');
    const { bytes, contentType } = await services.garmentFiles.picture(model.image);
    return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
      'content-type': contentType,
      'cache-control': 'public, max-age=3600',
      'x-content-type-options': 'nosniff',
    });
  });
  return app;
}
