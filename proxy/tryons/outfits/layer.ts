// A piece of an outfit: POST /tryons with `over: "<tryon handle>"` renders the piece on the
// finished result of that try-on. The base's handle is the proof that it is this shopper's (the
// proxy minted it for them; a forgotten photo's, or another proxy's, is 404 like any unknown
// handle), and what it carries decides the rest: the photo it was made from (its consent, its
// retention, its per-photo cap, and "forget my photo" reaching every layer), the pieces already
// in the outfit and the views it was rendered in. Its result becomes the person image of the next
// render, uploaded upstream as a person file once per output for the cluster (GarmentFiles).
import { ProxyError } from '../../http/errors.js';
import { openUnforgotten, type PhotoRevocations } from '../../photos/revocations.js';
import { pairsWith } from '../../catalog/pairs.js';
import type { GarmentFiles } from '../../catalog/garment-files.js';
import type { ProductEntry, VariantEntry, View } from '../../catalog/catalog.js';
import type { HandleSigner, OutfitPiece, TryonClaims } from '../../security/handles.js';
import type { TryonStatusBoard } from '../status-board.js';

/** The try-on a piece is rendered over, as POST /tryons uses it. */
export interface LayerBase {
  /** The base's claims: its photo's id is the layer's too. */
  claims: TryonClaims & { expiresAt: number };
  /** The outfit with this piece: the base's pieces (base first), then this one. */
  pieces: OutfitPiece[];
  /** The views the piece is rendered in: the base's (front first), or its front only. */
  views: View[];
  /** Upstream file id of the base's result as a person image, and of that result itself. */
  personFileId: string;
  outputFileId: string;
}

export const notAPair = () =>
  new ProxyError(422, 'not_a_pair', 'This piece does not go with that try-on: its product does not list it.');

/** The pieces a try-on's handle names: an outfit's own, or the try-on itself as the first piece. */
export const piecesOf = (claims: TryonClaims): OutfitPiece[] =>
  claims.pieces ?? [{ product: claims.product, ...(claims.variant === undefined ? {} : { variant: claims.variant }) }];

/**
 * Opens the try-on `over` names as the base for `piece`, or refuses: 404 invalid_handle (not this
 * proxy's, expired, or its photo forgotten), 422 not_a_pair (no product of the outfit lists the
 * piece, or it is in the outfit already), 422 outfit_too_long (more pieces than `outfitPieces`),
 * 409 base_not_ready (not succeeded, or a video: only an image can be worn under another piece).
 */
export async function openLayerBase(
  services: {
    handles: HandleSigner;
    revocations: PhotoRevocations;
    board: TryonStatusBoard;
    garmentFiles: GarmentFiles;
    findProduct: (id: string) => Promise<ProductEntry | undefined>;
    limits: { outfitPieces: number };
  },
  over: string,
  piece: VariantEntry,
  requestedViews: string[] | undefined,
): Promise<LayerBase> {
  const claims = await openUnforgotten(services, 'tryon', over);
  const pieces = piecesOf(claims);
  if (pieces.some((each) => each.product === piece.id)) {
    throw new ProxyError(422, 'not_a_pair', 'This piece is in that outfit already.');
  }
  const outfit = await Promise.all(pieces.map((each) => services.findProduct(each.product)));
  if (!outfit.some((product) => product && pairsWith(product, piece.id))) throw notAPair();
  if (pieces.length + 1 > services.limits.outfitPieces) {
    throw new ProxyError(
      422,
      'outfit_too_long',
      `An outfit holds at most ${services.limits.outfitPieces} pieces; remove one before adding another.`,
    );
  }
  const snapshot = await services.board.read(claims.jobId);
  if (snapshot.status !== 'succeeded' || claims.output !== 'image') {
    throw new ProxyError(
      409,
      'base_not_ready',
      claims.output === 'image'
        ? 'That try-on has not finished; add a piece once its result is shown.'
        : 'A piece is added over a picture, not over a video.',
    );
  }
  const views = layerViews(claims.views, piece, requestedViews);
  // The first view's result is the person the piece is put on: the front, unless the browser
  // narrowed the piece to another view, which is then layered on its own view.
  const front =
    snapshot.outputs.find((o) => o.type === 'image' && o.view === views[0]) ??
    snapshot.outputs.find((o) => o.type === 'image');
  if (!front) throw new ProxyError(409, 'base_not_ready', 'That try-on has no picture to add a piece to.');
  const personFileId = await services.garmentFiles.outputAsPerson(front.fileId);
  return {
    claims,
    pieces: [...pieces, { product: piece.id, ...(piece.variant === undefined ? {} : { variant: piece.variant }) }],
    views,
    personFileId,
    outputFileId: front.fileId,
  };
}

/**
 * The views of a piece: the base's, front first (the front is rendered first and keeps the person
 * the same in the others), or the front alone where the catalog says `layering: "front"`; the
 * browser may narrow them, as it may a product's.
 */
function layerViews(baseViews: string[], piece: ProductEntry, requested: string[] | undefined): View[] {
  const ordered = [...baseViews].sort((a, b) => Number(b === 'front') - Number(a === 'front')) as View[];
  const offered = piece.layering === 'front' ? ordered.slice(0, 1) : ordered;
  if (!requested) return offered;
  const refused = requested.filter((v) => !offered.includes(v as View));
  if (refused.length > 0)
    throw new ProxyError(422, 'view_not_offered', `This piece is not added in the view ${refused.join(', ')}.`);
  return offered.filter((v) => requested.includes(v));
}
