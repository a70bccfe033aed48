// `npx tryon-proxy check-catalog`: whether a catalog's images are fit for try-ons the fidelity check
// can vouch for, before a shop goes live. Each garment image (a product's, a variant's) and each
// reference model photo is read as the check reads it, and the problems a merchant can fix are
// named: an image too small, a ground the check cannot separate from the garment, two variants
// whose images are nearly the same colour (a likely mix-up), a model photo that is not full
// length, an image the check cannot read. Web-standard: the reading of files and URLs is given
// (node.ts reads files beside the catalog and fetches URLs with the catalog's own bounds).
import { catalogImages, parseCatalog } from '../catalog/catalog.js';
import type { CatalogImage } from '../catalog/catalog.js';
import { deltaE2000 } from './colour.js';
import { boxOf, groundOf, largestPart } from './ground.js';
import { garmentPalette } from './palette.js';
import { readPicture, UnreadablePicture } from './picture.js';

/** One problem, in the words a merchant acts on. */
export interface CatalogProblem {
  product: string;
  variant?: string;
  model?: string;
  /** The image, as the catalog names it. */
  image: string;
  what: string;
  why: string;
  todo: string;
}

/** Below this on its long side a garment image is too small to show its colours and its border. */
export const LEAST_SIDE = 512;
/** Two variants whose images' main colours are nearer than this (CIEDE2000) look alike: a likely mix-up. */
export const ALIKE_BELOW = 5;
/** A ground (what joins the image's edge) covering less than this share did not separate. */
const LEAST_GROUND = 0.03;
/** A garment covering less than this share of its own image is lost in it. */
const LEAST_GARMENT = 0.08;
/** A full-length model photo's figure spans at least this share of its height, clear of the bottom edge. */
const FULL_LENGTH = 0.7;

const owner = (image: CatalogImage) => ({
  product: image.product,
  ...(image.variant !== undefined ? { variant: image.variant } : {}),
  ...(image.model !== undefined ? { model: image.model } : {}),
});

/** A model photo must show the model head to feet: a garment's reach cannot be rendered or checked otherwise. */
function fullLength(picture: ReturnType<typeof readPicture>, say: (what: string, why: string, todo: string) => void) {
  const figure = largestPart(groundOf(picture).ground, picture.width, picture.height);
  const box = boxOf(figure, picture.width, picture.height, (v) => v === 1);
  const span = box ? (box.bottom - box.top + 1) / picture.height : 0;
  const cut = box ? box.bottom >= picture.height - 1 || box.top <= 0 : true;
  if (box && span >= FULL_LENGTH && !cut) return;
  say(
    'model photo not full length',
    box
      ? `the figure spans ${Math.round(span * 100)} % of the photo's height${cut ? ' and is cut by its edge' : ''}, so how far the garment reaches cannot be rendered or checked`
      : 'no figure stands apart from the ground',
    'give a photo of the model head to feet, with ground above and below',
  );
}

/** The problems of one image, and its palette's main colour when it has one (for the mix-up check). */
function auditImage(
  image: CatalogImage,
  bytes: Uint8Array,
  problems: CatalogProblem[],
): ReturnType<typeof garmentPalette> | null {
  const say = (what: string, why: string, todo: string) =>
    problems.push({ ...owner(image), image: image.path, what, why, todo });
  let picture: ReturnType<typeof readPicture>;
  try {
    picture = readPicture(bytes);
  } catch (error) {
    const reason = error instanceof UnreadablePicture ? error.message : (error as Error).message;
    say(
      'image the fidelity check cannot read',
      `${reason}: every try-on of it would be "unchecked"`,
      'give it as a JPEG or PNG',
    );
    return null;
  }
  const { width, height } = picture.source;
  if (image.field !== 'modelImage' && Math.max(width, height) < LEAST_SIDE)
    say(
      'image too small',
      `${width} × ${height} px: its colours and border are too few pixels to render or check`,
      `give it at least ${LEAST_SIDE} px on its long side`,
    );
  if (image.field === 'modelImage') {
    fullLength(picture, say);
    return null;
  }
  const palette = garmentPalette(picture);
  if (!picture.transparent && palette.groundShare < LEAST_GROUND)
    say(
      'busy ground',
      'nothing around the garment joins the edge in plain, even colour, so the garment cannot be told from its ground',
      'photograph it on a plain, evenly lit ground, or give a cut-out PNG with a transparent ground',
    );
  // A model photo's figure is judged whole below: cut by the edge, it joins the ground.
  else if (image.field === 'garmentImage' && palette.garmentShare < LEAST_GARMENT)
    say(
      'garment lost in its image',
      `the garment covers ${Math.round(palette.garmentShare * 100)} % of the image`,
      'crop the image to the garment',
    );
  if (image.field === 'referencePersonImage') fullLength(picture, say);
  return palette.colours.length > 0 ? palette : null;
}

/**
 * Every problem of the catalog's images. `read` gives an image's bytes by the catalog's path (a
 * file beside the catalog, or a URL); a failed read is a problem of its own.
 */
export async function auditCatalog(
  catalog: unknown,
  read: (path: string) => Promise<Uint8Array>,
): Promise<{ images: number; problems: CatalogProblem[] }> {
  const images = catalogImages(parseCatalog(catalog));
  const problems: CatalogProblem[] = [];
  const palettes = new Map<CatalogImage, NonNullable<ReturnType<typeof auditImage>>>();
  for (const image of images) {
    let bytes: Uint8Array;
    try {
      bytes = await read(image.path);
    } catch (error) {
      problems.push({
        ...owner(image),
        image: image.path,
        what: 'image unreadable',
        why: (error as Error).message,
        todo: 'put the file where the catalog says (paths are relative to the catalog), or fix its URL',
      });
      continue;
    }
    const palette = auditImage(image, bytes, problems);
    if (palette) palettes.set(image, palette);
  }
  // Variants of one product whose images look alike: likely the same picture under two names.
  const byProduct = new Map<string, CatalogImage[]>();
  for (const image of palettes.keys())
    if (image.field !== 'modelImage') byProduct.set(image.product, [...(byProduct.get(image.product) ?? []), image]);
  for (const [product, list] of byProduct)
    for (let i = 0; i < list.length; i++)
      for (let j = i + 1; j < list.length; j++) {
        const [a, b] = [list[i]!, list[j]!];
        if (a.path === b.path) continue;
        const difference = deltaE2000(palettes.get(a)!.colours[0]!.lab, palettes.get(b)!.colours[0]!.lab);
        if (difference < ALIKE_BELOW)
          problems.push({
            product,
            ...(b.variant !== undefined ? { variant: b.variant } : {}),
            image: b.path,
            what: 'variants nearly the same colour',
            why: `its main colour is ΔE ${difference.toFixed(1)} from ${a.variant === undefined ? "the product's own image" : `variant "${a.variant}"`} (${a.path}): a shopper could not tell them apart, and a mix-up would pass unseen`,
            todo: "check that each variant's image shows that variant's colour",
          });
      }
  return { images: images.length, problems };
}

/** The report a merchant reads: one line per problem (product, variant, what, why, what to do), then the verdict. */
export function auditReport(result: { images: number; problems: CatalogProblem[] }): string {
  const lines = result.problems.map((p) => {
    const who =
      p.model !== undefined
        ? `model "${p.model}"`
        : `product "${p.product}"${p.variant !== undefined ? `, variant "${p.variant}"` : ''}`;
    return `${who}: ${p.what} (${p.image}): ${p.why}. To do: ${p.todo}.`;
  });
  const count = result.problems.length;
  lines.push(
    count === 0
      ? `check-catalog: ${result.images} images checked, no problems: fit to go live.`
      : `check-catalog: ${result.images} images checked, ${count} problem${count === 1 ? '' : 's'}: not fit to go live.`,
  );
  return lines.join('\n');
}
