// Reads the `photo` part of a multipart upload as a stream: only the first bytes are held back
// (to check by magic bytes that it is a photo and, where the header shows it, that it is big
// enough); the rest flows straight on to /v1/files, counted so the size limit holds mid-stream,
// and walked for EXIF and XMP (photos/metadata.ts) so metadata anywhere in it stops the stream
// with an error before its end: upstream never receives a whole photo that carries them.
import { concatBytes } from '../security/crypto.js';
import { ProxyError } from '../http/errors.js';
import { photoSize, sniffPhotoType, type PhotoType } from '../upstream/image-signatures.js';
import { NO_READ_AHEAD, drainBody, drainBudgetFor } from '../http/streams.js';
import { MetadataScan, photoHasMetadataError } from './metadata.js';

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

export interface PhotoPart {
  type: PhotoType;
  /** The whole photo, peeked bytes first; errors with 413 once more than the limit has flowed. */
  stream: ReadableStream<Uint8Array>;
  /**
   * Why the stream was stopped mid-way, once it was: the size limit crossed (413) or metadata found
   * past the first bytes (422). fetch hides the stream's own error behind its own.
   */
  refusal(): ProxyError | undefined;
  /** The small text fields asked for (`fields` option) that came before the photo, by name. */
  fields: Record<string, string>;
}

/** The longest small text field read beside a photo (a hand-off code, a consent version). */
const FIELD_BYTES = 256;

export const tooLargeError = (limit: number) =>
  new ProxyError(
    413,
    'file_too_large',
    `That photo is larger than ${Math.round((limit / 1024 / 1024) * 10) / 10} MB; please pick a smaller one.`,
  );

const PEEK_BYTES = 64 * 1024;
const MAX_HEADER_BYTES = 16 * 1024;

/**
 * Finds the multipart field `field` in `body`, checks its first bytes and returns it as a stream.
 * Errors: 400 (not multipart / no such field), 415 (not a photo), 422 (too small, or still carrying
 * EXIF/XMP: photos/metadata.ts), 413 (too large).
 */
export async function openPhotoPart(
  body: ReadableStream<Uint8Array> | null,
  contentType: string | undefined,
  field: string,
  limits: { uploadBytes: number; minPhotoSide: number },
  fieldNames: readonly string[] = [],
): Promise<PhotoPart> {
  const boundaryMatch = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType ?? '');
  const boundaryText = boundaryMatch?.[1] ?? boundaryMatch?.[2];
  if (!body || !/^multipart\/form-data/i.test(contentType ?? '') || !boundaryText) {
    throw new ProxyError(400, 'invalid_request', `Send the photo as multipart/form-data in a field named "${field}".`);
  }
  const reader = body.getReader();
  try {
    return await readPhotoPart(reader, boundaryText, field, limits, fieldNames);
  } catch (error) {
    await drainBody(reader, drainBudgetFor(limits.uploadBytes));
    throw error;
  }
}

async function readPhotoPart(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  boundaryText: string,
  field: string,
  limits: { uploadBytes: number; minPhotoSide: number },
  fieldNames: readonly string[],
): Promise<PhotoPart> {
  const fields: Record<string, string> = {};
  const encoder = new TextEncoder();
  const delimiter = encoder.encode(`\r\n--${boundaryText}`);
  // Pretend a CRLF came before the first boundary, so every delimiter looks the same.
  let buffer: Uint8Array = encoder.encode('\r\n');
  let ended = false;
  const more = async () => {
    if (ended) return false;
    const { done, value } = await reader.read();
    if (done) {
      ended = true;
      return false;
    }
    buffer = concatBytes(buffer, value);
    return true;
  };
  const missing = () =>
    new ProxyError(400, 'invalid_request', `No photo found: send it in a multipart field named "${field}".`);

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
      if (buffer.length > MAX_HEADER_BYTES || !(await more()))
        throw new ProxyError(400, 'invalid_request', 'The upload is not well-formed multipart.');
      headerEnd = indexOf(buffer, encoder.encode('\r\n\r\n'));
    }
    const headers = new TextDecoder().decode(buffer.subarray(0, headerEnd));
    buffer = buffer.slice(headerEnd + 4);
    const name = /content-disposition:[^\r\n]*\bname="([^"]*)"/i.exec(headers)?.[1];
    if (name === field) break;
    // A small field the caller reads (sent before the photo, as FormData keeps its order): its
    // value up to the next delimiter, bounded; the loop's next turn finds that delimiter again.
    if (name !== undefined && fieldNames.includes(name) && !Object.hasOwn(fields, name)) {
      let end = indexOf(buffer, delimiter);
      while (end < 0) {
        if (buffer.length > FIELD_BYTES + delimiter.length || !(await more()))
          throw new ProxyError(400, 'invalid_request', `The field "${name}" is too long or not well-formed.`);
        end = indexOf(buffer, delimiter);
      }
      if (end > FIELD_BYTES) throw new ProxyError(400, 'invalid_request', `The field "${name}" is too long.`);
      fields[name] = new TextDecoder().decode(buffer.subarray(0, end));
    }
  }

  // Stream the part's bytes up to the next delimiter, holding back only what could be its start.
  let sent = 0;
  let refusal: ProxyError | undefined;
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
      refusal = tooLargeError(limits.uploadBytes);
      throw refusal;
    }
  };

  let head: Uint8Array = new Uint8Array(0);
  while (head.length < PEEK_BYTES) {
    const chunk = await nextChunk();
    if (!chunk) break;
    count(chunk);
    head = concatBytes(head, chunk);
    if (head.length >= 32 && !sniffPhotoType(head)) break;
  }
  const type = sniffPhotoType(head);
  if (!type) {
    throw new ProxyError(
      415,
      'unsupported_media_type',
      'That file is not a photo we can use (PNG, JPEG, WebP or HEIC).',
    );
  }
  const size = photoSize(head, type);
  if (size && Math.min(size.width, size.height) < limits.minPhotoSide) {
    throw new ProxyError(
      422,
      'photo_too_small',
      `That photo is too small (${size.width}×${size.height}); use one at least ${limits.minPhotoSide} pixels on each side.`,
    );
  }
  const metadata = new MetadataScan(type.contentType);
  metadata.push(head);
  if (metadata.found.length > 0) throw photoHasMetadataError(metadata.found);

  let headSent = false;
  // Pulled only when upstream's request asks for the next chunk (streams.ts, NO_READ_AHEAD).
  const stream = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          if (!headSent) {
            headSent = true;
            controller.enqueue(head);
            // Let go of it: the stream lives as long as the upload, and 64 KB each adds up.
            head = new Uint8Array(0);
            return;
          }
          const chunk = await nextChunk();
          if (!chunk) {
            controller.close();
            return;
          }
          count(chunk);
          metadata.push(chunk);
          if (metadata.found.length > 0) {
            refusal = photoHasMetadataError(metadata.found);
            throw refusal;
          }
          controller.enqueue(chunk);
        } catch (error) {
          controller.error(error);
          await drainBody(reader, drainBudgetFor(limits.uploadBytes));
        }
      },
      async cancel() {
        await reader.cancel().catch(() => undefined);
      },
    },
    NO_READ_AHEAD,
  );
  return { type, stream, refusal: () => refusal, fields };
}
