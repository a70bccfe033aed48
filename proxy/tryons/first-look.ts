// The first look and colour drafts: the draft tier used so a shopper sees something within
// seconds and tries every colour at draft cost. A first look is one draft, front-view image job
// started beside a try-on (image or video) from the same inputs; a colour draft is such a job on
// its own, for another listed colour. Both are always an image of the front view at the draft
// tier, whatever the product's own tier, views or output. What the browser and the shop see keeps
// the word "preview": the catalog's `preview` and `colourPreviews`, the request's
// `quality: "preview"`, the answers' `preview` and the codes `colour_previews_off` and
// `colour_preview_limit` are documented names.
import type { VariantEntry, View } from '../catalog/catalog.js';
import { ProxyError } from '../http/errors.js';
import type { TryonRequest } from './request.js';

/** The view and output every draft of this kind renders. */
export const DRAFT_VIEWS: View[] = ['front'];

/** Whether a try-on of this product starts a first look (the catalog's `preview`, else by tier). */
export function firstLookOf(product: VariantEntry): 'draft' | 'off' {
  return product.preview ?? (product.tier === 'draft' ? 'off' : 'draft');
}

/** How many colour drafts one photo may make of this product (0: the catalog has them off). */
export const colourDraftsOf = (product: VariantEntry): number => product.colourPreviews ?? 0;

/** The product as its draft: the same garment, mode, background, pose and provider, at the draft tier. */
export const asDraft = (product: VariantEntry): VariantEntry => ({ ...product, tier: 'draft' });

/**
 * The first look's idempotency key parts: the try-on's own key and a label, so it is derived from
 * the same request (a retry of either is the same job upstream, and the same reservation).
 */
export const firstLookKeyParts = (tryonKey: string): string[] => [tryonKey, 'first-look=draft'];

/** A colour draft is a draft of one listed colour of a product whose catalog turns them on. */
export function checkColourDraft(product: VariantEntry, request: TryonRequest): void {
  if (colourDraftsOf(product) === 0)
    throw new ProxyError(422, 'colour_previews_off', 'This product does not offer colour previews.');
  if (product.variant === undefined)
    throw new ProxyError(422, 'validation_failed', 'variant: a colour preview names one of the product’s colours.');
  if (request.output === 'video')
    throw new ProxyError(422, 'validation_failed', 'output: a colour preview is an image.');
  if (request.views && (request.views.length !== 1 || request.views[0] !== 'front')) {
    throw new ProxyError(422, 'validation_failed', 'views: a colour preview shows the front view only.');
  }
}
