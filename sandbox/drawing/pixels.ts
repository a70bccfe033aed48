// Pictures as raw pixels through sharp, and a subject's mask at a picture's full size (figure.ts
// finds the subject on a small copy; this scales its mask back up, softly). Shared by the front
// render (render.ts) and the garment layer (garment-layer.ts).
import sharp from 'sharp';
import type { Sharp } from 'sharp';
import { subjectMask } from './figure.js';
import type { Raw } from './figure.js';

export const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

export async function rawOf(image: Sharp, channels: 3 | 4): Promise<Raw> {
  // toColourspace first: a greyscale (one band) or CMYK picture becomes three sRGB bands.
  const base = image.toColourspace('srgb');
  const { data, info } = await (channels === 4 ? base.ensureAlpha() : base.removeAlpha())
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels };
}

export const rawInput = (p: { width: number; height: number }, channels: 3 | 4 | 1 = 3) => ({
  raw: { width: p.width, height: p.height, channels },
});

/** Segmenting works on a copy this size (a full photo would take ~80 ms); the mask is scaled back up, softly. */
const maskSide = 384;

/** The subject's mask at the picture's size (one byte per pixel, soft-edged) and the ground's share. */
export async function maskOf(picture: Raw): Promise<{ mask: Uint8Array; groundShare: number }> {
  const small = await rawOf(
    sharp(picture.data, rawInput(picture, picture.channels as 3 | 4)).resize({
      width: maskSide,
      height: maskSide,
      fit: 'inside',
    }),
    3,
  );
  const { mask, groundShare } = subjectMask(small);
  const full = await sharp(Buffer.from(mask), rawInput(small, 1))
    .resize(picture.width, picture.height, { fit: 'fill', kernel: 'linear' })
    .extractChannel(0)
    .raw()
    .toBuffer();
  return { mask: new Uint8Array(full.buffer, full.byteOffset, full.byteLength), groundShare };
}

/** Replaces a picture's alpha with a subject mask (one byte per pixel). */
export function withAlpha(picture: Raw, mask: Uint8Array): void {
  for (let i = 0; i < mask.length; i++) picture.data[i * 4 + 3] = Math.min(picture.data[i * 4 + 3]!, mask[i]!);
}

/** A ground counts as separated when it is neither a sliver nor (nearly) the whole picture. */
export const separable = (share: number, min: number, max: number) => share >= min && share <= max;
