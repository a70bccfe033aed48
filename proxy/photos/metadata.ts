// Finds EXIF and XMP in a photo: the proxy's second line behind the widget, which re-encodes every
// photo and so removes both. A photo that still carries them came from a client that did not (a
// script calling the API directly, an old widget) and may give away where the shopper lives; it is
// refused rather than passed on to the try-on service.
//
// The check walks the photo's structure as it streams past, whatever the chunks it arrives in:
// every JPEG marker segment, before the picture and between its scans (the scans' own bytes are
// searched for the next marker natively, never a byte at a time through the walk), and after the
// picture's end the further pictures a phone's multi-picture file (MPF) carries, each walked the
// same way; zeros after the end pass as padding, any other bytes are refused as a trailer, since
// nothing says what they hold (a motion photo's video has a position of its own). Every PNG
// chunk to IEND (text chunks may follow the picture); every WebP RIFF chunk; every top-level
// ISO-BMFF box of a HEIF, with `meta` looked into wherever it sits (after `mdat` too). Only headers
// and short labels are held (a few KB at most); everything else is counted past, never buffered,
// so the verdict is the same for one byte at a time or the whole file at once.
import { ProxyError } from '../http/errors.js';
import { ascii } from '../upstream/image-signatures.js';

/** `trailer`: bytes after a JPEG's last picture that are neither a picture nor zeros, which cannot be checked. */
export type PhotoMetadata = 'exif' | 'xmp' | 'trailer';

/**
 * What a walk asks for next: exactly `read` bytes handed back to it, `skip` bytes passed over, or
 * (JPEG) everything up to the next marker passed over and the marker's byte handed back.
 */
type Need = { read: number } | { skip: number } | { marker: true } | { padding: true };
type Walk = Generator<Need, void, Uint8Array>;

/** The most a walk ever asks to hold at once: labels and box headers are far shorter. */
const MAX_READ = 4096;

const read = (bytes: number): Need => ({ read: Math.min(bytes, MAX_READ) });
const skip = (bytes: number): Need => ({ skip: Math.max(0, bytes) });
const NEXT_MARKER: Need = { marker: true };
const PAST_PADDING: Need = { padding: true };
const u16 = (b: Uint8Array, at: number) => (b[at]! << 8) | b[at + 1]!;
const u32 = (b: Uint8Array, at: number) =>
  ((b[at]! << 24) >>> 0) + ((b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!);
const u32le = (b: Uint8Array, at: number) => u32(Uint8Array.of(b[at + 3]!, b[at + 2]!, b[at + 1]!, b[at]!), 0);

/**
 * The metadata in a photo fed to it chunk by chunk (`push`), as far as the bytes so far show.
 * Memory stays bounded by MAX_READ whatever the photo's size or the chunks' sizes.
 */
export class MetadataScan {
  private readonly seen = new Set<PhotoMetadata>();
  private readonly walk: Walk | undefined;
  private need:
    | { kind: 'read'; bytes: number }
    | { kind: 'skip'; bytes: number }
    | { kind: 'marker'; afterFf: boolean }
    | { kind: 'padding' }
    | undefined;
  private held: Uint8Array[] = [];
  private heldBytes = 0;

  constructor(contentType: string) {
    const walker = WALKERS[contentType];
    this.walk = walker?.(this.seen);
    this.resume(new Uint8Array(0), true);
  }

  /** The kinds of metadata found so far, sorted. */
  get found(): PhotoMetadata[] {
    return [...this.seen].sort();
  }

  push(chunk: Uint8Array): void {
    let at = 0;
    while (this.need && at < chunk.length) {
      const need = this.need;
      if (need.kind === 'marker') {
        at = this.toMarker(need, chunk, at);
        continue;
      }
      if (need.kind === 'padding') {
        while (at < chunk.length && chunk[at] === 0) at++;
        if (at < chunk.length) this.resume(chunk.subarray(at, ++at));
        continue;
      }
      const take = Math.min(need.bytes, chunk.length - at);
      if (need.kind === 'read') {
        this.held.push(chunk.subarray(at, at + take));
        this.heldBytes += take;
      }
      need.bytes -= take;
      at += take;
      if (need.bytes === 0) this.resume(this.takeHeld());
    }
  }

  /**
   * Passes over a JPEG's bytes from `at` to the next marker (0xFF then a byte that is not 0x00, a
   * restart marker or more 0xFF: a scan's own data escapes 0xFF as FF 00 and restarts as FF D0-D7,
   * and decoders skip stray bytes between segments the same way), found with indexOf so a 10 MB
   * scan costs one native search; resumes the walk with the marker's byte. Answers where it stopped.
   */
  private toMarker(need: { kind: 'marker'; afterFf: boolean }, chunk: Uint8Array, at: number): number {
    while (at < chunk.length) {
      if (!need.afterFf) {
        const ff = chunk.indexOf(0xff, at);
        if (ff < 0) return chunk.length;
        need.afterFf = true;
        at = ff + 1;
        continue;
      }
      const byte = chunk[at++]!;
      if (byte === 0xff) continue;
      need.afterFf = false;
      if (byte === 0x00 || (byte >= 0xd0 && byte <= 0xd7)) continue;
      this.resume(Uint8Array.of(byte));
      return at;
    }
    return at;
  }

  private takeHeld(): Uint8Array {
    const out = new Uint8Array(this.heldBytes);
    let offset = 0;
    for (const piece of this.held) {
      out.set(piece, offset);
      offset += piece.length;
    }
    this.held = [];
    this.heldBytes = 0;
    return out;
  }

  /** Hands `bytes` to the walk and takes its next need; empty needs are answered at once. */
  private resume(bytes: Uint8Array, first = false): void {
    if (!this.walk) return;
    let step = first ? this.walk.next() : this.walk.next(bytes);
    for (;;) {
      if (step.done) {
        this.need = undefined;
        return;
      }
      const need = step.value;
      if ('marker' in need) {
        this.need = { kind: 'marker', afterFf: false };
        return;
      }
      if ('padding' in need) {
        this.need = { kind: 'padding' };
        return;
      }
      const size = 'read' in need ? need.read : need.skip;
      if (size > 0) {
        this.need = 'read' in need ? { kind: 'read', bytes: size } : { kind: 'skip', bytes: size };
        return;
      }
      step = this.walk.next(new Uint8Array(0));
    }
  }
}

const WALKERS: Record<string, (found: Set<PhotoMetadata>) => Walk> = {
  'image/jpeg': jpeg,
  'image/png': png,
  'image/webp': webp,
  'image/heic': heif,
};

function* jpeg(found: Set<PhotoMetadata>): Walk {
  yield skip(2); // SOI
  for (;;) {
    // Stray bytes, and a scan's data after its SOS header, are passed over to the next marker.
    const [marker] = yield NEXT_MARKER;
    if (marker === 0xd9) {
      // The end of a picture. Zeros may pad it (they say nothing); where the file ends, the walk
      // waits here for ever: nothing more. Anything else must be another whole picture (MPF),
      // walked like the first.
      const [first] = yield PAST_PADDING;
      const [second] = first === 0xff ? yield read(1) : [];
      if (second === 0xd8) continue;
      found.add('trailer');
      return;
    }
    if (marker === 0x01 || marker === 0xd8) continue; // no length
    const length = u16(yield read(2), 0);
    const body = length - 2;
    if (body < 0) return; // a broken length: no decoder reads past it either
    if (marker === 0xe1) {
      const label = ascii(yield read(Math.min(body, 35)), 0, 35);
      if (label.startsWith('Exif\0')) found.add('exif');
      if (
        label.startsWith('http://ns.adobe.com/xap/1.0/\0') ||
        label.startsWith('http://ns.adobe.com/xmp/extension/\0')
      )
        found.add('xmp');
      yield skip(body - Math.min(body, 35));
    } else {
      // SOS included: its header here, its data passed over by the next NEXT_MARKER.
      yield skip(body);
    }
  }
}

function* png(found: Set<PhotoMetadata>): Walk {
  yield skip(8); // signature
  for (;;) {
    const header = yield read(8);
    const length = u32(header, 0);
    const type = ascii(header, 4, 4);
    if (type === 'IEND') return;
    if (type === 'eXIf') found.add('exif');
    let used = 0;
    if (type === 'iTXt' || type === 'tEXt' || type === 'zTXt') {
      // The keyword, NUL-terminated, starts the chunk; ImageMagick keeps EXIF/XMP as "Raw profile" text.
      used = Math.min(length, 80);
      const keyword = ascii(yield read(used), 0, used).split('\0')[0] ?? '';
      if (keyword === 'XML:com.adobe.xmp' || /^Raw profile type xmp$/i.test(keyword)) found.add('xmp');
      if (/^Raw profile type (exif|app1)$/i.test(keyword)) found.add('exif');
    }
    yield skip(length - used + 4); // the rest, then the CRC
  }
}

function* webp(found: Set<PhotoMetadata>): Walk {
  yield skip(12); // RIFF, size, WEBP
  for (;;) {
    const header = yield read(8);
    const type = ascii(header, 0, 4);
    const length = u32le(header, 4);
    let used = 0;
    if (type === 'VP8X') {
      used = Math.min(length, 1);
      const [flags = 0] = yield read(used);
      if (flags & 0x08) found.add('exif');
      if (flags & 0x04) found.add('xmp');
    }
    if (type === 'EXIF') found.add('exif');
    if (type === 'XMP ') found.add('xmp');
    yield skip(length - used + (length % 2));
  }
}

/** The XMP box of ISO-BMFF files that keep it outside `meta` (uuid BE7ACFCB-97A9-42E8-9C71-999491E3AFAC). */
const XMP_UUID = 'be7acfcb97a942e89c71999491e3afac';

interface BoxHeader {
  type: string;
  headerBytes: number;
  bodyBytes: number;
}

/** An ISO-BMFF box header; undefined when the size cannot be right (the structure is broken). */
function* boxHeader(room: number): Generator<Need, BoxHeader | undefined, Uint8Array> {
  if (room < 8) return undefined;
  const header = yield read(8);
  let size = u32(header, 0);
  const type = ascii(header, 4, 4);
  let headerBytes = 8;
  if (size === 1) {
    if (room < 16) return undefined;
    const large = yield read(8);
    size = u32(large, 0) * 2 ** 32 + u32(large, 4);
    headerBytes = 16;
  } else if (size === 0) {
    size = room; // to the end of what holds it
  }
  if (size < headerBytes || size > room) return undefined;
  return { type, headerBytes, bodyBytes: size - headerBytes };
}

function* heif(found: Set<PhotoMetadata>): Walk {
  // Every top-level box to the end of the file: `meta` may follow `mdat`.
  for (;;) {
    const box = yield* boxHeader(Number.POSITIVE_INFINITY);
    if (!box) return;
    if (box.type === 'meta') {
      yield skip(box.bodyBytes - (yield* meta(box.bodyBytes, found)));
    } else if (box.type === 'uuid' && box.bodyBytes >= 16) {
      const uuid = yield read(16);
      if (Array.from(uuid, (b) => b.toString(16).padStart(2, '0')).join('') === XMP_UUID) found.add('xmp');
      yield skip(box.bodyBytes - 16);
    } else {
      yield skip(box.bodyBytes);
    }
  }
}

/** Walks a `meta` box's children for the item list; answers the bytes it used. */
function* meta(bodyBytes: number, found: Set<PhotoMetadata>): Generator<Need, number, Uint8Array> {
  if (bodyBytes < 4) return 0;
  yield skip(4); // version and flags
  return yield* children(bodyBytes, 4, 'iinf', (childBytes) => itemList(childBytes, found));
}

/**
 * Walks the child boxes that follow `used` bytes of a box's body, reading into those of type
 * `wanted` with `read` (which answers the bytes it used) and skipping the rest; answers the bytes
 * used, the whole body unless it ended in a partial header.
 */
function* children(
  bodyBytes: number,
  used: number,
  wanted: string,
  read: (childBytes: number) => Generator<Need, number, Uint8Array>,
): Generator<Need, number, Uint8Array> {
  for (;;) {
    const child = yield* boxHeader(bodyBytes - used);
    if (!child) return used;
    used += child.headerBytes;
    const inner = child.type === wanted ? yield* read(child.bodyBytes) : 0;
    yield skip(child.bodyBytes - inner);
    used += child.bodyBytes;
  }
}

function* itemList(bodyBytes: number, found: Set<PhotoMetadata>): Generator<Need, number, Uint8Array> {
  if (bodyBytes < 4) return 0;
  const [version] = yield read(4);
  const countBytes = version === 0 ? 2 : 4;
  if (bodyBytes < 4 + countBytes) return 4;
  yield skip(countBytes);
  return yield* children(bodyBytes, 4 + countBytes, 'infe', (childBytes) => itemInfo(childBytes, found));
}

/** One `infe`: an item of type Exif, or a `mime` item of XMP's content type. Answers the bytes it used. */
function* itemInfo(bodyBytes: number, found: Set<PhotoMetadata>): Generator<Need, number, Uint8Array> {
  if (bodyBytes < 4) return 0;
  const [version = 0] = yield read(4);
  if (version < 2) return 4; // versions 0 and 1 name no item type
  const fields = version === 2 ? 8 : 10; // item id (2 or 4), protection index (2), item type (4)
  if (bodyBytes < 4 + fields) return 4;
  const itemType = ascii(yield read(fields), fields - 4, 4);
  let used = 4 + fields;
  if (itemType === 'Exif') found.add('exif');
  if (itemType !== 'mime') return used;
  // The item's name (NUL-terminated, of any length), then its content type.
  let after: Uint8Array | undefined;
  while (!after && used < bodyBytes) {
    const piece = yield read(Math.min(bodyBytes - used, MAX_READ));
    used += piece.length;
    const end = piece.indexOf(0);
    if (end >= 0) after = piece.subarray(end + 1);
  }
  if (!after) return used;
  const more = Math.min(bodyBytes - used, Math.max(0, 256 - after.length));
  const rest = more > 0 ? yield read(more) : new Uint8Array(0);
  used += rest.length;
  const contentType = ascii(Uint8Array.from([...after, ...rest]), 0, after.length + rest.length).split('\0')[0] ?? '';
  if (/^application\/rdf\+xml\b/i.test(contentType)) found.add('xmp');
  return used;
}

/** The kinds of metadata in `bytes` (a whole photo, or its first bytes) of `contentType`. */
export function findPhotoMetadata(bytes: Uint8Array, contentType: string): PhotoMetadata[] {
  const scan = new MetadataScan(contentType);
  scan.push(bytes);
  return scan.found;
}

/** The refusal: 422, in words a developer and, through the widget, a shopper understand. */
export function photoHasMetadataError(found: PhotoMetadata[]): ProxyError {
  const named = found.filter((kind) => kind !== 'trailer').map((kind) => kind.toUpperCase());
  const what = [
    ...(named.length > 0
      ? [`still carries ${named.join(' and ')} data (camera details, possibly where it was taken)`]
      : []),
    ...(found.includes('trailer')
      ? [
          'carries data after the end of its picture that is not a picture (a motion photo’s video, for instance), which may say the same',
        ]
      : []),
  ];
  return new ProxyError(
    422,
    'photo_has_metadata',
    `That photo ${what.join(', and ')}. The try-on button removes it before uploading; send the photo re-encoded without it.`,
  );
}
