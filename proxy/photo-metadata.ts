// Finds EXIF and XMP in a photo's first bytes: the proxy's second line behind the widget, which
// re-encodes every photo and so removes both. A photo that still carries them came from a client
// that did not (a script calling the API directly, an old widget) and may give away where the
// shopper lives; it is refused rather than passed on to the try-on service.
//
// Only the bytes the upload check already holds are read (the first 64 KB, see photo-upload.ts):
// where the formats put metadata, that is where it is: JPEG's APP1 segments come before the
// picture, HEIF's item list sits in the `meta` box at the start, WebP's VP8X header flags the
// EXIF and XMP chunks even when they follow the picture. PNG may put text chunks after the
// picture; those past the first 64 KB are not seen.
import { ProxyError } from './errors.js';
import { ascii } from './image-signatures.js';

export type PhotoMetadata = 'exif' | 'xmp';


/** The kinds of metadata visible in `head`, the first bytes of a photo of `contentType`. */
export function findPhotoMetadata(head: Uint8Array, contentType: string): PhotoMetadata[] {
  const found = new Set<PhotoMetadata>();
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  if (contentType === 'image/jpeg') jpeg(head, view, found);
  else if (contentType === 'image/png') png(head, view, found);
  else if (contentType === 'image/webp') webp(head, view, found);
  else if (contentType === 'image/heic') heif(head, view, found);
  return [...found].sort();
}

function jpeg(head: Uint8Array, view: DataView, found: Set<PhotoMetadata>): void {
  let offset = 2;
  while (offset + 4 <= head.length && head[offset] === 0xff) {
    const marker = head[offset + 1]!;
    if (marker === 0xff) { offset += 1; continue; }
    if (marker === 0xda || marker === 0xd9) return; // the picture (or the end) begins: no APPn after it counts
    const length = view.getUint16(offset + 2);
    if (marker === 0xe1) {
      const label = ascii(head, offset + 4, 35);
      if (label.startsWith('Exif\0')) found.add('exif');
      if (label.startsWith('http://ns.adobe.com/xap/1.0/\0') || label.startsWith('http://ns.adobe.com/xmp/extension/\0')) found.add('xmp');
    }
    offset += 2 + length;
  }
}

function png(head: Uint8Array, view: DataView, found: Set<PhotoMetadata>): void {
  let offset = 8;
  while (offset + 8 <= head.length) {
    const length = view.getUint32(offset);
    const type = ascii(head, offset + 4, 4);
    if (type === 'IEND') return;
    if (type === 'eXIf') found.add('exif');
    if (type === 'iTXt' || type === 'tEXt' || type === 'zTXt') {
      // The keyword, NUL-terminated, starts the chunk; ImageMagick keeps EXIF/XMP as "Raw profile" text.
      const keyword = ascii(head, offset + 8, 80).split('\0')[0] ?? '';
      if (keyword === 'XML:com.adobe.xmp' || /^Raw profile type xmp$/i.test(keyword)) found.add('xmp');
      if (/^Raw profile type (exif|app1)$/i.test(keyword)) found.add('exif');
    }
    offset += 12 + length;
  }
}

function webp(head: Uint8Array, view: DataView, found: Set<PhotoMetadata>): void {
  let offset = 12;
  while (offset + 8 <= head.length) {
    const type = ascii(head, offset, 4);
    const length = view.getUint32(offset + 4, true);
    if (type === 'VP8X' && offset + 9 <= head.length) {
      const flags = head[offset + 8]!;
      if (flags & 0x08) found.add('exif');
      if (flags & 0x04) found.add('xmp');
    }
    if (type === 'EXIF') found.add('exif');
    if (type === 'XMP ') found.add('xmp');
    offset += 8 + length + (length % 2);
  }
}

interface Box { type: string; start: number; end: number }

/** The ISO-BMFF boxes between `start` and `end`, cut at the bytes we hold. */
function boxes(head: Uint8Array, view: DataView, start: number, end: number): Box[] {
  const found: Box[] = [];
  let offset = start;
  while (offset + 8 <= Math.min(end, head.length)) {
    let size = view.getUint32(offset);
    let body = offset + 8;
    if (size === 1) {
      if (offset + 16 > head.length) break;
      size = Number(view.getBigUint64(offset + 8));
      body = offset + 16;
    } else if (size === 0) {
      size = end - offset;
    }
    if (size < body - offset) break;
    found.push({ type: ascii(head, offset + 4, 4), start: body, end: Math.min(offset + size, end) });
    offset += size;
  }
  return found;
}

function heif(head: Uint8Array, view: DataView, found: Set<PhotoMetadata>): void {
  const meta = boxes(head, view, 0, head.length).find((b) => b.type === 'meta');
  if (!meta) return;
  const iinf = boxes(head, view, meta.start + 4, meta.end).find((b) => b.type === 'iinf');
  if (!iinf || iinf.start + 4 > head.length) return;
  const countBytes = head[iinf.start] === 0 ? 2 : 4;
  for (const infe of boxes(head, view, iinf.start + 4 + countBytes, iinf.end)) {
    if (infe.type !== 'infe') continue;
    const version = head[infe.start] ?? 0;
    if (version < 2) continue; // versions 0 and 1 name no item type
    const typeAt = infe.start + 4 + (version === 2 ? 2 : 4) + 2;
    const itemType = ascii(head, typeAt, 4);
    if (itemType === 'Exif') found.add('exif');
    if (itemType === 'mime') {
      const [, contentType = ''] = ascii(head, typeAt + 4, infe.end - typeAt - 4).split('\0');
      if (/^application\/rdf\+xml\b/i.test(contentType)) found.add('xmp');
    }
  }
}

/** The refusal: 422, in words a developer and, through the widget, a shopper understand. */
export function photoHasMetadataError(found: PhotoMetadata[]): ProxyError {
  return new ProxyError(422, 'photo_has_metadata',
    `That photo still carries ${found.map((kind) => kind.toUpperCase()).join(' and ')} data (camera details, possibly where it was taken). `
    + 'The try-on button removes it before uploading; send the photo re-encoded without it.');
}
