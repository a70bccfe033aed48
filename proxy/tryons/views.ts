// Which views a try-on renders: the catalog offers them, the browser may only narrow the choice.
// A video is one front view, and only where the product offers video.
import { ProxyError } from '../http/errors.js';
import type { ProductEntry, View } from '../catalog/catalog.js';

export function viewsToRender(
  product: ProductEntry,
  output: 'image' | 'video',
  requested: string[] | undefined,
): View[] {
  if (output === 'video') {
    if (!product.video) throw new ProxyError(422, 'video_not_offered', 'This product does not offer a video try-on.');
    return ['front'];
  }
  if (!requested) return [...product.views];
  const offered = new Set<string>(product.views);
  const refused = requested.filter((v) => !offered.has(v));
  if (refused.length > 0)
    throw new ProxyError(422, 'view_not_offered', `This product does not offer the view ${refused.join(', ')}.`);
  // Kept in the catalog's order, once each, so the same choice gives the same idempotency key.
  return product.views.filter((v) => requested.includes(v));
}
