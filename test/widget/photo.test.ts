import { expect } from '@open-wc/testing';
import { lastPreparation, PhotoError, prepareRawPhoto } from '../../widget/photo/photo.js';
import { preparePhotoHere } from '../../widget/photo/photo-pipeline.js';
import { findPhotoMetadata } from '../../proxy/photos/metadata.js';
import { button, drawnPhoto, fakeProxy, mount, openAndConsent, panelRoot, pickPhoto, reach, until } from './helpers.js';

/** Inserts an EXIF APP1 segment with Orientation=6 (rotate 90° clockwise) after the JPEG's SOI. */
async function withOrientation6(jpeg: Blob): Promise<Blob> {
  const bytes = new Uint8Array(await jpeg.arrayBuffer());
  expect([bytes[0], bytes[1]]).to.deep.equal([0xff, 0xd8]);
  const exif = [
    0x45,
    0x78,
    0x69,
    0x66,
    0x00,
    0x00, // "Exif\0\0"
    0x4d,
    0x4d,
    0x00,
    0x2a,
    0x00,
    0x00,
    0x00,
    0x08, // big-endian TIFF header, IFD0 at 8
    0x00,
    0x01, // one entry
    0x01,
    0x12,
    0x00,
    0x03,
    0x00,
    0x00,
    0x00,
    0x01,
    0x00,
    0x06,
    0x00,
    0x00, // Orientation, SHORT, 1, 6
    0x00,
    0x00,
    0x00,
    0x00, // no next IFD
  ];
  const length = exif.length + 2;
  const app1 = [0xff, 0xe1, length >> 8, length & 0xff, ...exif];
  // After the JFIF APP0 segment when there is one, where cameras' and editors' JFIF+Exif files
  // have it: JFIF requires APP0 right after the start marker, and Firefox does not decode a
  // JPEG whose APP0 comes later.
  const at = bytes[2] === 0xff && bytes[3] === 0xe0 ? 4 + ((bytes[4]! << 8) | bytes[5]!) : 2;
  return new Blob([bytes.subarray(0, at), new Uint8Array(app1), bytes.subarray(at)], { type: 'image/jpeg' });
}

async function pixels(blob: Blob): Promise<{ width: number; height: number; at(x: number, y: number): number[] }> {
  const bitmap = await createImageBitmap(blob);
  const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
  const context = canvas.getContext('2d')!;
  context.drawImage(bitmap, 0, 0);
  const data = context.getImageData(0, 0, bitmap.width, bitmap.height).data;
  return {
    width: bitmap.width,
    height: bitmap.height,
    at: (x, y) => [...data.subarray((y * bitmap.width + x) * 4, (y * bitmap.width + x) * 4 + 3)],
  };
}

function contains(bytes: Uint8Array, text: string): boolean {
  const needle = [...text].map((c) => c.charCodeAt(0));
  outer: for (let i = 0; i + needle.length <= bytes.length; i++) {
    for (let j = 0; j < needle.length; j++) if (bytes[i + j] !== needle[j]) continue outer;
    return true;
  }
  return false;
}

const isRed = ([r, g, b]: number[]) => r! > 200 && g! < 60 && b! < 60;
const isBlue = ([r, g, b]: number[]) => b! > 200 && r! < 60 && g! < 60;

describe('photo preparation', () => {
  it("prepares the photo in its worker, off the page's main thread, where the browser has module workers and OffscreenCanvas", async () => {
    const prepared = await prepareRawPhoto(await withOrientation6(await drawnPhoto(400, 300)));
    expect([prepared.width, prepared.height]).to.deep.equal([300, 400]);
    expect(lastPreparation?.where).to.equal('worker');
    const worker = performance
      .getEntriesByType('resource')
      .map((e) => e.name)
      .filter((name) => name.endsWith('/widget/photo/photo-prep-worker.js'));
    expect(worker).to.have.length(1);
  });

  it('prepares on the page in slices where there is no worker, and says so in the console', async () => {
    const original = globalThis.Worker;
    const warned: string[] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => {
      warned.push(args.map(String).join(' '));
    };
    (globalThis as { Worker?: unknown }).Worker = undefined;
    try {
      const tagged = await withOrientation6(await drawnPhoto(400, 300));
      const photo = await prepareRawPhoto(tagged);
      expect([photo.width, photo.height]).to.deep.equal([300, 400]);
      expect(lastPreparation?.where).to.equal('page');
      expect(contains(new Uint8Array(await photo.blob.arrayBuffer()), 'Exif\0\0')).to.equal(false);
      expect(
        warned.some(
          (w) => w.includes('prepared on the page, in slices, not in a worker') && w.includes('no module workers'),
        ),
      ).to.equal(true);
    } finally {
      (globalThis as { Worker?: unknown }).Worker = original;
      console.warn = warn;
    }
  });

  it("yields between decode, downscale, draw and encode (the slices of the page's fallback)", async () => {
    let pauses = 0;
    const prepared = await preparePhotoHere(await drawnPhoto(3000, 2000), async () => {
      pauses += 1;
    });
    expect([prepared.width, prepared.height]).to.deep.equal([2048, 1365]);
    expect(pauses).to.equal(3);
  });

  it('applies the EXIF orientation and leaves no EXIF behind', async () => {
    // 400 × 300, red on the left, blue on the right; Orientation 6 turns it to 300 × 400, red on top.
    const tagged = await withOrientation6(await drawnPhoto(400, 300));
    expect(contains(new Uint8Array(await tagged.arrayBuffer()), 'Exif\0\0')).to.equal(true);
    const prepared = await prepareRawPhoto(tagged);
    expect(prepared.type).to.equal('image/jpeg');
    expect(prepared.blob.type).to.equal('image/jpeg');
    expect([prepared.width, prepared.height]).to.deep.equal([300, 400]);
    const out = new Uint8Array(await prepared.blob.arrayBuffer());
    expect([out[0], out[1]]).to.deep.equal([0xff, 0xd8]);
    expect(contains(out, 'Exif\0\0')).to.equal(false);
    const image = await pixels(prepared.blob);
    expect([image.width, image.height]).to.deep.equal([300, 400]);
    expect(isRed(image.at(150, 40))).to.equal(true);
    expect(isBlue(image.at(150, 360))).to.equal(true);
  });

  it('applies the orientation and downscales together: a rotated 12 MP photo comes out portrait, not stretched', async () => {
    // 4000 × 3000, red on the left, blue on the right; turned and downscaled to 1536 × 2048, red on top.
    const prepared = await prepareRawPhoto(await withOrientation6(await drawnPhoto(4000, 3000)));
    expect([prepared.width, prepared.height]).to.deep.equal([1536, 2048]);
    const image = await pixels(prepared.blob);
    expect([image.width, image.height]).to.deep.equal([1536, 2048]);
    expect(isRed(image.at(768, 200))).to.equal(true);
    expect(isBlue(image.at(768, 1848))).to.equal(true);
    expect(contains(new Uint8Array(await prepared.blob.arrayBuffer()), 'Exif\0\0')).to.equal(false);
  });

  it('downscales to 2048 px on the long side and re-encodes PNG as JPEG', async () => {
    const prepared = await prepareRawPhoto(await drawnPhoto(3000, 2000, 'image/png'));
    expect([prepared.width, prepared.height]).to.deep.equal([2048, 1365]);
    const image = await pixels(prepared.blob);
    expect([image.width, image.height]).to.deep.equal([2048, 1365]);
    expect(prepared.blob.type).to.equal('image/jpeg');
  });

  it('keeps a photo within the limits at its size', async () => {
    const prepared = await prepareRawPhoto(await drawnPhoto(256, 900));
    expect([prepared.width, prepared.height]).to.deep.equal([256, 900]);
  });

  it('refuses a photo under 256 px on the short side, with its size', async () => {
    const error = await prepareRawPhoto(await drawnPhoto(300, 255)).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(PhotoError);
    expect((error as PhotoError).problem).to.equal('too_small');
    expect([(error as PhotoError).width, (error as PhotoError).height]).to.deep.equal([300, 255]);
  });

  it('refuses a file over 25 MB, saying its size, without decoding it', async () => {
    const big = new Blob([new Uint8Array(26 * 1024 * 1024)], { type: 'image/jpeg' });
    const error = await prepareRawPhoto(big).catch((e: unknown) => e);
    expect((error as PhotoError).problem).to.equal('too_large');
    expect((error as PhotoError).sizeMb).to.equal(26);
    expect((error as PhotoError).message).to.contain('26 MB');
  });

  it('refuses a file that is not an image', async () => {
    const text = new File(['just some words, not pixels'], 'notes.txt', { type: 'text/plain' });
    expect(((await prepareRawPhoto(text).catch((e: unknown) => e)) as PhotoError).problem).to.equal('not_image');
    const lying = new File(['not a jpeg at all'], 'fake.jpg', { type: 'image/jpeg' });
    expect(((await prepareRawPhoto(lying).catch((e: unknown) => e)) as PhotoError).problem).to.equal('not_image');
    const broken = new File([new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4, 5, 6])], 'broken.jpg', {
      type: 'image/jpeg',
    });
    expect(((await prepareRawPhoto(broken).catch((e: unknown) => e)) as PhotoError).problem).to.equal('unreadable');
  });

  it('refuses a HEIC it cannot decode as unreadable, instead of sending it as it is', async () => {
    const heic = new File(
      [new Uint8Array([0, 0, 0, 24, 0x66, 0x74, 0x79, 0x70, 0x68, 0x65, 0x69, 0x63, 0, 0, 0, 0, 1, 2, 3, 4])],
      'me.heic',
      { type: '' },
    );
    const error = await prepareRawPhoto(heic).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(PhotoError);
    expect((error as PhotoError).problem).to.equal('unreadable');
  });

  it('shows a clear message in the photo step and uploads nothing for a refused photo', async () => {
    sessionStorage.clear();
    const fake = await fakeProxy();
    const el = await mount(fake);
    await openAndConsent(el);
    await pickPhoto(el, await drawnPhoto(200, 150));
    const alert = panelRoot(el).querySelector('[role="alert"]');
    expect(alert?.textContent).to.equal(
      'This photo is too small (200 × 150 px). Please choose one at least 256 pixels on its shorter side.',
    );
    expect(control(el)).to.equal(undefined);
    await pickPhoto(el, new File(['hello'], 'x.txt', { type: 'text/plain' }));
    expect(panelRoot(el).querySelector('[role="alert"]')?.textContent).to.equal(
      'This file is not a photo. Please choose a JPEG, PNG, WebP or HEIC image.',
    );
    expect((await fake.log()).filter((r) => r.path === '/photos')).to.have.length(0);
    await expect(el).to.be.accessible();
    expect(button(el, 'Choose a photo')).to.exist;
  });
});

function control(el: Parameters<typeof panelRoot>[0]): HTMLButtonElement | undefined {
  return [...panelRoot(el).querySelectorAll('button')].find((b) => b.textContent?.trim() === 'Try it on');
}

/** A HEIC made by the tests (x265 in HEIF, test/photos/heic.ts) with EXIF (camera, GPS) and XMP. */
async function heicPhoto(width: number, height: number, turn = 0): Promise<File> {
  const response = await fetch(`/test-photos/photo.heic?width=${width}&height=${height}&turn=${turn}`);
  expect(response.status).to.equal(200);
  const file = new File([await response.arrayBuffer()], 'IMG_0001.HEIC', { type: '' });
  const bytes = new Uint8Array(await file.arrayBuffer());
  // It really carries what a phone's photo does: the tests would prove nothing otherwise.
  expect(findPhotoMetadata(bytes, 'image/heic')).to.deep.equal(['exif', 'xmp']);
  expect(contains(bytes, 'Exif\0\0')).to.equal(true);
  expect(contains(bytes, 'TryonTestCam')).to.equal(true);
  expect(contains(bytes, 'GPSLatitude')).to.equal(true);
  return file;
}

/** Nothing of the HEIC's metadata in `bytes`, whichever way it could hide. */
function expectNoMetadata(bytes: Uint8Array): void {
  expect([bytes[0], bytes[1], bytes[2]]).to.deep.equal([0xff, 0xd8, 0xff]);
  expect(findPhotoMetadata(bytes, 'image/jpeg')).to.deep.equal([]);
  for (const trace of ['Exif', 'TryonTestCam', 'GPS', 'xpacket', 'adobe', 'rdf', 'ftyp']) {
    expect(contains(bytes, trace), trace).to.equal(false);
  }
}

/** The engine this page runs in, by its User-Agent (Chromium's also says Safari; Firefox's does not). */
const engine = /Firefox\//.test(navigator.userAgent)
  ? 'Firefox'
  : /Chrome\//.test(navigator.userAgent)
    ? 'Chromium'
    : 'WebKit';

/**
 * Which way each engine decodes a HEIC. Safari decodes it itself (Apple's system decoder), so on
 * Safari the widget's libheif decoder must never load; WebKitGTK (Linux) has no HEIF decoder, so
 * there, as in Chromium and Firefox, the widget's own decoder does the work.
 */
const HEIC_PATH: Record<string, 'the engine' | "the widget's decoder"> = {
  Chromium: "the widget's decoder",
  Firefox: "the widget's decoder",
  WebKit: "the widget's decoder",
};

describe('HEIC photos (decoded in the browser, metadata left behind)', () => {
  it(`decodes a HEIC with ${HEIC_PATH[engine]} in ${engine}, loading the widget's decoder only where the engine has none`, async () => {
    // libheif is loaded in the photo worker, whose requests the page's resource timing does not list: the preparation says which decoder read the photo.
    const file = await heicPhoto(480, 640);
    const native = await createImageBitmap(file).then(
      (bitmap) => {
        bitmap.close();
        return true;
      },
      () => false,
    );
    expect(native ? 'the engine' : "the widget's decoder", `${engine} decodes HEIC itself?`).to.equal(
      HEIC_PATH[engine],
    );
    const prepared = await prepareRawPhoto(file);
    expect([prepared.width, prepared.height]).to.deep.equal([480, 640]);
    expect(lastPreparation?.decoder).to.equal(native ? 'browser' : 'libheif');
  });

  it('decodes a HEIC with EXIF, GPS and XMP to a JPEG with none of it, pixels and size kept', async () => {
    const prepared = await prepareRawPhoto(await heicPhoto(480, 640));
    expect(prepared.type).to.equal('image/jpeg');
    expect(prepared.blob.type).to.equal('image/jpeg');
    expect([prepared.width, prepared.height]).to.deep.equal([480, 640]);
    expectNoMetadata(new Uint8Array(await prepared.blob.arrayBuffer()));
    const image = await pixels(prepared.blob);
    expect([image.width, image.height]).to.deep.equal([480, 640]);
    expect(isRed(image.at(60, 320))).to.equal(true);
    expect(isBlue(image.at(420, 320))).to.equal(true);
  });

  it('turns a HEIC the way its container says (irot): stored landscape, shown and sent portrait', async () => {
    // Stored 640 × 480, red left and blue right, turned 90° clockwise: 480 × 640, red on top.
    const prepared = await prepareRawPhoto(await heicPhoto(640, 480, 90));
    expect([prepared.width, prepared.height]).to.deep.equal([480, 640]);
    const image = await pixels(prepared.blob);
    expect(isRed(image.at(240, 60))).to.equal(true);
    expect(isBlue(image.at(240, 580))).to.equal(true);
    expectNoMetadata(new Uint8Array(await prepared.blob.arrayBuffer()));
  });

  it('downscales a large HEIC to 2048 px on the long side', async () => {
    const prepared = await prepareRawPhoto(await heicPhoto(2400, 3200));
    expect([prepared.width, prepared.height]).to.deep.equal([1536, 2048]);
    const image = await pixels(prepared.blob);
    expect([image.width, image.height]).to.deep.equal([1536, 2048]);
    expect(isRed(image.at(200, 1024))).to.equal(true);
    expect(isBlue(image.at(1336, 1024))).to.equal(true);
    expectNoMetadata(new Uint8Array(await prepared.blob.arrayBuffer()));
  });

  it('previews a picked HEIC and uploads it with no metadata left (the uploaded bytes inspected)', async () => {
    sessionStorage.clear();
    const fake = await fakeProxy();
    const el = await mount(fake);
    await openAndConsent(el);
    await pickPhoto(el, await heicPhoto(480, 640));
    expect(panelRoot(el).querySelector('[role="alert"]')).to.equal(null);

    const preview = panelRoot(el).querySelector<HTMLImageElement>('img[part="preview"]');
    expect(preview, 'a preview is shown').to.exist;
    await preview!.decode();
    expect([preview!.naturalWidth, preview!.naturalHeight]).to.deep.equal([480, 640]);

    button(el, 'Try it on').click();
    await until(async () => (await fake.log()).some((r) => r.path === '/photos'), 'the photo upload');
    await reach(el, 'result');
    const upload = (await fake.log()).find((r) => r.path === '/photos')!.upload!;
    expect(upload.partType).to.equal('image/jpeg');
    expect(upload.exif).to.equal(false);

    const sent = await fake.photo();
    expectNoMetadata(sent);
    const image = await pixels(new Blob([sent as BlobPart], { type: 'image/jpeg' }));
    expect([image.width, image.height]).to.deep.equal([480, 640]);
    expect(isRed(image.at(60, 320))).to.equal(true);
    expect(isBlue(image.at(420, 320))).to.equal(true);
  });
});
