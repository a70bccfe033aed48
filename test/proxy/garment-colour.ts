// Which colour a sandbox render shows on the body: how the variant tests tell one garment's
// try-on from another's without comparing whole images.
import sharp from 'sharp';

export interface Colour {
  r: number;
  g: number;
  b: number;
}

/** Mean colour of a render's torso (a band left of the middle, where the stand-in figure and a standing person wear the garment). */
export async function torsoColour(render: Uint8Array): Promise<Colour> {
  const { data, info } = await sharp(render).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const sum = { r: 0, g: 0, b: 0 };
  let count = 0;
  for (let y = Math.round(info.height * 0.4); y < info.height * 0.5; y++) {
    for (let x = Math.round(info.width * 0.38); x < info.width * 0.45; x++) {
      const at = (y * info.width + x) * 3;
      sum.r += data[at]!;
      sum.g += data[at + 1]!;
      sum.b += data[at + 2]!;
      count++;
    }
  }
  return { r: sum.r / count, g: sum.g / count, b: sum.b / count };
}

/** Distance between two colours in RGB. */
export const colourDistance = (a: Colour, b: Colour): number => Math.hypot(a.r - b.r, a.g - b.g, a.b - b.b);
