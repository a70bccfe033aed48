// The proxy and the sandbox must agree on which uploads are photos (docs/upstream-api.md: PNG, JPEG, WebP,
// HEIC): a photo the proxy forwards but the stand-in refuses, or the other way round, is a 415
// the shopper cannot understand. Each side is asked through its own entry point.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { HEIC_BRANDS, sniffPhotoType } from '../../proxy/upstream/image-signatures.js';
import { sniffImageType } from '../../sandbox/files/file-type.js';

const bytes = (...parts: (number[] | string)[]) =>
  new Uint8Array(parts.flatMap((part) => (typeof part === 'string' ? [...part].map((c) => c.charCodeAt(0)) : part)));
const ftyp = (brand: string) => bytes([0, 0, 0, 24], 'ftyp', brand, [0, 0, 0, 0], 'mif1heic');

const samples: Record<string, Uint8Array> = {
  png: bytes([0x89], 'PNG', [0x0d, 0x0a, 0x1a, 0x0a], [0, 0, 0, 13], 'IHDR'),
  'png without its line-ending bytes': bytes([0x89], 'PNG', [0, 0, 0, 0], [0, 0, 0, 13], 'IHDR'),
  jpeg: bytes([0xff, 0xd8, 0xff, 0xe0, 0, 16], 'JFIF', [0, 1]),
  webp: bytes('RIFF', [36, 0, 0, 0], 'WEBP', 'VP8 ', [0, 0, 0, 0]),
  'riff that is not webp': bytes('RIFF', [36, 0, 0, 0], 'WAVE', 'fmt ', [0, 0, 0, 0]),
  avif: ftyp('avif'),
  'mp4 video': ftyp('isom'),
  gif: bytes('GIF89a', [1, 0, 1, 0, 0, 0, 0, 0]),
  ...Object.fromEntries(HEIC_BRANDS.map((brand) => [`heif brand ${brand}`, ftyp(brand)])),
};

describe('accepted image signatures', () => {
  it('the sandbox accepts exactly what the proxy accepts, with the same type', () => {
    for (const [name, sample] of Object.entries(samples)) {
      assert.equal(sniffImageType(sample), sniffPhotoType(sample)?.contentType, name);
    }
  });

  it('follows the hosted API: PNG, JPEG, WebP and HEIC, and nothing else', () => {
    assert.equal(sniffPhotoType(samples.png!)?.contentType, 'image/png');
    assert.equal(sniffPhotoType(samples.jpeg!)?.contentType, 'image/jpeg');
    assert.equal(sniffPhotoType(samples.webp!)?.contentType, 'image/webp');
    for (const brand of HEIC_BRANDS) assert.equal(sniffPhotoType(ftyp(brand))?.contentType, 'image/heic', brand);
    for (const refused of ['png without its line-ending bytes', 'riff that is not webp', 'avif', 'mp4 video', 'gif']) {
      assert.equal(sniffPhotoType(samples[refused]!), undefined, refused);
    }
  });
});
