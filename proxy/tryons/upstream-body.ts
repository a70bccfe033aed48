// The /v1 try-on request made from a catalog product: everything that costs money (mode, garment,
// tier, background, pose, provider, video options) comes from the catalog, never the browser.
// With the try-ons rather than in upstream/, which sits below the catalog (the catalog uploads its
// images through it) and so cannot read a catalog product.
import type { ProductEntry, View } from '../catalog/catalog.js';

export interface TryonInput {
  product: ProductEntry;
  /** Upstream file id of the shopper's photo. */
  personFileId: string;
  /** Upstream file id of the product's garment image (or reference person image). */
  productFileId: string;
  views: View[];
  output: 'image' | 'video';
  idempotencyKey: string;
}

/** The catalog image a product's try-on is made from, and the kind it is uploaded as. */
export function productImageOf(product: ProductEntry): { path: string; kind: 'garment' | 'person' } {
  return product.mode === 'garment_to_person'
    ? { path: product.garmentImage!, kind: 'garment' }
    : { path: product.referencePersonImage!, kind: 'person' };
}

export function tryonRequestBody({
  product,
  personFileId,
  productFileId,
  views,
  output,
  idempotencyKey,
}: TryonInput): Record<string, unknown> {
  const images =
    product.mode === 'garment_to_person' ? { garment_image: productFileId } : { reference_person_image: productFileId };
  // What every try-on names, image or video: who, in what, at which tier, with consent, once.
  const common = {
    mode: product.mode,
    person_image: personFileId,
    ...images,
    garment: product.garment,
    tier: product.tier,
    consent_token: true,
    idempotency_key: idempotencyKey,
  };
  if (output === 'video') {
    return {
      ...common,
      duration_seconds: product.video?.durationSeconds ?? 5,
      fps: product.video?.fps ?? 24,
      motion: product.video?.motion ?? 'twirl',
      camera: product.video?.camera ?? 'orbit',
    };
  }
  return {
    ...common,
    views,
    background: product.background,
    provider: product.provider,
    ...(product.pose ? { pose: product.pose } : {}),
  };
}
