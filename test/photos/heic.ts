// HEIC photos made by the tests, the way an iPhone's look once copied to a computer: an HEVC
// still (encoded by the ffmpeg of @ffmpeg-installer, which has libx265) in a HEIF container with
// an EXIF item carrying a camera name and a GPS position and an XMP item carrying the same.
// Real HEIC, so libheif (the widget's decoder, the sandbox's heic-decode) decodes it to pixels.
//
// Pixels: red on the left half, blue on the right, like the widget tests' drawn photos.
import { spawn } from 'node:child_process';
import ffmpeg from '@ffmpeg-installer/ffmpeg';

export interface HeicOptions {
  width: number;
  height: number;
  /** Add the EXIF item (camera make and a GPS position). Default true. */
  exif?: boolean;
  /** Add the XMP item. Default true. */
  xmp?: boolean;
  /**
   * Turn the stored picture for display by this many degrees clockwise, with the HEIF `irot`
   * property (as a camera held upright stores a landscape-coded picture). Default 0.
   */
  turnClockwise?: 0 | 90 | 180 | 270;
  /** The picture, RGB bytes row by row at width × height. Default: red on the left half, blue on the right. */
  pixels?: Uint8Array;
}

/** The GPS position written into the test photos, so tests can look for it. */
export const TEST_GPS = { latitude: 28.6139, longitude: 77.209, make: 'TryonTestCam' };

function halvesRgb(width: number, height: number): Uint8Array {
  const pixels = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const at = (y * width + x) * 3;
      if (x < width / 2) pixels[at] = 230;
      else pixels[at + 2] = 230;
    }
  }
  return pixels;
}

/** One HEVC intra frame as an Annex B stream (start codes between NAL units). */
function encodeHevc(width: number, height: number, pixels: Uint8Array): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      ffmpeg.path,
      [
        '-hide_banner',
        '-loglevel',
        'error',
        '-f',
        'rawvideo',
        '-pix_fmt',
        'rgb24',
        '-s',
        `${width}x${height}`,
        '-i',
        'pipe:0',
        '-frames:v',
        '1',
        '-c:v',
        'libx265',
        '-preset',
        'ultrafast',
        '-pix_fmt',
        'yuv420p',
        '-x265-params',
        'log-level=error:info=0',
        '-f',
        'hevc',
        'pipe:1',
      ],
      { stdio: ['pipe', 'pipe', 'pipe'] },
    );
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve(new Uint8Array(Buffer.concat(out)));
      else reject(new Error(`ffmpeg failed (${code}): ${Buffer.concat(err).toString()}`));
    });
    child.stdin.end(pixels);
  });
}

function nalUnits(stream: Uint8Array): Uint8Array[] {
  const starts: { at: number; code: number }[] = [];
  for (let i = 0; i + 2 < stream.length; i++) {
    if (stream[i] === 0 && stream[i + 1] === 0 && stream[i + 2] === 1) {
      const long = i > 0 && stream[i - 1] === 0;
      starts.push({ at: long ? i - 1 : i, code: long ? 4 : 3 });
      i += 2;
    }
  }
  return starts.map(({ at, code }, index) => stream.subarray(at + code, starts[index + 1]?.at ?? stream.length));
}

const nalType = (nal: Uint8Array) => (nal[0]! >> 1) & 0x3f;

/** The NAL unit without its emulation-prevention bytes (00 00 03 → 00 00). */
function rbsp(nal: Uint8Array): Uint8Array {
  const out: number[] = [];
  for (let i = 0; i < nal.length; i++) {
    if (i >= 2 && nal[i] === 3 && nal[i - 1] === 0 && nal[i - 2] === 0) continue;
    out.push(nal[i]!);
  }
  return Uint8Array.from(out);
}

const u8 = (n: number) => [n & 0xff];
const u16 = (n: number) => [(n >> 8) & 0xff, n & 0xff];
const u32 = (n: number) => [(n >>> 24) & 0xff, (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff];
const text = (s: string) => [...new TextEncoder().encode(s)];

function box(type: string, ...payload: (number[] | Uint8Array)[]): Uint8Array {
  const body = payload.flatMap((part) => [...part]);
  return Uint8Array.from([...u32(8 + body.length), ...text(type), ...body]);
}

const fullBox = (type: string, version: number, flags: number, ...payload: (number[] | Uint8Array)[]) =>
  box(type, [version, (flags >> 16) & 0xff, (flags >> 8) & 0xff, flags & 0xff], ...payload);

/** HEVCDecoderConfigurationRecord (ISO/IEC 14496-15) for an 8-bit 4:2:0 stream. */
function hvcC(vps: Uint8Array, sps: Uint8Array, pps: Uint8Array): Uint8Array {
  // profile_tier_level's general part sits byte-aligned right after the SPS's first byte.
  const profile = rbsp(sps).subarray(3, 15);
  const arrays = [vps, sps, pps].flatMap((nal) => [0x80 | nalType(nal), ...u16(1), ...u16(nal.length), ...nal]);
  return box('hvcC', [1, ...profile, 0xf0, 0x00, 0xfc, 0xfd, 0xf8, 0xf8, ...u16(0), 0x0f, 3, ...arrays]);
}

type Entry = [tag: number, type: number, count: number, value: number[]];

/** A TIFF IFD (big-endian); `valuesAt` is where its out-of-line values go (offset from "MM"). */
function ifd(entries: Entry[], valuesAt: number): { bytes: number[]; size: number } {
  const head: number[] = [...u16(entries.length)];
  const tail: number[] = [];
  const dataStart = valuesAt + 2 + entries.length * 12 + 4;
  for (const [tag, type, count, value] of entries) {
    head.push(...u16(tag), ...u16(type), ...u32(count));
    if (value.length <= 4) head.push(...value, ...new Array(4 - value.length).fill(0));
    else {
      head.push(...u32(dataStart + tail.length));
      tail.push(...value);
      if (tail.length % 2) tail.push(0);
    }
  }
  head.push(...u32(0));
  return { bytes: [...head, ...tail], size: head.length + tail.length };
}

const ascii = (s: string) => [...text(s), 0];
const rationals = (...pairs: [number, number][]) => pairs.flatMap(([n, d]) => [...u32(n), ...u32(d)]);
const degrees = (value: number) => {
  const d = Math.floor(value);
  const minutes = (value - d) * 60;
  const m = Math.floor(minutes);
  return rationals([d, 1], [m, 1], [Math.round((minutes - m) * 60 * 100), 100]);
};

/** EXIF as HEIF stores it: a 4-byte offset to the TIFF header, "Exif\0\0", then the TIFF. */
export function exifWithGps(): Uint8Array {
  const make = ascii(TEST_GPS.make);
  // IFD0 at 8: Make, GPSInfo pointer; the GPS IFD follows it.
  const ifd0Size = 2 + 2 * 12 + 4 + make.length + (make.length % 2);
  const gpsAt = 8 + ifd0Size;
  const ifd0 = ifd(
    [
      [0x010f, 2, make.length, make],
      [0x8825, 4, 1, u32(gpsAt)],
    ],
    8,
  );
  const gps = ifd(
    [
      [0x0000, 1, 4, [2, 3, 0, 0]],
      [0x0001, 2, 2, ascii('N')],
      [0x0002, 5, 3, degrees(TEST_GPS.latitude)],
      [0x0003, 2, 2, ascii('E')],
      [0x0004, 5, 3, degrees(TEST_GPS.longitude)],
    ],
    gpsAt,
  );
  const tiff = [...text('MM'), ...u16(42), ...u32(8), ...ifd0.bytes, ...gps.bytes];
  return Uint8Array.from([...u32(6), ...text('Exif\0\0'), ...tiff]);
}

export function xmpPacket(): Uint8Array {
  return new TextEncoder().encode(
    [
      '<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>',
      '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">',
      `<rdf:Description rdf:about="" xmlns:exif="http://ns.adobe.com/exif/1.0/" xmlns:tiff="http://ns.adobe.com/tiff/1.0/" tiff:Make="${TEST_GPS.make}"`,
      ` exif:GPSLatitude="28,36.834N" exif:GPSLongitude="77,12.54E"/>`,
      '</rdf:RDF></x:xmpmeta><?xpacket end="w"?>',
    ].join(''),
  );
}

/** A HEIC file: ftyp, meta (hdlr, pitm, iinf, iref, iprp, iloc), mdat. */
export async function makeHeicPhoto({
  width,
  height,
  exif = true,
  xmp = true,
  turnClockwise = 0,
  pixels,
}: HeicOptions): Promise<Uint8Array> {
  const nals = nalUnits(await encodeHevc(width, height, pixels ?? halvesRgb(width, height)));
  const find = (type: number) => {
    const nal = nals.find((n) => nalType(n) === type);
    if (!nal) throw new Error(`the HEVC stream has no NAL unit of type ${type}`);
    return nal;
  };
  const [vps, sps, pps] = [find(32), find(33), find(34)];
  // The picture's slices, each prefixed by its 4-byte length (lengthSizeMinusOne = 3).
  const picture = Uint8Array.from(nals.filter((n) => nalType(n) < 32).flatMap((n) => [...u32(n.length), ...n]));

  const items: { id: number; infe: Uint8Array; data: Uint8Array }[] = [
    { id: 1, infe: fullBox('infe', 2, 0, u16(1), u16(0), text('hvc1'), [0]), data: picture },
  ];
  if (exif) items.push({ id: 2, infe: fullBox('infe', 2, 0, u16(2), u16(0), text('Exif'), [0]), data: exifWithGps() });
  if (xmp) {
    items.push({
      id: 3,
      infe: fullBox('infe', 2, 0, u16(3), u16(0), text('mime'), [0], ascii('application/rdf+xml')),
      data: xmpPacket(),
    });
  }
  const described = items.filter((item) => item.id !== 1);

  const ftyp = box('ftyp', text('heic'), u32(0), text('mif1'), text('heic'));
  const meta = (dataStart: number) => {
    let offset = dataStart;
    const iloc = fullBox(
      'iloc',
      0,
      0,
      [0x44, 0x00],
      u16(items.length),
      items.flatMap((item) => {
        const entry = [...u16(item.id), ...u16(0), ...u16(1), ...u32(offset), ...u32(item.data.length)];
        offset += item.data.length;
        return entry;
      }),
    );
    return fullBox(
      'meta',
      0,
      0,
      fullBox('hdlr', 0, 0, u32(0), text('pict'), u32(0), u32(0), u32(0), [0]),
      fullBox('pitm', 0, 0, u16(1)),
      fullBox('iinf', 0, 0, u16(items.length), ...items.map((item) => item.infe)),
      ...(described.length > 0
        ? [fullBox('iref', 0, 0, ...described.map((item) => box('cdsc', u16(item.id), u16(1), u16(1))))]
        : []),
      box(
        'iprp',
        // irot counts quarter turns anticlockwise; a transform is essential to showing the picture right.
        box(
          'ipco',
          hvcC(vps, sps, pps),
          fullBox('ispe', 0, 0, u32(width), u32(height)),
          ...(turnClockwise ? [box('irot', [((360 - turnClockwise) / 90) & 3])] : []),
        ),
        fullBox('ipma', 0, 0, u32(1), u16(1), ...(turnClockwise ? [u8(3), [0x81, 0x02, 0x83]] : [u8(2), [0x81, 0x02]])),
      ),
      iloc,
    );
  };
  // The meta box's size does not depend on the offsets in it: measure once, then write for real.
  const dataStart = ftyp.length + meta(0).length + 8;
  const mdat = box('mdat', ...items.map((item) => item.data));
  return Uint8Array.from([...ftyp, ...meta(dataStart), ...mdat]);
}
