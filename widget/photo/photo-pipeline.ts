// The photo preparation itself: sniff → decode (with the EXIF orientation applied) → downscale to a
// long side of at most 2048 px → re-encode as JPEG, which leaves EXIF, GPS and XMP behind. It runs in
// the photo preparation's worker (prep/worker.ts) wherever the browser and the page's CSP allow
// one, and otherwise on the page (photo.ts), where `pause` yields to the page between the steps so
// that no single task holds it for the whole photo.
//
// HEIC (iPhone photos copied to a computer) only Safari decodes; elsewhere the decoder in heic.ts,
// a chunk of its own loaded only when such a photo is picked, turns it into pixels that take the
// same path.
import { JPEG_QUALITY, MAX_INPUT_BYTES, MAX_LONG_SIDE, MIN_SHORT_SIDE, PhotoError } from './rules.js';
import type { PhotoProblem, PreparedPhoto } from './rules.js';

/** A prepared photo, and which decoder read it (the tests check libheif is loaded only where needed). */
export interface Prepared extends PreparedPhoto {
  decoder: 'browser' | 'libheif';
}

/**
 * What the page asks the preparation's worker (prep/worker.ts) and what it answers. Written here, beside
 * the preparation, so that the page's side (photo.ts) and the worker share it without the page
 * importing the worker's folder.
 */
export interface PrepRequest {
  id: number;
  file: Blob;
}
export type PrepAnswer =
  | { id: number; photo: Prepared }
  /** The photo itself is refused (not an image, too small, too large, unreadable): the page shows why. */
  | { id: number; problem: PhotoProblem; message: string; facts: { width?: number; height?: number; sizeMb?: number } }
  /** The worker could not do it (a browser without a 2D OffscreenCanvas in workers): the page does it instead. */
  | { id: number; failed: string };

type Sniffed = 'jpeg' | 'png' | 'webp' | 'gif' | 'bmp' | 'avif' | 'heic' | 'unknown';

async function sniff(file: Blob): Promise<Sniffed> {
  const head = new Uint8Array(await file.slice(0, 16).arrayBuffer());
  const ascii = (from: number, to: number) => String.fromCharCode(...head.subarray(from, to));
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpeg';
  if (head[0] === 0x89 && ascii(1, 4) === 'PNG') return 'png';
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'webp';
  if (ascii(0, 3) === 'GIF') return 'gif';
  if (ascii(0, 2) === 'BM') return 'bmp';
  if (ascii(4, 8) === 'ftyp') {
    const brand = ascii(8, 12);
    if (brand.startsWith('avi')) return 'avif';
    if (['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'mif1', 'msf1'].includes(brand)) return 'heic';
  }
  return 'unknown';
}

function megabytes(bytes: number): number {
  return Math.round((bytes / (1024 * 1024)) * 10) / 10;
}

/** Draws the (already downscaled) bitmap onto a canvas's 2D context. */
function draw(
  context: OffscreenCanvasRenderingContext2D | CanvasRenderingContext2D | null,
  bitmap: ImageBitmap,
  width: number,
  height: number,
): void {
  if (!context) throw new PhotoError('unreadable', 'No 2D canvas is available.');
  context.imageSmoothingQuality = 'high';
  context.drawImage(bitmap, 0, 0, width, height);
}

/** Draws, lets the page breathe, then encodes: two tasks rather than one on the page. */
async function encodeJpeg(
  bitmap: ImageBitmap,
  width: number,
  height: number,
  pause: () => Promise<void>,
): Promise<Blob> {
  if (typeof OffscreenCanvas === 'function') {
    const canvas = new OffscreenCanvas(width, height);
    draw(canvas.getContext('2d'), bitmap, width, height);
    await pause();
    return canvas.convertToBlob({ type: 'image/jpeg', quality: JPEG_QUALITY });
  }
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  draw(canvas.getContext('2d'), bitmap, width, height);
  await pause();
  return new Promise((resolve, reject) => {
    canvas.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new PhotoError('unreadable', 'The photo could not be encoded.'))),
      'image/jpeg',
      JPEG_QUALITY,
    );
  });
}

/**
 * Turns the shopper's file into what is uploaded. Throws a PhotoError (with the figures for a
 * clear message) for a file that is not an image, too small or too large. `pause` runs between
 * the steps (a no-op in the worker; a yield to the page on the main thread).
 */
export async function preparePhotoHere(file: Blob, pause: () => Promise<void> = async () => {}): Promise<Prepared> {
  if (file.size > MAX_INPUT_BYTES) {
    throw new PhotoError('too_large', `The file is ${megabytes(file.size)} MB; the limit is 25 MB.`, {
      sizeMb: megabytes(file.size),
    });
  }
  const kind = await sniff(file);
  const claimsImage = file.type.startsWith('image/');
  if (kind === 'unknown' && !claimsImage) throw new PhotoError('not_image', 'The file is not an image.');

  // In a worker, WebCodecs' ImageDecoder where it reads the type: Firefox's createImageBitmap
  // decodes a worker's Blob on the page's main thread (a 250 ms task for 12 MP), its ImageDecoder
  // does not. The frame comes already turned by its EXIF orientation, and the draw below resamples it.
  const frame = await decodedFrame(file, kind);
  if (frame) {
    try {
      return await fromPicture(frame, frame.displayWidth, frame.displayHeight, pause);
    } finally {
      frame.close();
    }
  }

  let source: Blob | ImageData = file;
  let bitmap: ImageBitmap;
  let decoder: Prepared['decoder'] = 'browser';
  try {
    // A HEIC that a worker's ImageDecoder does not read goes straight to libheif: Firefox's
    // createImageBitmap would only try it on the page's main thread, and fail.
    if (kind === 'heic' && inWorkerWithDecoder()) throw new Error('no HEIC decoder in this browser');
    bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
  } catch {
    if (kind === 'unknown') throw new PhotoError('not_image', 'The file is not an image.');
    if (kind !== 'heic') throw new PhotoError('unreadable', 'The image could not be decoded.');
    source = await decodedHeic(file);
    decoder = 'libheif';
    await pause();
    if (typeof document === 'undefined') {
      // In the worker, the pixels go onto a canvas of their own rather than through createImageBitmap,
      // which Firefox runs on the page's main thread.
      const full = new OffscreenCanvas(source.width, source.height);
      // A software canvas (willReadFrequently): 48 MB of pixels are not worth a trip to the GPU.
      full.getContext('2d', { willReadFrequently: true })?.putImageData(source, 0, 0);
      return { ...(await fromPicture(full, full.width, full.height, pause)), decoder };
    }
    bitmap = await createImageBitmap(source);
  }

  try {
    const { outWidth, outHeight, scale } = finalSize(bitmap.width, bitmap.height);
    if (scale < 1) {
      // Resampling 12 MP on a canvas is a long task; the decoder can decode straight to the final size.
      await pause();
      const small = await downscaled(source, outWidth, outHeight);
      if (small) {
        bitmap.close();
        bitmap = small;
      }
    }
    await pause();
    const blob = await encodeJpeg(bitmap, outWidth, outHeight, pause);
    return { blob, width: outWidth, height: outHeight, type: 'image/jpeg', decoder };
  } finally {
    bitmap.close();
  }
}

/** The size the photo leaves at; throws for one too small. */
function finalSize(width: number, height: number): { outWidth: number; outHeight: number; scale: number } {
  if (Math.min(width, height) < MIN_SHORT_SIDE) {
    throw new PhotoError(
      'too_small',
      `The photo is ${width} × ${height} px; the shorter side must be at least ${MIN_SHORT_SIDE} px.`,
      { width, height },
    );
  }
  const scale = Math.min(1, MAX_LONG_SIDE / Math.max(width, height));
  return {
    outWidth: Math.max(1, Math.round(width * scale)),
    outHeight: Math.max(1, Math.round(height * scale)),
    scale,
  };
}

const DECODER_TYPES: Partial<Record<Sniffed, string>> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  heic: 'image/heic',
};

const inWorkerWithDecoder = () => typeof ImageDecoder === 'function' && typeof document === 'undefined';

/** The photo's first frame by ImageDecoder, in a worker that has it for this type; otherwise undefined (createImageBitmap then). */
async function decodedFrame(file: Blob, kind: Sniffed): Promise<VideoFrame | undefined> {
  const type = DECODER_TYPES[kind];
  if (!type || !inWorkerWithDecoder()) return undefined;
  try {
    if (!(await ImageDecoder.isTypeSupported(type))) return undefined;
    const decoder = new ImageDecoder({ data: file.stream(), type });
    try {
      return (await decoder.decode()).image;
    } finally {
      decoder.close();
    }
  } catch {
    return undefined; // createImageBitmap gets its chance, and says what is wrong with the file.
  }
}

/** A decoded picture drawn at its final size (the draw resamples it) and encoded: the worker's way. */
async function fromPicture(
  picture: VideoFrame | OffscreenCanvas,
  width: number,
  height: number,
  pause: () => Promise<void>,
): Promise<Prepared> {
  const { outWidth, outHeight } = finalSize(width, height);
  const canvas = new OffscreenCanvas(outWidth, outHeight);
  const context = canvas.getContext('2d');
  if (!context) throw new PhotoError('unreadable', 'No 2D canvas is available.');
  // The decoder's own high-quality resize where it has one (smoother, so a smaller JPEG), else the draw resamples.
  const small = await createImageBitmap(picture, {
    resizeWidth: outWidth,
    resizeHeight: outHeight,
    resizeQuality: 'high',
  }).catch(() => undefined);
  context.imageSmoothingQuality = 'high';
  context.drawImage(small ?? picture, 0, 0, outWidth, outHeight);
  small?.close();
  await pause();
  const blob = await canvas.convertToBlob({ type: 'image/jpeg', quality: JPEG_QUALITY });
  return { blob, width: outWidth, height: outHeight, type: 'image/jpeg', decoder: 'browser' };
}

/** A HEIC the browser cannot decode, decoded by libheif (fetched on first use). */
async function decodedHeic(file: Blob): Promise<ImageData> {
  try {
    const { decodeHeic } = await import('./heic.js');
    return await decodeHeic(file);
  } catch {
    throw new PhotoError('unreadable', 'The HEIC photo could not be decoded.');
  }
}

/** The photo decoded again at its final size, or undefined where the browser cannot resize so. */
async function downscaled(source: Blob | ImageData, width: number, height: number): Promise<ImageBitmap | undefined> {
  try {
    const small = await createImageBitmap(source, {
      imageOrientation: 'from-image',
      resizeWidth: width,
      resizeHeight: height,
      resizeQuality: 'high',
    });
    if (small.width === width && small.height === height) return small;
    small.close();
  } catch {
    // Fall back to resampling on the canvas.
  }
  return undefined;
}
