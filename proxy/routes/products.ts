// GET /products/{id}: what this product's try-on offers, so the widget shows only that, and how
// long the proxy keeps a photo and a result, so the consent step can say so.
import { Hono } from 'hono';
import { ProxyError } from '../errors.js';
import { rateLimit } from '../middleware/rate-limit.js';
import { retentionOf } from '../tryon/consent-log.js';
import { fullBodyOf, variantList } from '../catalog.js';
import { colourPreviewsOf, firstLookOf } from '../tryon/first-look.js';
import { availabilityOf } from '../availability.js';
import type { ProxyServices, ProxyEnv } from '../context.js';

export function productRoutes(services: ProxyServices): Hono<ProxyEnv> {
  const app = new Hono<ProxyEnv>();
  app.get('/:product', rateLimit(services.reads, services.client), async (c) => {
    const product = await services.findProduct(c.req.param('product'));
    if (!product) throw new ProxyError(404, 'unknown_product', 'This product has no try-on.');
    // The budget changes with every try-on: no cache may keep an old "available".
    c.header('cache-control', 'no-store');
    return c.json({
      product: product.id,
      name: product.name,
      mode: product.mode,
      garment: product.garment,
      views: product.views,
      video: product.video !== undefined,
      tier: product.tier,
      // Always a list ([] when the product has none), so a client needs no second case.
      variants: variantList(product),
      // How long this proxy keeps answering for a photo and a result: the widget states it at consent.
      retention: retentionOf(services.limits),
      // Whether a try-on starts a first look beside it, and how many colour previews a photo may make (0: off).
      preview: firstLookOf(product),
      colourPreviews: colourPreviewsOf(product),
      // Whether the widget's photo check asks for the whole body, head to feet (catalog `fullBody`, else by category).
      fullBody: product.fullBody ?? fullBodyOf(product.garment.category),
      // available: false (with unavailableReason "disabled" or "daily_budget_reached"): the widget hides its button.
      ...(await availabilityOf(services, product)),
    });
  });
  return app;
}
