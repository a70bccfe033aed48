// The proxy refuses a photo that still carries EXIF or XMP (the widget removes both; a photo with
// them came from a client that did not), before a byte of it goes upstream. Real app, real sandbox.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { findPhotoMetadata, MetadataScan } from '../../proxy/photos/metadata.js';
import { makeHeicPhoto, TEST_GPS } from '../photos/heic.js';
import { personPhoto, startStack, type Stack } from './stack.js';

function upload(stack: Stack, bytes: Uint8Array, type: string, name: string): Promise<Response> {
  const form = new FormData();
  form.append('photo', new Blob([bytes as BlobPart], { type }), name);
  return fetch(`${stack.url}/photos`, { method: 'POST', body: form });
}

async function expectRefused(response: Response): Promise<string> {
  const text = await response.text();
  assert.equal(response.status, 422, text);
  const body = JSON.parse(text) as { error: { code: string; message: string; retryable: boolean } };
  assert.deepEqual(Object.keys(body), ['error']);
  assert.equal(body.error.code, 'photo_has_metadata');
  assert.equal(body.error.retryable, false);
  return body.error.message;
}

const contains = (bytes: Uint8Array, text: string) => Buffer.from(bytes).includes(text, 0, 'latin1');
const gpsExif = {
  IFD0: { Make: TEST_GPS.make },
  IFD3: {
    GPSLatitudeRef: 'N',
    GPSLatitude: '28/1 36/1 5004/100',
    GPSLongitudeRef: 'E',
    GPSLongitude: '77/1 12/1 3240/100',
  },
};
const xmp =
  '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:exif="http://ns.adobe.com/exif/1.0/" exif:GPSLatitude="28,36.834N"/></rdf:RDF></x:xmpmeta>';

/** The EXIF sharp reads back holds a GPS IFD pointer (tag 0x8825): the photo really carries a position. */
async function carriesGps(bytes: Uint8Array): Promise<boolean> {
  const { exif } = await sharp(bytes).metadata();
  return exif !== undefined && (exif.includes(Buffer.from([0x88, 0x25])) || exif.includes(Buffer.from([0x25, 0x88])));
}

describe('photos still carrying metadata', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack();
  });
  after(async () => {
    await stack.close();
  });

  const filesUploaded = () => stack.upstreamCalls.filter((call) => call === 'POST /v1/files').length;

  it('refuses a HEIC with EXIF, GPS and XMP before anything goes upstream', async () => {
    const heic = await makeHeicPhoto({ width: 480, height: 640 });
    assert.ok(contains(heic, 'Exif\0\0') && contains(heic, 'application/rdf+xml') && contains(heic, 'GPSLatitude'));
    const before = filesUploaded();
    const message = await expectRefused(await upload(stack, heic, 'image/heic', 'IMG_0001.HEIC'));
    assert.match(message, /EXIF and XMP/);
    assert.match(message, /where it was taken/);
    assert.equal(filesUploaded(), before);
  });

  it('refuses a JPEG that carries a GPS position, and accepts the same picture re-encoded without it', async () => {
    const picture = await personPhoto();
    const tagged = new Uint8Array(await sharp(picture).withExif(gpsExif).jpeg().toBuffer());
    assert.equal(await carriesGps(tagged), true);
    const before = filesUploaded();
    await expectRefused(await upload(stack, tagged, 'image/jpeg', 'me.jpg'));
    assert.equal(filesUploaded(), before);

    const clean = new Uint8Array(await sharp(tagged).jpeg().toBuffer());
    assert.equal(await carriesGps(clean), false);
    assert.equal((await upload(stack, clean, 'image/jpeg', 'me.jpg')).status, 201);
    assert.equal(filesUploaded(), before + 1);
  });

  it('refuses PNG and WebP with EXIF or XMP', async () => {
    const picture = sharp(await personPhoto());
    for (const [format, type] of [
      ['png', 'image/png'],
      ['webp', 'image/webp'],
    ] as const) {
      await expectRefused(
        await upload(
          stack,
          new Uint8Array(await picture.clone().withExif(gpsExif).toFormat(format).toBuffer()),
          type,
          `me.${format}`,
        ),
      );
      await expectRefused(
        await upload(
          stack,
          new Uint8Array(await picture.clone().withXmp(xmp).toFormat(format).toBuffer()),
          type,
          `me.${format}`,
        ),
      );
      assert.equal(
        (await upload(stack, new Uint8Array(await picture.clone().toFormat(format).toBuffer()), type, `me.${format}`))
          .status,
        201,
      );
    }
  });

  it('accepts a HEIC without metadata, as it is', async () => {
    const heic = await makeHeicPhoto({ width: 480, height: 640, exif: false, xmp: false });
    const response = await upload(stack, heic, 'image/heic', 'IMG_0002.HEIC');
    assert.equal(response.status, 201, await response.clone().text());
  });
});

describe('finding metadata in the first bytes', () => {
  it('names what it finds in each format, and nothing in a clean photo', async () => {
    const heic = await makeHeicPhoto({ width: 256, height: 256 });
    assert.deepEqual(findPhotoMetadata(heic, 'image/heic'), ['exif', 'xmp']);
    assert.deepEqual(findPhotoMetadata(await makeHeicPhoto({ width: 256, height: 256, xmp: false }), 'image/heic'), [
      'exif',
    ]);
    assert.deepEqual(findPhotoMetadata(await makeHeicPhoto({ width: 256, height: 256, exif: false }), 'image/heic'), [
      'xmp',
    ]);
    assert.deepEqual(
      findPhotoMetadata(await makeHeicPhoto({ width: 256, height: 256, exif: false, xmp: false }), 'image/heic'),
      [],
    );
    const picture = sharp(await personPhoto());
    for (const format of ['jpeg', 'png', 'webp'] as const) {
      const type = `image/${format}`;
      assert.deepEqual(
        findPhotoMetadata(
          new Uint8Array(await picture.clone().withExif(gpsExif).withXmp(xmp).toFormat(format).toBuffer()),
          type,
        ),
        ['exif', 'xmp'],
        format,
      );
      assert.deepEqual(
        findPhotoMetadata(new Uint8Array(await picture.clone().toFormat(format).toBuffer()), type),
        [],
        format,
      );
    }
  });

  it('sees WebP metadata stored after the picture, past the bytes it holds, by the header flags', async () => {
    const noise = await sharp(
      Buffer.from(Array.from({ length: 600 * 800 * 3 }, () => Math.floor(Math.random() * 256))),
      { raw: { width: 600, height: 800, channels: 3 } },
    )
      .withExif(gpsExif)
      .webp({ quality: 95 })
      .toBuffer();
    const exifAt = noise.indexOf('EXIF');
    assert.ok(exifAt > 64 * 1024, `the EXIF chunk is at ${exifAt}`);
    assert.deepEqual(findPhotoMetadata(new Uint8Array(noise.subarray(0, 64 * 1024)), 'image/webp'), ['exif']);
  });

  it('never throws on cut or broken files', async () => {
    const heic = await makeHeicPhoto({ width: 256, height: 256 });
    const jpeg = new Uint8Array(
      await sharp(await personPhoto())
        .withExif(gpsExif)
        .jpeg()
        .toBuffer(),
    );
    for (const [bytes, type] of [
      [heic, 'image/heic'],
      [jpeg, 'image/jpeg'],
    ] as const) {
      for (let cut = 0; cut < Math.min(bytes.length, 600); cut += 7) findPhotoMetadata(bytes.subarray(0, cut), type);
    }
    const garbage = new Uint8Array(4096).map((_, i) => (i * 7919) & 0xff);
    garbage.set([0, 0, 0, 24, ...Buffer.from('ftypheic')], 0);
    for (const type of ['image/heic', 'image/jpeg', 'image/png', 'image/webp'])
      assert.ok(Array.isArray(findPhotoMetadata(garbage, type)));
  });
});

// Photos laid out so their metadata sits past the first 64 KB: where a check of the first bytes
// alone (what the proxy did before) never looks, but every decoder still finds it.
const be32 = (n: number) => [(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
const noisePixels = (width: number, height: number) =>
  sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } });

/** A JPEG whose APP1 (EXIF) follows `commentBytes` of COM segments, each as large as a segment may be. */
async function jpegBehindComments(commentBytes: number, exif = true): Promise<Uint8Array> {
  const picture = sharp(await personPhoto());
  const jpeg = new Uint8Array(await (exif ? picture.withExif(gpsExif) : picture).jpeg().toBuffer());
  const comments: number[] = [];
  for (let left = commentBytes; left > 0; left -= 65533) {
    const size = Math.min(left, 65533);
    comments.push(0xff, 0xfe, ((size + 2) >> 8) & 0xff, (size + 2) & 0xff, ...new Uint8Array(size).fill(0x20));
  }
  return Uint8Array.from([...jpeg.subarray(0, 2), ...comments, ...jpeg.subarray(2)]);
}

/** A HEIC laid out ftyp, mdat (padded to over 2 MB), meta: its item locations moved to match. */
async function heicWithMetaLast(options: { exif: boolean; xmp: boolean }): Promise<Uint8Array> {
  const file = await makeHeicPhoto({ width: 256, height: 256, ...options });
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  const top: Record<string, Uint8Array> = {};
  for (let at = 0; at < file.length; at += view.getUint32(at))
    top[Buffer.from(file.subarray(at + 4, at + 8)).toString('latin1')] = file.subarray(at, at + view.getUint32(at));
  const { ftyp, meta, mdat } = top as { ftyp: Uint8Array; meta: Uint8Array; mdat: Uint8Array };
  const padding = 2 * 1024 * 1024;
  const movedMdat = Uint8Array.from([...be32(mdat.length + padding), ...mdat.subarray(4), ...new Uint8Array(padding)]);
  // The items now start where mdat's body does, right after ftyp; iloc v0 (4-byte offsets and lengths).
  const moved = meta.slice();
  const ilocAt = Buffer.from(moved).indexOf('iloc') - 4;
  const metaView = new DataView(moved.buffer);
  const count = metaView.getUint16(ilocAt + 14);
  const oldStart = ftyp.length + meta.length + 8;
  const newStart = ftyp.length + 8;
  for (let i = 0, entry = ilocAt + 16; i < count; i++, entry += 14)
    metaView.setUint32(entry + 6, metaView.getUint32(entry + 6) - oldStart + newStart);
  return Uint8Array.from([...ftyp, ...movedMdat, ...moved]);
}

/** A PNG of noise (well over 64 KB) with an XMP iTXt chunk after its picture, before IEND. */
async function pngWithXmpAfterPicture(): Promise<Uint8Array> {
  const png = new Uint8Array(await noisePixels(600, 600).png().toBuffer());
  const data = Buffer.from(`XML:com.adobe.xmp\0\0\0\0\0${xmp}`, 'latin1');
  const typed = Buffer.concat([Buffer.from('iTXt'), data]);
  const chunk = Uint8Array.from([...be32(data.length), ...typed, ...be32(crc32(typed))]);
  const iend = png.length - 12;
  return Uint8Array.from([...png.subarray(0, iend), ...chunk, ...png.subarray(iend)]);
}

/** A WebP of noise whose EXIF chunk follows the picture while the VP8X header does not flag it. */
async function webpWithUnflaggedExif(): Promise<Uint8Array> {
  const webp = new Uint8Array(await noisePixels(600, 600).withExif(gpsExif).webp({ quality: 95 }).toBuffer());
  assert.equal(Buffer.from(webp.subarray(12, 16)).toString('latin1'), 'VP8X');
  webp[20] = webp[20]! & ~0x08;
  return webp;
}

function scanInChunks(bytes: Uint8Array, type: string, size: number): string[] {
  const scan = new MetadataScan(type);
  for (let at = 0; at < bytes.length; at += size) scan.push(bytes.subarray(at, at + size));
  return scan.found;
}

describe('metadata anywhere before or around the picture', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack();
  });
  after(async () => {
    await stack.close();
  });

  it('refuses a JPEG whose EXIF follows 2 MB of comments, and takes the same layout without EXIF', async () => {
    const hidden = await jpegBehindComments(2 * 1024 * 1024);
    assert.ok(Buffer.from(hidden).indexOf('Exif\0') > 2 * 1024 * 1024);
    assert.ok((await sharp(hidden).metadata()).exif, 'a decoder still reads the EXIF');
    await expectRefused(await upload(stack, hidden, 'image/jpeg', 'me.jpg'));
    const clean = await upload(stack, await jpegBehindComments(2 * 1024 * 1024, false), 'image/jpeg', 'me.jpg');
    assert.equal(clean.status, 201, await clean.clone().text());
  });

  it('refuses a HEIC whose meta box follows mdat, and takes the same layout without metadata', async () => {
    const hidden = await heicWithMetaLast({ exif: true, xmp: true });
    assert.ok(Buffer.from(hidden).lastIndexOf('meta') > 2 * 1024 * 1024);
    const message = await expectRefused(await upload(stack, hidden, 'image/heic', 'IMG_0003.HEIC'));
    assert.match(message, /EXIF/);
    const clean = await upload(
      stack,
      await heicWithMetaLast({ exif: false, xmp: false }),
      'image/heic',
      'IMG_0004.HEIC',
    );
    assert.equal(clean.status, 201, await clean.clone().text());
  });

  it('refuses a PNG with XMP after its picture and a WebP with an EXIF chunk its header does not flag', async () => {
    const png = await pngWithXmpAfterPicture();
    assert.ok(Buffer.from(png).indexOf('iTXt') > 64 * 1024);
    await expectRefused(await upload(stack, png, 'image/png', 'me.png'));
    const webp = await webpWithUnflaggedExif();
    assert.ok(Buffer.from(webp).indexOf('EXIF') > 64 * 1024);
    await expectRefused(await upload(stack, webp, 'image/webp', 'me.webp'));
  });

  it('gives the same verdict for chunks of 1 byte, 7 bytes, 64 KiB and the whole file', async () => {
    const picture = sharp(await personPhoto());
    const cases: [string, Uint8Array, string, string[]][] = [
      ['jpeg behind comments', await jpegBehindComments(2 * 1024 * 1024), 'image/jpeg', ['exif']],
      ['jpeg clean behind comments', await jpegBehindComments(2 * 1024 * 1024, false), 'image/jpeg', []],
      [
        'jpeg exif+xmp',
        new Uint8Array(await picture.clone().withExif(gpsExif).withXmp(xmp).jpeg().toBuffer()),
        'image/jpeg',
        ['exif', 'xmp'],
      ],
      ['heic meta last', await heicWithMetaLast({ exif: true, xmp: true }), 'image/heic', ['exif', 'xmp']],
      ['heic meta last, xmp only', await heicWithMetaLast({ exif: false, xmp: true }), 'image/heic', ['xmp']],
      ['heic clean, meta last', await heicWithMetaLast({ exif: false, xmp: false }), 'image/heic', []],
      ['heic', await makeHeicPhoto({ width: 256, height: 256 }), 'image/heic', ['exif', 'xmp']],
      ['png xmp after picture', await pngWithXmpAfterPicture(), 'image/png', ['xmp']],
      ['png exif', new Uint8Array(await picture.clone().withExif(gpsExif).png().toBuffer()), 'image/png', ['exif']],
      ['png clean', new Uint8Array(await noisePixels(600, 600).png().toBuffer()), 'image/png', []],
      ['webp unflagged exif', await webpWithUnflaggedExif(), 'image/webp', ['exif']],
      ['webp clean', new Uint8Array(await noisePixels(600, 600).webp().toBuffer()), 'image/webp', []],
    ];
    for (const [name, bytes, type, expected] of cases) {
      for (const size of [1, 7, 64 * 1024, bytes.length])
        assert.deepEqual(scanInChunks(bytes, type, size), expected, `${name} in chunks of ${size}`);
    }
  });
});

// Phones write multi-picture JPEGs (MPF): the photo, then after its end (EOI) further whole JPEGs
// (a preview, a depth map), each with segments of its own, EXIF among them. Decoders show the first
// picture; anything reading the file finds the rest.
const concat = (...parts: Uint8Array[]) => Uint8Array.from(parts.flatMap((part) => [...part]));

/** A JPEG of `picture` re-encoded, smaller, with `exif`/`xmp` or neither: what follows a phone photo's EOI. */
async function secondPicture(options: { exif?: boolean; xmp?: boolean } = {}): Promise<Uint8Array> {
  let picture = sharp(await personPhoto()).resize(160);
  if (options.exif) picture = picture.withExif(gpsExif);
  if (options.xmp) picture = picture.withXmp(xmp);
  return new Uint8Array(await picture.jpeg().toBuffer());
}

/** The APP1 segment (marker, length and body) of a JPEG that carries EXIF. */
async function exifSegment(): Promise<Uint8Array> {
  const tagged = new Uint8Array(
    await sharp(await personPhoto())
      .withExif(gpsExif)
      .jpeg()
      .toBuffer(),
  );
  const at = Buffer.from(tagged).indexOf(Buffer.from([0xff, 0xe1]));
  return tagged.subarray(at, at + 2 + ((tagged[at + 2]! << 8) | tagged[at + 3]!));
}

describe('metadata after the end of the picture', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack();
  });
  after(async () => {
    await stack.close();
  });

  const filesUploaded = () => stack.upstreamCalls.filter((call) => call === 'POST /v1/files').length;

  it('refuses a multi-picture JPEG whose second picture carries EXIF or XMP, and takes one whose second picture is clean', async () => {
    const first = new Uint8Array(
      await sharp(await personPhoto())
        .jpeg()
        .toBuffer(),
    );
    assert.deepEqual(findPhotoMetadata(first, 'image/jpeg'), []);
    const withExif = concat(first, await secondPicture({ exif: true }));
    const withXmp = concat(first, await secondPicture({ xmp: true }));
    assert.ok(Buffer.from(withExif).indexOf('Exif\0') > first.length, 'the EXIF is after the first EOI');
    assert.deepEqual(findPhotoMetadata(withExif, 'image/jpeg'), ['exif']);
    assert.deepEqual(findPhotoMetadata(withXmp, 'image/jpeg'), ['xmp']);
    const before = filesUploaded();
    assert.match(await expectRefused(await upload(stack, withExif, 'image/jpeg', 'PXL_0001.jpg')), /EXIF/);
    assert.match(await expectRefused(await upload(stack, withXmp, 'image/jpeg', 'PXL_0002.jpg')), /XMP/);
    assert.equal(filesUploaded(), before);

    const clean = concat(first, await secondPicture());
    assert.deepEqual(findPhotoMetadata(clean, 'image/jpeg'), []);
    const accepted = await upload(stack, clean, 'image/jpeg', 'PXL_0003.jpg');
    assert.equal(accepted.status, 201, await accepted.clone().text());
  });

  it('refuses EXIF in a second picture that starts past the first 64 KB, before the stream ends', async () => {
    const first = new Uint8Array(await noisePixels(600, 600).jpeg({ quality: 95 }).toBuffer());
    assert.ok(first.length > 64 * 1024);
    await expectRefused(
      await upload(stack, concat(first, await secondPicture({ exif: true })), 'image/jpeg', 'me.jpg'),
    );
  });

  it('refuses EXIF between the scans and the end of one picture', async () => {
    const clean = new Uint8Array(
      await sharp(await personPhoto())
        .jpeg({ progressive: true })
        .toBuffer(),
    );
    const hidden = concat(clean.subarray(0, clean.length - 2), await exifSegment(), clean.subarray(clean.length - 2));
    assert.deepEqual(findPhotoMetadata(hidden, 'image/jpeg'), ['exif']);
    await expectRefused(await upload(stack, hidden, 'image/jpeg', 'me.jpg'));
  });

  it('refuses bytes after the end that are neither another picture nor zeros: it cannot tell what they say', async () => {
    const first = new Uint8Array(
      await sharp(await personPhoto())
        .jpeg()
        .toBuffer(),
    );
    // A motion photo's video, for instance, with a position of its own.
    const trailer = Uint8Array.from([...be32(24), ...Buffer.from('ftypmp42'), ...randomBytes(4096)]);
    assert.deepEqual(findPhotoMetadata(concat(first, trailer), 'image/jpeg'), ['trailer']);
    assert.deepEqual(findPhotoMetadata(concat(first, Uint8Array.of(0x20)), 'image/jpeg'), ['trailer']);
    // Zeros say nothing: padding after the end passes, before a second picture too.
    assert.deepEqual(findPhotoMetadata(concat(first, new Uint8Array(4096)), 'image/jpeg'), []);
    assert.deepEqual(
      findPhotoMetadata(concat(first, new Uint8Array(4096), await secondPicture({ exif: true })), 'image/jpeg'),
      ['exif'],
    );
    const message = await expectRefused(await upload(stack, concat(first, trailer), 'image/jpeg', 'me.jpg'));
    assert.match(message, /after the end of its picture/);
  });

  it('gives the same verdict for chunks of 1 byte, 7 bytes, 64 KiB and the whole file', async () => {
    const first = new Uint8Array(await noisePixels(600, 600).jpeg({ quality: 95 }).toBuffer());
    const cases: [string, Uint8Array, string[]][] = [
      ['second picture with exif', concat(first, await secondPicture({ exif: true })), ['exif']],
      ['second picture with xmp', concat(first, await secondPicture({ xmp: true })), ['xmp']],
      ['clean second picture', concat(first, await secondPicture()), []],
      ['trailer', concat(first, new Uint8Array(100), Buffer.from('ftypmp42'), randomBytes(1000)), ['trailer']],
      ['padding', concat(first, new Uint8Array(100_000)), []],
      ['clean', first, []],
    ];
    for (const [name, bytes, expected] of cases) {
      for (const size of [1, 7, 64 * 1024, bytes.length])
        assert.deepEqual(scanInChunks(bytes, 'image/jpeg', size), expected, `${name} in chunks of ${size}`);
    }
  });
});
