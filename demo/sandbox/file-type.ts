import sharp from 'sharp';

export type ImageType = 'image/png' | 'image/jpeg' | 'image/webp' | 'image/heic';

// HEIF brands that carry HEVC images (what phones call HEIC); AVIF's own brand is not one.
const heicBrands = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'hevm', 'hevs', 'mif1', 'msf1']);

const ascii = (bytes: Uint8Array, start: number, end: number) =>
  String.fromCharCode(...bytes.subarray(start, end));

/** The type an upload really is, read from its first bytes; the declared type is never trusted. */
export function sniffImageType(bytes: Uint8Array): ImageType | undefined {
  if (bytes.length >= 8 && bytes[0] === 0x89 && ascii(bytes, 1, 4) === 'PNG' && bytes[4] === 0x0d && bytes[5] === 0x0a && bytes[6] === 0x1a && bytes[7] === 0x0a) return 'image/png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.length >= 12 && ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP') return 'image/webp';
  if (bytes.length >= 12 && ascii(bytes, 4, 8) === 'ftyp' && heicBrands.has(ascii(bytes, 8, 12))) return 'image/heic';
  return undefined;
}

/** Width and height after EXIF orientation, or undefined when this build cannot decode it (HEVC HEIC). */
export async function imageSize(bytes: Uint8Array): Promise<{ width: number; height: number } | undefined> {
  try {
    const meta = await sharp(bytes).metadata();
    if (!meta.width || !meta.height) return undefined;
    const turned = (meta.orientation ?? 1) >= 5;
    return turned ? { width: meta.height, height: meta.width } : { width: meta.width, height: meta.height };
  } catch {
    return undefined;
  }
}
