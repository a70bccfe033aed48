// Where the garment goes on a person photo, and the garment itself as a semi-opaque layer: a
// flat-lay cut from its plain ground, or a reference person's outfit region cut from theirs (their
// face never transfers). An unreadable garment becomes a captioned stand-in, said so in the render's
// notes. Apart from render.ts, which lays this layer over the figure.
import sharp from 'sharp';
import { boundsOf } from './figure.js';
import type { Raw } from './figure.js';
import { maskOf, message, rawInput, rawOf, separable, withAlpha } from './pixels.js';
import { garmentStandInSvg } from './stand-ins.js';

/** How opaque the garment lies over the figure (a sandbox cannot really re-dress anyone). */
const garmentOpacity = 0.82;

/**
 * Where a worn garment goes on a person photo: from the shoulders to the hem, below the face.
 * Fractions of a full-length portrait (the demo's photos stand the figure in the middle 90%),
 * so a sandbox render covers the figure the way a real try-on would.
 */
export function bodyRegion(width: number, height: number) {
  const top = Math.round(height * 0.27);
  const bottom = Math.round(height * 0.95);
  return { top, height: Math.max(1, bottom - top), centre: width / 2, maxWidth: Math.max(1, Math.round(width * 0.7)) };
}

/** The part of a reference person's photo that is their outfit: the body region, never the face. */
function outfitRegion(width: number, height: number) {
  const region = bodyRegion(width, height);
  const left = Math.round(width * 0.2);
  return { left, top: region.top, width: Math.max(1, Math.round(width * 0.6)), height: region.height };
}

/**
 * The garment as a semi-opaque RGBA layer at its own proportions, as tall as the body region
 * (narrower if it would be wider than the photo allows). A flat-lay without alpha (a JPEG) has its
 * plain ground cut away; in person_to_person the source is the reference person's outfit region,
 * cut from their photo's ground, so their face and their wall never transfer.
 */
export async function garmentLayer(
  source: Uint8Array,
  fromPerson: boolean,
  region: { height: number; maxWidth: number },
  problem: (note: string) => void,
): Promise<{ layer: Buffer; width: number; height: number; raw: boolean }> {
  let picture: Raw;
  try {
    const hasAlpha = (await sharp(source).metadata()).hasAlpha;
    picture = await rawOf(sharp(source).rotate(), 4);
    if (fromPerson || !hasAlpha) {
      const { mask, groundShare } = await maskOf(picture);
      const [min, max] = fromPerson ? [0.15, 0.92] : [0.03, 0.9];
      if (separable(groundShare, min, max)) withAlpha(picture, mask);
      else if (fromPerson)
        problem("reference photo's ground could not be separated: its outfit region is drawn with its ground");
      else if (groundShare > max) problem('garment picture is one plain colour: drawn as a panel of that colour');
    }
    if (fromPerson) {
      const area = outfitRegion(picture.width, picture.height);
      picture = await rawOf(sharp(picture.data, rawInput(picture, 4)).extract(area), 4);
    }
    // Trim to what is drawn, so the garment's own edges, not its canvas, meet the body.
    const alpha = new Uint8Array(picture.width * picture.height);
    for (let i = 0; i < alpha.length; i++) alpha[i] = picture.data[i * 4 + 3]! > 16 ? 255 : 0;
    const box = boundsOf(alpha, picture.width, picture.height);
    if (!box) throw new Error('the picture is fully transparent');
    for (let i = 3; i < picture.data.length; i += 4) picture.data[i] = Math.round(picture.data[i]! * garmentOpacity);
    const { data, info } = await sharp(picture.data, rawInput(picture, 4))
      .extract(box)
      .resize({ width: region.maxWidth, height: region.height, fit: 'inside' })
      .raw()
      .toBuffer({ resolveWithObject: true });
    return { layer: data, width: info.width, height: info.height, raw: true };
  } catch (error) {
    problem(`garment picture could not be read (${message(error)}): a hatched stand-in is shown`);
    const width = Math.min(region.maxWidth, Math.round(region.height * 0.5));
    const layer = await sharp(garmentStandInSvg(width, region.height, message(error)))
      .png()
      .toBuffer();
    return { layer, width, height: region.height, raw: false };
  }
}
