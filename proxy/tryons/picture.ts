// The picture a try-on is of: the shopper's photo, or one of the shop's models. POST /tryons asks
// it once per try-on (routes/tryons.ts).
import { ProxyError } from '../http/errors.js';
import { modelOf, type VariantEntry } from '../catalog/catalog.js';
import { openUnforgotten, type PhotoRevocations } from '../photos/revocations.js';
import type { GarmentFiles } from '../catalog/garment-files.js';
import type { HandleSigner } from '../security/handles.js';
import type { ProxyLimits } from '../limits/limits.js';
import type { TryonRequest } from './request.js';

/**
 * The picture the try-on is of: the shopper's photo (its handle, unless forgotten), or one of the
 * shop's models the product lists (422 unknown_model otherwise), uploaded upstream once for the
 * cluster like a garment. A model try-on is counted per shopper, model and product where a photo's
 * are counted per photo (the per-photo cap), under an id no photo handle can have.
 */
export async function pictureOf(
  services: {
    handles: HandleSigner;
    revocations: PhotoRevocations;
    garmentFiles: GarmentFiles;
    /** The keyed hash a model try-on's id is made of (as an idempotency key is). */
    idempotencyKey: (parts: string[]) => Promise<string>;
    now: () => number;
    limits: Pick<ProxyLimits, 'photoTtlSeconds'>;
  },
  client: string,
  product: VariantEntry,
  request: TryonRequest,
): Promise<{
  id: string;
  fileId: string;
  expiresAt: number;
  phoneConsent?: { version: string; language: string } | undefined;
  /** A model's picture: the catalog image its file was uploaded from (uploaded again if upstream forgets it). */
  catalogImage?: string | undefined;
}> {
  if (request.model === undefined) return openUnforgotten(services, 'photo', request.photo!);
  const model = modelOf(product, request.model);
  if (!model) throw new ProxyError(422, 'unknown_model', 'This model is not offered for this product.');
  const fileId = await services.garmentFiles.fileId(model.image, 'person');
  const id = `model-${(await services.idempotencyKey(['model', model.id, product.id, client])).slice(0, 24)}`;
  return {
    id,
    fileId,
    expiresAt: Math.floor(services.now() / 1000) + services.limits.photoTtlSeconds,
    catalogImage: model.image,
  };
}
