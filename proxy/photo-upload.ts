// Reads the `photo` part of a multipart upload as a stream: only the first bytes are held back
// (to check by magic bytes that it is a photo and, where the header shows it, that it is big
// enough); the rest flows straight on to /v1/files, counted so the size limit holds mid-stream.
import { ProxyError } from './errors.js';
import { findPhotoMetadata, photoHasMetadataError } from './photo-metadata.js';

export interface PhotoType { contentType: string; extension: string }

const ascii = (bytes: Uint8Array, start: number, length: number) =>
  String.fromCharCode(...bytes.subarray(start, start + length));

const HEIC_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'mif1', 'msf1', 'avif']);

/** The type by magic bytes, never by what the browser declared. */
export function sniffPhotoType(head: Uint8Array): PhotoType | undefined {
  if (head.length >= 8 && head[0] === 0x89 && ascii(head, 1, 3) === 'PNG') return { contentType: 'image/png', extension: 'png' };
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return { contentType: 'image/jpeg', extension: 'jpg' };
  if (head.length >= 12 && ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 4) === 'WEBP') return { contentType: 'image/webp', extension: 'webp' };
  if (head.length >= 12 && ascii(head, 4, 4) === 'ftyp' && HEIC_BRANDS.has(ascii(head, 8, 4))) {
    return ascii(head, 8, 4) === 'avif' ? undefined : { contentType: 'image/heic', extension: 'heic' };
  }
  return undefined;
}

/** Width and height where the first bytes show them (PNG IHDR, JPEG SOF, WebP VP8/VP8L/VP8X). */
export function photoSize(head: Uint8Array, type: PhotoType): { width: number; height: number } | undefined {
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  if (type.contentType === 'image/png' && head.length >= 24) return { width: view.getUint32(16), height: view.getUint32(20) };
  if (type.contentType === 'image/webp' && head.length >= 30) {
    const chunk = ascii(head, 12, 4);
    if (chunk === 'VP8 ') return { width: view.getUint16(26, true) & 0x3fff, height: view.getUint16(28, true) & 0x3fff };
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
      if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01 || marker === 0xff) { offset += marker === 0xff ? 1 : 2; continue; }
      const length = view.getUint16(offset + 2);
      const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
      if (isFrame) return { height: view.getUint16(offset + 5), width: view.getUint16(offset + 7) };
      offset += 2 + length;
    }
  }
  return undefined;
}

/** Searches `needle` in `hay` from `from`. */
function indexOf(hay: Uint8Array, needle: Uint8Array, from = 0): number {
  const first = needle[0];
  outer: for (let i = from; i <= hay.length - needle.length; i++) {
    if (hay[i] !== first) continue;
    for (let j = 1; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

function join(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b;
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

/**
 * Reads and drops what is left of a refused upload (up to `budget` bytes), so the client sees
 * our error answer instead of a reset connection; beyond the budget the connection is dropped.
 */
export async function drainBody(reader: ReadableStreamDefaultReader<Uint8Array>, budget: number): Promise<void> {
  let read = 0;
  try {
    while (read <= budget) {
      const { done, value } = await reader.read();
      if (done) return;
      read += value.length;
    }
    await reader.cancel();
  } catch {
    // The client went away; nothing to answer.
  }
}

/** Reads a small body as text, refusing (413) as soon as it passes `maxBytes` — never more in memory. */
export async function readBoundedText(body: ReadableStream<Uint8Array> | null, maxBytes: number): Promise<string> {
  if (!body) return '';
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > maxBytes) {
      // Read on (bounded) so the client sees the answer rather than a reset connection.
      await drainBody(reader, 1024 * 1024);
      throw new ProxyError(413, 'invalid_request', 'The request is too large.');
    }
    chunks.push(value);
  }
  const all = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    all.set(chunk, offset);
    offset += chunk.length;
  }
  return new TextDecoder().decode(all);
}

export interface PhotoPart {
  type: PhotoType;
  /** The whole photo, peeked bytes first; errors with 413 once more than the limit has flowed. */
  stream: ReadableStream<Uint8Array>;
  /** Set once the limit was crossed (fetch hides the stream's own error behind its own). */
  tooLarge(): boolean;
}

const tooLargeError = (limit: number) =>
  new ProxyError(413, 'file_too_large', `That photo is larger than ${Math.round(limit / 1024 / 1024 * 10) / 10} MB; please pick a smaller one.`);

const PEEK_BYTES = 64 * 1024;
const MAX_HEADER_BYTES = 16 * 1024;

/**
 * Finds the multipart field `field` in `body`, checks its first bytes and returns it as a stream.
 * Errors: 400 (not multipart / no such field), 415 (not a photo), 422 (too small, or still carrying
 * EXIF/XMP: photo-metadata.ts), 413 (too large).
 */
export async function openPhotoPart(body: ReadableStream<Uint8Array> | null, contentType: string | undefined, field: string,
  limits: { uploadBytes: number; minPhotoSide: number }): Promise<PhotoPart> {
  const boundaryMatch = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType ?? '');
  const boundaryText = boundaryMatch?.[1] ?? boundaryMatch?.[2];
  if (!body || !/^multipart\/form-data/i.test(contentType ?? '') || !boundaryText) {
    throw new ProxyError(400, 'invalid_request', `Send the photo as multipart/form-data in a field named "${field}".`);
  }
  const reader = body.getReader();
  const drainBudget = limits.uploadBytes + 1024 * 1024;
  try {
    return await readPhotoPart(reader, boundaryText, field, limits);
  } catch (error) {
    await drainBody(reader, drainBudget);
    throw error;
  }
}

async function readPhotoPart(reader: ReadableStreamDefaultReader<Uint8Array>, boundaryText: string, field: string,
  limits: { uploadBytes: number; minPhotoSide: number }): Promise<PhotoPart> {
  const encoder = new TextEncoder();
  const delimiter = encoder.encode(`\r\n--${boundaryText}`);
  // Pretend a CRLF came before the first boundary, so every delimiter looks the same.
  let buffer: Uint8Array = encoder.encode('\r\n');
  let ended = false;
  const more = async () => {
    if (ended) return false;
    const { done, value } = await reader.read();
    if (done) { ended = true; return false; }
    buffer = join(buffer, value);
    return true;
  };
  const missing = () => new ProxyError(400, 'invalid_request', `No photo found: send it in a multipart field named "${field}".`);

  // Walk the parts until the wanted one's headers are read.
  for (;;) {
    let at = indexOf(buffer, delimiter);
    while (at < 0) {
      // Keep only a tail that could still start a delimiter: skipped parts are dropped, not buffered.
      if (buffer.length > delimiter.length) buffer = buffer.slice(buffer.length - delimiter.length);
      if (!(await more())) throw missing();
      at = indexOf(buffer, delimiter);
    }
    buffer = buffer.slice(at + delimiter.length);
    while (buffer.length < 2 && (await more()));
    if (buffer[0] === 0x2d && buffer[1] === 0x2d) throw missing(); // closing "--"
    let headerEnd = indexOf(buffer, encoder.encode('\r\n\r\n'));
    while (headerEnd < 0) {
      if (buffer.length > MAX_HEADER_BYTES || !(await more())) throw new ProxyError(400, 'invalid_request', 'The upload is not well-formed multipart.');
      headerEnd = indexOf(buffer, encoder.encode('\r\n\r\n'));
    }
    const headers = new TextDecoder().decode(buffer.subarray(0, headerEnd));
    buffer = buffer.slice(headerEnd + 4);
    const name = /content-disposition:[^\r\n]*\bname="([^"]*)"/i.exec(headers)?.[1];
    if (name === field) break;
  }

  // Stream the part's bytes up to the next delimiter, holding back only what could be its start.
  let sent = 0;
  let crossed = false;
  let finished = false;
  const nextChunk = async (): Promise<Uint8Array | undefined> => {
    for (;;) {
      if (finished) return undefined;
      const at = indexOf(buffer, delimiter);
      if (at >= 0) {
        const chunk = buffer.slice(0, at);
        buffer = new Uint8Array(0);
        finished = true;
        await reader.cancel().catch(() => undefined);
        return chunk;
      }
      const safe = buffer.length - (delimiter.length - 1);
      if (safe > 0) {
        const chunk = buffer.slice(0, safe);
        buffer = buffer.slice(safe);
        return chunk;
      }
      if (!(await more())) throw new ProxyError(400, 'invalid_request', 'The upload ended before the photo did.');
    }
  };
  const count = (chunk: Uint8Array) => {
    sent += chunk.length;
    if (sent > limits.uploadBytes) {
      crossed = true;
      throw tooLargeError(limits.uploadBytes);
    }
  };

  let head: Uint8Array = new Uint8Array(0);
  while (head.length < PEEK_BYTES) {
    const chunk = await nextChunk();
    if (!chunk) break;
    count(chunk);
    head = join(head, chunk);
    if (head.length >= 32 && !sniffPhotoType(head)) break;
  }
  const type = sniffPhotoType(head);
  if (!type) {
    throw new ProxyError(415, 'unsupported_media_type', 'That file is not a photo we can use (PNG, JPEG, WebP or HEIC).');
  }
  const size = photoSize(head, type);
  if (size && Math.min(size.width, size.height) < limits.minPhotoSide) {
    throw new ProxyError(422, 'photo_too_small', `That photo is too small (${size.width}×${size.height}); use one at least ${limits.minPhotoSide} pixels on each side.`);
  }
  const metadata = findPhotoMetadata(head, type.contentType);
  if (metadata.length > 0) throw photoHasMetadataError(metadata);

  let headSent = false;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        if (!headSent) {
          headSent = true;
          controller.enqueue(head);
          return;
        }
        const chunk = await nextChunk();
        if (!chunk) {
          controller.close();
          return;
        }
        count(chunk);
        controller.enqueue(chunk);
      } catch (error) {
        controller.error(error);
        await drainBody(reader, limits.uploadBytes + 1024 * 1024);
      }
    },
    async cancel() {
      await reader.cancel().catch(() => undefined);
    },
  });
  return { type, stream, tooLarge: () => crossed };
}

export { tooLargeError };
