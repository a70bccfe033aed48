// Photos the benches feed in, made here with sharp so that nothing is downloaded and every run
// measures the same bytes: a phone-like 12-megapixel JPEG with EXIF (orientation and GPS), an
// 8 MB upload, a shopper photo and a garment.
import sharp from 'sharp';

/** A scene with soft gradients, shapes and sensor-like grain, so the JPEG compresses like a photo. */
async function scene(width: number, height: number, grain: number): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs>
      <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1">
        <stop offset="0" stop-color="#8fb8de"/><stop offset="0.6" stop-color="#e9d8c4"/><stop offset="1" stop-color="#6b4f3a"/>
      </linearGradient>
      <radialGradient id="skin" cx="0.5" cy="0.4" r="0.6">
        <stop offset="0" stop-color="#e0b394"/><stop offset="1" stop-color="#9c6b4e"/>
      </radialGradient>
    </defs>
    <rect width="100%" height="100%" fill="url(#sky)"/>
    <ellipse cx="${width * 0.5}" cy="${height * 0.28}" rx="${width * 0.09}" ry="${height * 0.13}" fill="url(#skin)"/>
    <path d="M ${width * 0.3} ${height} Q ${width * 0.5} ${height * 0.3} ${width * 0.7} ${height} Z" fill="#b0243a"/>
    <path d="M ${width * 0.35} ${height} L ${width * 0.62} ${height * 0.45} L ${width * 0.66} ${height} Z" fill="#d9a441" opacity="0.7"/>
    ${Array.from({ length: 40 }, (_, i) => `<circle cx="${(i * 997) % width}" cy="${(i * 577) % height}" r="${20 + (i % 7) * 15}" fill="#${(0x305070 + i * 0x0a1b2c).toString(16).slice(-6)}" opacity="0.35"/>`).join('')}
  </svg>`;
  const base = sharp(Buffer.from(svg)).removeAlpha();
  if (grain <= 0) return base.raw().toBuffer();
  const noise = await sharp({
    create: { width, height, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: grain } },
  })
    .raw()
    .toBuffer();
  return base
    .composite([{ input: noise, raw: { width, height, channels: 3 }, blend: 'soft-light' }])
    .raw()
    .toBuffer();
}

export interface PhoneJpeg {
  bytes: Buffer;
  width: number;
  height: number;
}

/**
 * A 4000×3000 (12 MP) JPEG as a phone writes it: stored landscape with EXIF Orientation 6
 * (display rotated to portrait), camera make and model, and a GPS position.
 */
export async function phoneJpeg(): Promise<PhoneJpeg> {
  const width = 4000;
  const height = 3000;
  const pixels = await scene(width, height, 18);
  const bytes = await sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 92, chromaSubsampling: '4:2:0' })
    .withExif({
      IFD0: { Make: 'BenchPhone', Model: 'Twelve Megapixel' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '28/1 36/1 0/1', GPSLongitudeRef: 'E', GPSLongitude: '77/1 12/1 0/1' },
    })
    .withMetadata({ orientation: 6 })
    .toBuffer();
  return { bytes, width, height };
}

/** A real JPEG padded with comment segments to exactly `size` bytes (a big phone photo's weight). */
export async function jpegOfSize(size: number): Promise<Buffer> {
  const pixels = await scene(2400, 3200, 24);
  const photo = await sharp(pixels, { raw: { width: 2400, height: 3200, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
  if (photo.length > size) throw new Error(`the generated photo (${photo.length} B) is already over ${size} B`);
  // COM segments (FF FE, 16-bit length) just before the scan keep the file a valid JPEG and leave
  // the frame header (SOF) near the start, where a phone's photo has it and the proxy looks.
  const segments: Buffer[] = [];
  let missing = size - photo.length;
  while (missing > 0) {
    const body = Math.min(65_533, Math.max(0, missing - 4));
    const segment = Buffer.alloc(4 + body, 0x20);
    segment.writeUInt16BE(0xfffe, 0);
    segment.writeUInt16BE(body + 2, 2);
    segments.push(segment);
    missing -= segment.length;
  }
  const scan = startOfScan(photo);
  const padded = Buffer.concat([photo.subarray(0, scan), ...segments, photo.subarray(scan)]);
  if (padded.length !== size) throw new Error(`padding missed: ${padded.length} B instead of ${size} B`);
  return padded;
}

/** Offset of the SOS marker (FF DA): the segments before it are headers, each with its length. */
function startOfScan(jpeg: Buffer): number {
  let offset = 2;
  while (offset + 4 <= jpeg.length) {
    if (jpeg[offset] !== 0xff) throw new Error(`not a JPEG segment at ${offset}`);
    if (jpeg[offset + 1] === 0xda) return offset;
    offset += 2 + jpeg.readUInt16BE(offset + 2);
  }
  throw new Error('no start of scan in the JPEG');
}

/** A shopper's photo at the size the widget uploads after preparation. */
export async function shopperJpeg(): Promise<Buffer> {
  const pixels = await scene(768, 1024, 10);
  return sharp(pixels, { raw: { width: 768, height: 1024, channels: 3 } })
    .jpeg({ quality: 85 })
    .toBuffer();
}

export async function garmentPng(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="600">
    <path d="M 60 600 Q 200 40 340 600 Z" fill="#b0243a"/><path d="M 200 80 L 330 600 L 250 600 Z" fill="#d9a441"/></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}
