// What the product offers, as the proxy describes it: the views to ask for, the time to expect.
import type { ProductInfo } from './proxy-client.js';

/** Expected p95 render time by tier (tryon-api.md part 8; draft is the quick iteration tier). */
const expectedSeconds: Record<string, number> = { draft: 10, standard: 25, premium: 60 };

/** Expected time of a try-on of this product (a video takes twice as long). */
export function expectedMs(product: ProductInfo | undefined, output: 'image' | 'video'): number {
  const seconds = expectedSeconds[product?.tier ?? 'standard'] ?? 25;
  return (output === 'video' ? seconds * 2 : seconds) * 1000;
}

/** The views to ask for: those the shop listed (comma-separated) that the product offers, else all it offers. */
export function requestedViews(product: ProductInfo | undefined, wanted: string): string[] {
  const offered = product?.views?.length ? product.views : ['front'];
  const listed = wanted.split(',').map((v) => v.trim()).filter(Boolean);
  const chosen = listed.length ? offered.filter((v) => listed.includes(v)) : offered;
  const views = chosen.length ? chosen : offered;
  // The front renders first upstream and anchors the other views; show it first too.
  return [...views].sort((a, b) => (a === 'front' ? -1 : b === 'front' ? 1 : 0));
}
