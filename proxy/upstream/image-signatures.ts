// The photo types the try-on API accepts (docs/upstream-api.md: PNG, JPEG, WebP, HEIC), told apart by
// their first bytes, never by what the browser declared. The sandbox reads uploads with this same
// list, so the proxy never forwards a photo the stand-in would refuse, nor refuses one it takes.
// No imports: the sandbox uses it as it is. In upstream/ because it is upstream's list (what
// /v1/files takes); the photo checks and the catalog's images read it from here.

export interface PhotoType {
  contentType: 'image/png' | 'image/jpeg' | 'image/webp' | 'image/heic';
  extension: string;
}

/**
 * ISO-BMFF brands of HEIF files that carry HEVC images (what phones call HEIC), plus the generic
 * HEIF image and sequence brands phones also write. AVIF's own brand is not one: upstream
 * accepts no AVIF.
 */
export const HEIC_BRANDS: readonly string[] = [
  'heic',
  'heix',
  'heim',
  'heis',
  'hevc',
  'hevx',
  'hevm',
  'hevs',
  'mif1',
  'msf1',
];

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

const latin1 = new TextDecoder('latin1');
/** `length` bytes from `start` as text, one character a byte: box types, brands, chunk names, labels. */
export const ascii = (bytes: Uint8Array, start: number, length: number) =>
  latin1.decode(bytes.subarray(start, start + length));

/** The type of a photo from its first bytes (12 are enough), or undefined when it is none we take. */
export function sniffPhotoType(head: Uint8Array): PhotoType | undefined {
  if (head.length >= 8 && PNG_SIGNATURE.every((byte, i) => head[i] === byte))
    return { contentType: 'image/png', extension: 'png' };
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff)
    return { contentType: 'image/jpeg', extension: 'jpg' };
  if (head.length >= 12 && ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 4) === 'WEBP')
    return { contentType: 'image/webp', extension: 'webp' };
  if (head.length >= 12 && ascii(head, 4, 4) === 'ftyp' && HEIC_BRANDS.includes(ascii(head, 8, 4)))
    return { contentType: 'image/heic', extension: 'heic' };
  return undefined;
}

/** Width and height where the first bytes show them (PNG IHDR, JPEG SOF, WebP VP8/VP8L/VP8X). */
export function photoSize(head: Uint8Array, type: PhotoType): { width: number; height: number } | undefined {
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  if (type.contentType === 'image/png' && head.length >= 24)
    return { width: view.getUint32(16), height: view.getUint32(20) };
  if (type.contentType === 'image/webp' && head.length >= 30) {
    const chunk = ascii(head, 12, 4);
    if (chunk === 'VP8 ')
      return { width: view.getUint16(26, true) & 0x3fff, height: view.getUint16(28, true) & 0x3fff };
    if (chunk === 'VP8L') {
      const bits = view.getUint32(21, true);
      return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
    }
    if (chunk === 'VP8X') {
      const w = (head[24]! | (head[25]! << 8) | (head[26]! << 16)) + 1;
      const h = (head[27]! | (head[28]! << 8) | (head[29]! << 16)) + 1;
      return { width: w, height: h };
    }
  }
  if (type.contentType === 'image/jpeg') {
    let offset = 2;
    while (offset + 9 < head.length) {
      if (head[offset] !== 0xff) return undefined;
      const marker = head[offset + 1]!;
      if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01 || marker === 0xff) {
        offset += marker === 0xff ? 1 : 2;
        continue;
      }
      const length = view.getUint16(offset + 2);
      const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
      if (isFrame) return { height: view.getUint16(offset + 5), width: view.getUint16(offset + 7) };
      offset += 2 + length;
    }
  }
  return undefined;
}
