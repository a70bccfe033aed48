import sharp from 'sharp';
import { sniffPhotoType, type PhotoType } from '../../proxy/upstream/image-signatures.js';

// The stand-in reads uploads with the proxy's own list of photo signatures (proxy/upstream/image-signatures.ts,
// which imports nothing), so the two can never disagree about which photo is a PNG, JPEG, WebP or HEIC.
export type ImageType = PhotoType['contentType'];

/** The type an upload really is, read from its first bytes; the declared type is never trusted. */
export function sniffImageType(bytes: Uint8Array): ImageType | undefined {
  return sniffPhotoType(bytes)?.contentType;
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
