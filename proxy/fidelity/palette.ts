// A garment's palette: its main colours and the share of the garment each covers, from the
// garment's own image with its ground removed. A flat-lay (a cut-out PNG, or a garment on plain
// paper) gives its whole foreground; a model photo (a reference person wearing the garment) gives
// the figure below the head, skin left out. The same grouping gives a try-on output's colours.
import { distance76, isSkinTone, labOf } from './colour.js';
import type { Lab } from './colour.js';
import { boxOf, groundOf } from './ground.js';
import type { SmallPicture } from './picture.js';

export interface PaletteColour {
  lab: Lab;
  /** Share of the pixels it was made from. */
  share: number;
}

/** Colours closer than this (CIE76) are one colour of the palette: a shade and its fold are one. */
const CLUSTER_RADIUS = 13;

/** The main colours of a set of CIELAB pixels: up to `most`, each covering at least `least` of them. */
export function mainColours(pixels: Lab[], most = 6, least = 0.03): PaletteColour[] {
  if (pixels.length === 0) return [];
  // Binned first (6 units a side), then the heaviest bins gather their neighbours.
  const bins = new Map<number, { n: number; L: number; a: number; b: number }>();
  for (const p of pixels) {
    const key = (Math.round(p.L / 6) + 64) * 65536 + (Math.round(p.a / 6) + 128) * 256 + (Math.round(p.b / 6) + 128);
    const bin = bins.get(key);
    if (bin) {
      bin.n++;
      bin.L += p.L;
      bin.a += p.a;
      bin.b += p.b;
    } else bins.set(key, { n: 1, L: p.L, a: p.a, b: p.b });
  }
  const list = [...bins.values()]
    .map((bin) => ({ n: bin.n, lab: { L: bin.L / bin.n, a: bin.a / bin.n, b: bin.b / bin.n }, taken: false }))
    .sort((x, y) => y.n - x.n);
  const colours: PaletteColour[] = [];
  for (const bin of list) {
    if (bin.taken) continue;
    let n = 0;
    let L = 0;
    let a = 0;
    let b = 0;
    for (const other of list) {
      if (other.taken || distance76(other.lab, bin.lab) > CLUSTER_RADIUS) continue;
      other.taken = true;
      n += other.n;
      L += other.lab.L * other.n;
      a += other.lab.a * other.n;
      b += other.lab.b * other.n;
    }
    colours.push({ lab: { L: L / n, a: a / n, b: b / n }, share: n / pixels.length });
  }
  return colours
    .sort((x, y) => y.share - x.share)
    .filter((c) => c.share >= least)
    .slice(0, most);
}

export interface GarmentPalette {
  colours: PaletteColour[];
  /** The image shows a person wearing the garment (its palette is taken below their head, skin left out). */
  modelPhoto: boolean;
  /** The ground's share of the image (near 0: nothing separated; near 1: hardly any garment). */
  groundShare: number;
  /** The garment's share of its own image, after the ground (and a model's skin) is taken out. */
  garmentShare: number;
  /** Share of the garment's pixels that are skin-coloured: such a garment cannot be told from skin. */
  skinShare: number;
  /** The figure's box in the small picture (model photos: from the head to the feet). */
  box: { left: number; top: number; right: number; bottom: number } | null;
}

/** The top of a figure that is its head: a model photo's palette starts below it. */
export const HEAD_SHARE = 0.16;

/** The garment's palette from its image. */
export function garmentPalette(picture: SmallPicture): GarmentPalette {
  const { width, height, rgb } = picture;
  const { ground, share } = groundOf(picture);
  const box = boxOf(ground, width, height, (v) => v === 0);
  const labs: Lab[] = [];
  if (!box) return { colours: [], modelPhoto: false, groundShare: share, garmentShare: 0, skinShare: 0, box };
  // A person's face and arms at the top of the foreground: a model photo.
  const headRows = Math.max(1, Math.round((box.bottom - box.top + 1) * HEAD_SHARE));
  let top = 0;
  let topSkin = 0;
  for (let y = box.top; y < box.top + headRows; y++)
    for (let x = box.left; x <= box.right; x++) {
      const i = y * width + x;
      if (ground[i]) continue;
      top++;
      if (isSkinTone(labOf(rgb[i * 3]!, rgb[i * 3 + 1]!, rgb[i * 3 + 2]!))) topSkin++;
    }
  const modelPhoto = top > 0 && topSkin / top >= 0.3;
  let skin = 0;
  let foreground = 0;
  for (let y = modelPhoto ? box.top + headRows : 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      if (ground[i]) continue;
      foreground++;
      const lab = labOf(rgb[i * 3]!, rgb[i * 3 + 1]!, rgb[i * 3 + 2]!);
      if (isSkinTone(lab)) {
        skin++;
        if (modelPhoto) continue;
      }
      labs.push(lab);
    }
  return {
    colours: mainColours(labs),
    modelPhoto,
    groundShare: share,
    garmentShare: labs.length / (width * height),
    skinShare: foreground ? skin / foreground : 0,
    box,
  };
}
