// A garment image or a try-on output read into a small picture the check can afford to look at:
// JPEG by jpeg-js and PNG by fast-png (pure JavaScript, the same on Node and on Workers, no native
// module), then averaged down to ANALYSIS_SIDE on its long side, so the work after decoding does
// not grow with the image. Anything else (WebP, HEIC, a broken file) is said plainly, never guessed.
import { decode as decodeJpeg } from 'jpeg-js';
import { convertIndexedToRgb, decode as decodePng } from 'fast-png';

/** Long side of the picture the check looks at: enough for colours and a figure's extent, little work. */
export const ANALYSIS_SIDE = 160;

/** The most pixels a picture may have to be read at all (a 24-megapixel photo; anything larger is refused). */
export const MOST_PIXELS = 24_000_000;

/** A small picture: RGB bytes and an alpha byte per pixel, row by row. */
export interface SmallPicture {
  width: number;
  height: number;
  rgb: Uint8Array;
  alpha: Uint8Array;
  /** Whether the image had any transparency (a cut-out garment). */
  transparent: boolean;
  /** The image's own size, before it was made small. */
  source: { width: number; height: number };
}

export type PictureFormat = 'jpeg' | 'png';

/** What the bytes are, by their first bytes (never by what the sender declared). */
export function pictureFormat(bytes: Uint8Array): PictureFormat | 'webp' | 'other' {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.length >= 8 && bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47)
    return 'png';
  if (
    bytes.length >= 12 &&
    String.fromCharCode(...bytes.subarray(0, 4)) === 'RIFF' &&
    String.fromCharCode(...bytes.subarray(8, 12)) === 'WEBP'
  )
    return 'webp';
  return 'other';
}

/** Why a picture could not be read: a format the check does not read, or a file that does not decode. */
export class UnreadablePicture extends Error {
  constructor(
    readonly reason: 'unreadable_format' | 'undecodable' | 'too_large',
    message: string,
  ) {
    super(message);
  }
}

/** The image's size from its header alone, without decoding it (null: not a JPEG or PNG we can read). */
export function pictureSize(bytes: Uint8Array): { width: number; height: number } | null {
  const format = pictureFormat(bytes);
  if (format === 'png' && bytes.length >= 24) {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    return { width: view.getUint32(16), height: view.getUint32(20) };
  }
  if (format !== 'jpeg') return null;
  // Walk the markers to the first start-of-frame.
  let i = 2;
  while (i + 9 < bytes.length) {
    if (bytes[i] !== 0xff) {
      i++;
      continue;
    }
    const marker = bytes[i + 1]!;
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      i += 2;
      continue;
    }
    const length = (bytes[i + 2]! << 8) | bytes[i + 3]!;
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc)
      return { height: (bytes[i + 5]! << 8) | bytes[i + 6]!, width: (bytes[i + 7]! << 8) | bytes[i + 8]! };
    i += 2 + length;
  }
  return null;
}

/** Full-size pixels, 3 or 4 bytes each. */
interface Decoded {
  width: number;
  height: number;
  data: Uint8Array;
  channels: 3 | 4;
}

function decodeJpegBytes(bytes: Uint8Array): Decoded {
  const image = decodeJpeg(bytes, {
    useTArray: true,
    formatAsRGBA: false,
    maxResolutionInMP: MOST_PIXELS / 1e6,
    maxMemoryUsageInMB: 256,
  });
  return { width: image.width, height: image.height, data: image.data, channels: 3 };
}

function decodePngBytes(bytes: Uint8Array): Decoded {
  const png = decodePng(bytes);
  if (png.width * png.height > MOST_PIXELS) throw new UnreadablePicture('too_large', 'the PNG is too large to read');
  let data: Uint8Array;
  let channels = png.channels;
  if (png.palette) {
    data = convertIndexedToRgb(png);
    channels = png.palette[0]?.length === 4 || png.transparency ? 4 : 3;
    if (data.length === png.width * png.height * 4) channels = 4;
    else if (data.length === png.width * png.height * 3) channels = 3;
  } else if (png.depth === 16) {
    const wide = png.data as Uint16Array;
    data = new Uint8Array(wide.length);
    for (let i = 0; i < wide.length; i++) data[i] = wide[i]! >> 8;
  } else if (png.depth === 8) data = png.data as Uint8Array;
  else throw new UnreadablePicture('unreadable_format', `PNG of ${png.depth} bits per sample`);
  const count = png.width * png.height;
  // Grey (with or without alpha) widened to RGB(A).
  if (channels === 1 || channels === 2) {
    const wide = new Uint8Array(count * (channels + 2));
    for (let i = 0; i < count; i++) {
      const v = data[i * channels]!;
      const o = i * (channels + 2);
      wide[o] = v;
      wide[o + 1] = v;
      wide[o + 2] = v;
      if (channels === 2) wide[o + 3] = data[i * 2 + 1]!;
    }
    data = wide;
    channels += 2;
  }
  if (channels !== 3 && channels !== 4)
    throw new UnreadablePicture('unreadable_format', `PNG with ${channels} channels`);
  return { width: png.width, height: png.height, data, channels };
}

/** The image decoded and averaged down to at most `side` pixels on its long side. */
export function readPicture(bytes: Uint8Array, side = ANALYSIS_SIDE): SmallPicture {
  const format = pictureFormat(bytes);
  if (format === 'webp' || format === 'other')
    throw new UnreadablePicture(
      'unreadable_format',
      format === 'webp' ? 'WebP is not read by the check' : 'not a JPEG or PNG',
    );
  const size = pictureSize(bytes);
  if (size && size.width * size.height > MOST_PIXELS)
    throw new UnreadablePicture('too_large', `${size.width} × ${size.height} is more than the check reads`);
  let decoded: Decoded;
  try {
    decoded = format === 'jpeg' ? decodeJpegBytes(bytes) : decodePngBytes(bytes);
  } catch (error) {
    if (error instanceof UnreadablePicture) throw error;
    throw new UnreadablePicture(
      'undecodable',
      `the ${format.toUpperCase()} does not decode: ${(error as Error).message}`,
    );
  }
  if (decoded.width < 1 || decoded.height < 1) throw new UnreadablePicture('undecodable', 'the image is empty');
  return smaller(decoded, side);
}

/** Box-averaged down (colour weighted by alpha, so a cut-out's edge does not darken). */
function smaller(image: Decoded, side: number): SmallPicture {
  const { width, height, data, channels } = image;
  const scale = Math.min(1, side / Math.max(width, height));
  const w = Math.max(1, Math.round(width * scale));
  const h = Math.max(1, Math.round(height * scale));
  const sums = new Float64Array(w * h * 4);
  const counts = new Uint32Array(w * h);
  const xs = new Uint32Array(width);
  for (let x = 0; x < width; x++) xs[x] = Math.min(w - 1, Math.floor((x * w) / width));
  for (let y = 0; y < height; y++) {
    const row = Math.min(h - 1, Math.floor((y * h) / height)) * w;
    let p = y * width * channels;
    for (let x = 0; x < width; x++, p += channels) {
      const cell = row + xs[x]!;
      const a = channels === 4 ? data[p + 3]! : 255;
      const o = cell * 4;
      sums[o] = sums[o]! + data[p]! * a;
      sums[o + 1] = sums[o + 1]! + data[p + 1]! * a;
      sums[o + 2] = sums[o + 2]! + data[p + 2]! * a;
      sums[o + 3] = sums[o + 3]! + a;
      counts[cell] = counts[cell]! + 1;
    }
  }
  const rgb = new Uint8Array(w * h * 3);
  const alpha = new Uint8Array(w * h);
  let transparent = false;
  for (let i = 0; i < w * h; i++) {
    const o = i * 4;
    const weight = sums[o + 3]!;
    if (weight > 0) {
      rgb[i * 3] = Math.round(sums[o]! / weight);
      rgb[i * 3 + 1] = Math.round(sums[o + 1]! / weight);
      rgb[i * 3 + 2] = Math.round(sums[o + 2]! / weight);
    }
    alpha[i] = Math.round(weight / Math.max(1, counts[i]!));
    if (alpha[i]! < 250) transparent = true;
  }
  return { width: w, height: h, rgb, alpha, transparent, source: { width, height } };
}
