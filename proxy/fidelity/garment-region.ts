// Where the garment can be in a try-on output, found without a model of the person: the figure is
// what does not connect to the picture's edge (the sandbox's and the API's backdrops, the caption
// band, are ground: ground.ts); its head (the top of the figure) is left out, and so is skin (the
// face, the arms, the hands, the feet), unless the garment itself is skin-coloured, when skin and
// garment cannot be told apart and skin stays in. What this cannot see is in docs/fidelity.md.
import { isSkinTone, labOf } from './colour.js';
import type { Lab } from './colour.js';
import { boxOf, groundOf, largestPart } from './ground.js';
import { HEAD_SHARE } from './palette.js';
import type { SmallPicture } from './picture.js';

export interface GarmentRegion {
  /** The region's pixels in CIELAB, and the row each is on. */
  pixels: Lab[];
  rows: Uint16Array;
  /** The figure's rows (head to feet), and how many figure pixels each row has. */
  figureTop: number;
  figureBottom: number;
  figureRows: Uint32Array;
  /** Pixels of the figure below its head (the region before skin was left out). */
  bodyPixels: number;
}

export function garmentRegion(picture: SmallPicture, keepSkin: boolean): GarmentRegion | null {
  const { width, height, rgb } = picture;
  const figure = largestPart(groundOf(picture).ground, width, height);
  const box = boxOf(figure, width, height, (v) => v === 1);
  if (!box) return null;
  const headRows = Math.round((box.bottom - box.top + 1) * HEAD_SHARE);
  const pixels: Lab[] = [];
  const rows: number[] = [];
  const figureRows = new Uint32Array(height);
  let bodyPixels = 0;
  for (let y = box.top; y <= box.bottom; y++)
    for (let x = box.left; x <= box.right; x++) {
      const i = y * width + x;
      if (!figure[i]) continue;
      figureRows[y]!++;
      if (y < box.top + headRows) continue;
      bodyPixels++;
      const lab = labOf(rgb[i * 3]!, rgb[i * 3 + 1]!, rgb[i * 3 + 2]!);
      if (!keepSkin && isSkinTone(lab)) continue;
      pixels.push(lab);
      rows.push(y);
    }
  return { pixels, rows: Uint16Array.from(rows), figureTop: box.top, figureBottom: box.bottom, figureRows, bodyPixels };
}
