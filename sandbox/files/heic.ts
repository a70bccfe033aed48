// HEIC photos decoded with libheif (heic-decode ships it as wasm): sharp's prebuilt libvips reads
// HEIF only for AVIF, HEVC being left out for its patents, so an iPhone's HEIC needs its own decoder.
// libheif is loaded on the first HEIC photo, not with the sandbox: most photos are JPEG or PNG,
// and its script is larger than the rest of the sandbox together.
import { sniffImageType } from './file-type.js';

/** The photo's pixels as raw RGBA, or undefined when it is not HEIC. Throws for a broken HEIC. */
export async function decodeHeicPhoto(
  bytes: Uint8Array,
): Promise<{ data: Buffer; width: number; height: number } | undefined> {
  if (sniffImageType(bytes) !== 'image/heic') return undefined;
  const { default: decodeHeif } = await import('heic-decode');
  const { data, width, height } = await decodeHeif({ buffer: bytes });
  return { data: Buffer.from(data.buffer, data.byteOffset, data.byteLength), width, height };
}
