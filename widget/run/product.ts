// What the product offers, as the proxy describes it: the views to ask for, the time to expect.
import type { ProductInfo } from '../api/proxy-client.js';

/**
 * A proxy that predates `typicalSeconds` says nothing of its upstream's speed: the hosted API's
 * stated slow case by tier (docs/upstream-api.md, "Time"; draft is the quick iteration tier).
 */
const olderProxySeconds: Record<string, number> = { draft: 10, standard: 25, premium: 60 };

/**
 * The time a try-on of this product usually takes, as the proxy measured it on its upstream (the
 * figure for this many views, or the video's); from an older proxy, the tier's slow case (a video
 * twice that).
 */
export function expectedMs(product: ProductInfo | undefined, output: 'image' | 'video', views = 1): number {
  const typical = product?.typicalSeconds;
  const told =
    output === 'video'
      ? typical?.video
      : typical?.image.length
        ? typical.image[Math.min(Math.max(1, views), typical.image.length) - 1]
        : undefined;
  // At least a second: what the step can say ("about 1 second"), and what "twice as long" is counted from.
  if (told !== undefined && Number.isFinite(told) && told > 0) return Math.max(1, told) * 1000;
  const seconds = olderProxySeconds[product?.tier ?? 'standard'] ?? 25;
  return (output === 'video' ? seconds * 2 : seconds) * 1000;
}

/** After this many times the usual time, the progress step says the try-on is taking longer than usual. */
export const LONGER_THAN_USUAL = 2;

/** The views to ask for: those the shop listed (comma-separated) that the product offers, else all it offers. */
export function requestedViews(product: ProductInfo | undefined, wanted: string): string[] {
  const offered = product?.views?.length ? product.views : ['front'];
  const listed = wanted
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
  const chosen = listed.length ? offered.filter((v) => listed.includes(v)) : offered;
  const views = chosen.length ? chosen : offered;
  // The front renders first upstream and anchors the other views; show it first too.
  return [...views].sort((a, b) => (a === 'front' ? -1 : b === 'front' ? 1 : 0));
}

/**
 * The variant to try on: the page's choice when the product lists it. A product that lists none
 * (its sizes share one garment), or a choice it does not list (a Shopify size id, a variant the
 * catalog has not caught up with), is tried on in the product's own garment rather than failing
 * the shopper with `unknown_variant`; the page's developer is told once in the console. A proxy
 * that predates variants lists nothing at all: the choice is passed on as it is.
 */
export function variantToTry(product: ProductInfo | undefined, chosen: string | undefined): string | undefined {
  if (!chosen || !product?.variants) return chosen;
  if (product.variants.some((variant) => variant.id === chosen)) return chosen;
  if (product.variants.length > 0) warnOnce(product.product, chosen);
  return undefined;
}

const warned = new Set<string>();
function warnOnce(product: string, variant: string): void {
  const key = `${product}\u0000${variant}`;
  if (warned.has(key)) return;
  warned.add(key);
  console.warn(
    `<tryon-button>: the proxy's catalog lists no variant "${variant}" of product "${product}"; trying on the product's own garment.`,
  );
}
