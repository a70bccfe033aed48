// The proxy refuses a photo that still carries EXIF or XMP (the widget removes both; a photo with
// them came from a client that did not), before a byte of it goes upstream. Real app, real sandbox.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import sharp from 'sharp';
import { findPhotoMetadata } from '../../proxy/photo-metadata.js';
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
const gpsExif = { IFD0: { Make: TEST_GPS.make }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '28/1 36/1 5004/100', GPSLongitudeRef: 'E', GPSLongitude: '77/1 12/1 3240/100' } };
const xmp = '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:exif="http://ns.adobe.com/exif/1.0/" exif:GPSLatitude="28,36.834N"/></rdf:RDF></x:xmpmeta>';

/** The EXIF sharp reads back holds a GPS IFD pointer (tag 0x8825): the photo really carries a position. */
async function carriesGps(bytes: Uint8Array): Promise<boolean> {
  const { exif } = await sharp(bytes).metadata();
  return exif !== undefined && (exif.includes(Buffer.from([0x88, 0x25])) || exif.includes(Buffer.from([0x25, 0x88])));
}

describe('photos still carrying metadata', () => {
  let stack: Stack;
  before(async () => { stack = await startStack(); });
  after(async () => { await stack.close(); });

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
    for (const [format, type] of [['png', 'image/png'], ['webp', 'image/webp']] as const) {
      await expectRefused(await upload(stack, new Uint8Array(await picture.clone().withExif(gpsExif).toFormat(format).toBuffer()), type, `me.${format}`));
      await expectRefused(await upload(stack, new Uint8Array(await picture.clone().withXmp(xmp).toFormat(format).toBuffer()), type, `me.${format}`));
      assert.equal((await upload(stack, new Uint8Array(await picture.clone().toFormat(format).toBuffer()), type, `me.${format}`)).status, 201);
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
    assert.deepEqual(findPhotoMetadata(await makeHeicPhoto({ width: 256, height: 256, xmp: false }), 'image/heic'), ['exif']);
    assert.deepEqual(findPhotoMetadata(await makeHeicPhoto({ width: 256, height: 256, exif: false }), 'image/heic'), ['xmp']);
    assert.deepEqual(findPhotoMetadata(await makeHeicPhoto({ width: 256, height: 256, exif: false, xmp: false }), 'image/heic'), []);
    const picture = sharp(await personPhoto());
    for (const format of ['jpeg', 'png', 'webp'] as const) {
      const type = `image/${format}`;
      assert.deepEqual(findPhotoMetadata(new Uint8Array(await picture.clone().withExif(gpsExif).withXmp(xmp).toFormat(format).toBuffer()), type), ['exif', 'xmp'], format);
      assert.deepEqual(findPhotoMetadata(new Uint8Array(await picture.clone().toFormat(format).toBuffer()), type), [], format);
    }
  });

  it('sees WebP metadata stored after the picture, past the bytes it holds, by the header flags', async () => {
    const noise = await sharp(Buffer.from(Array.from({ length: 600 * 800 * 3 }, () => Math.floor(Math.random() * 256))), { raw: { width: 600, height: 800, channels: 3 } })
      .withExif(gpsExif).webp({ quality: 95 }).toBuffer();
    const exifAt = noise.indexOf('EXIF');
    assert.ok(exifAt > 64 * 1024, `the EXIF chunk is at ${exifAt}`);
    assert.deepEqual(findPhotoMetadata(new Uint8Array(noise.subarray(0, 64 * 1024)), 'image/webp'), ['exif']);
  });

  it('never throws on cut or broken files', async () => {
    const heic = await makeHeicPhoto({ width: 256, height: 256 });
    const jpeg = new Uint8Array(await sharp(await personPhoto()).withExif(gpsExif).jpeg().toBuffer());
    for (const [bytes, type] of [[heic, 'image/heic'], [jpeg, 'image/jpeg']] as const) {
      for (let cut = 0; cut < Math.min(bytes.length, 600); cut += 7) findPhotoMetadata(bytes.subarray(0, cut), type);
    }
    const garbage = new Uint8Array(4096).map((_, i) => (i * 7919) & 0xff);
    garbage.set([0, 0, 0, 24, ...Buffer.from('ftypheic')], 0);
    for (const type of ['image/heic', 'image/jpeg', 'image/png', 'image/webp']) assert.ok(Array.isArray(findPhotoMetadata(garbage, type)));
  });
});
