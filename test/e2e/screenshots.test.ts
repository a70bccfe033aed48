// Pictures of the result step for the docs, made by this test: the four-view catalog in the demo
// shop at a 1366×768 laptop and a 390×844 phone, light and dark, English and Arabic (right to
// left), written under docs/screenshots/. Each is taken once the result is complete and its image
// decoded, and the step is checked to fit: on the laptop nothing to scroll for. Then the same
// result from real photos of people, in English: the demo's sample photo, and (with Debian's
// opencv-doc) the footballer in a stadium crowd and the man in an office; each result's front keeps
// the photo's frame (test/sandbox/render.test.ts checks these photos' renders closely).
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import type { Page } from 'playwright-core';
import { openProduct, openShop, root, SHOPPER_PHOTO, WAIT, withPage } from './shop.js';
import type { Shop } from './shop.js';
import { goOnPastPhotoCheck } from './photo-check.js';
import ar from '../../widget/i18n/ar.js';
import checkAr from '../../widget/photo/check/i18n/check-ar.js';
import { OPENCV_DATA, opencvDataPresent, peoplePhoto } from '../photos/people.js';

const PRODUCT = 'saree-bengali-haveli';
const SIZES = [
  { name: '1366x768', width: 1366, height: 768 },
  { name: '390x844', width: 390, height: 844 },
];
const LANGUAGES = ['en', 'ar'] as const;
const OUT = join(root, 'docs/screenshots');

let shop: Shop;

before(async () => {
  shop = await openShop();
});
after(async () => {
  await shop?.close();
});

/** The whole try-on, driven by parts and roles that do not depend on the language. */
async function catalogResult(page: Page, lang: string, photo = SHOPPER_PHOTO, where: Shop = shop): Promise<void> {
  await openProduct(page, where, PRODUCT);
  const button = page.locator('tryon-button').first();
  // Arabic through the element's own lang: the shop's page stays in English.
  await button.evaluate((el, code) => el.setAttribute('lang', code), lang);
  const done = button.evaluate(
    (el, wait) =>
      new Promise<void>((resolve, reject) => {
        el.addEventListener('tryon-result', () => resolve(), { once: true });
        el.addEventListener(
          'tryon-error',
          (event) => reject(new Error(JSON.stringify((event as CustomEvent).detail))),
          { once: true },
        );
        setTimeout(() => reject(new Error(`no result within ${wait} ms; status ${el.getAttribute('status')}`)), wait);
      }),
    WAIT,
  );
  await button.locator('button').first().click();
  const dialog = page.getByRole('dialog');
  await dialog.waitFor({ state: 'visible' });
  await dialog.locator('input[type="checkbox"]').check();
  await dialog.locator('[part="primary-button"]').click();
  await dialog.locator('#file').setInputFiles(photo);
  // Until the photo is prepared, the primary button is "Choose a photo".
  await dialog.locator('img[part="preview"]').waitFor({ state: 'visible' });
  await goOnPastPhotoCheck(dialog, lang === 'ar' ? { send: [ar.submit!], anyway: checkAr.useAnyway } : undefined);
  await dialog.locator('[part="primary-button"]:not([disabled])').click();
  await done;
  const image = dialog.locator('img[part="image"]').first();
  await image.waitFor({ state: 'visible' });
  await image.evaluate((img: HTMLImageElement) => (img.complete && img.naturalWidth > 0 ? undefined : img.decode()));
  // Nothing focused shows a ring in the picture: the shopper has not pressed a key.
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
}

/** Two frames: the scheme's change has reached the accent's text colour and been painted. */
async function painted(page: Page): Promise<void> {
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

/** The page in the light and the dark scheme, each a palette PNG of at most 400 KB in docs/screenshots/. */
async function saveLightAndDark(page: Page, name: (scheme: 'light' | 'dark') => string): Promise<void> {
  await mkdir(OUT, { recursive: true });
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await painted(page);
    const shot = await page.screenshot({ animations: 'disabled' });
    const png = await sharp(shot).png({ palette: true, quality: 80, compressionLevel: 9, effort: 10 }).toBuffer();
    assert.ok(png.length <= 400 * 1024, `screenshot is ${png.length} bytes`);
    await writeFile(join(OUT, name(scheme)), png);
  }
}

describe('screenshots of the result step for the docs', () => {
  for (const size of SIZES) {
    for (const lang of LANGUAGES) {
      test(`${size.name}, ${lang}, light and dark`, async (t) => {
        await withPage(
          shop,
          t.name,
          async (page, problems) => {
            await catalogResult(page, lang);
            const fits = await page
              .locator('tryon-button')
              .first()
              .evaluate((el) => {
                const dialog = el.shadowRoot?.querySelector('tryon-panel')?.shadowRoot?.querySelector('dialog');
                if (!dialog) throw new Error('no dialog');
                return {
                  scroll: dialog.scrollHeight,
                  client: dialog.clientHeight,
                  dir: getComputedStyle(dialog).direction,
                };
              });
            assert.equal(fits.dir, lang === 'ar' ? 'rtl' : 'ltr');
            if (size.width > 600)
              assert.ok(
                fits.scroll <= fits.client + 1,
                `the result fits ${size.name}: ${fits.scroll} > ${fits.client}`,
              );
            await saveLightAndDark(page, (scheme) => `result-${size.name}-${scheme}-${lang}.png`);
            assert.deepEqual(problems, []);
          },
          { viewport: { width: size.width, height: size.height } },
        );
      });
    }
  }
});

/** The result's front image, fetched as the page shows it: its pixels, to see what the sandbox drew. */
async function frontImage(page: Page): Promise<Buffer> {
  const src = await page
    .getByRole('dialog')
    .locator('img[part="image"]')
    .first()
    .evaluate((img: HTMLImageElement) => img.currentSrc || img.src);
  const response = await page.request.get(src);
  assert.equal(response.status(), 200);
  return response.body();
}

describe('screenshots of the result from real photos of people', () => {
  let folder: string;
  const photos: { name: string; path: () => string }[] = [
    { name: 'sample', path: () => join(root, 'demo/shop/sample-person.jpg') },
  ];
  before(async () => {
    folder = await mkdtemp(join(tmpdir(), 'tryon-screenshot-photos-'));
    if (!opencvDataPresent()) return;
    await writeFile(join(folder, 'footballer.jpg'), await peoplePhoto('full'));
    await writeFile(
      join(folder, 'office.jpg'),
      await sharp(join(OPENCV_DATA, 'basketball1.png')).jpeg({ quality: 92 }).toBuffer(),
    );
  });
  after(async () => {
    await rm(folder, { recursive: true, force: true });
  });
  if (opencvDataPresent())
    photos.push(
      { name: 'footballer', path: () => join(folder, 'footballer.jpg') },
      { name: 'office', path: () => join(folder, 'office.jpg') },
    );
  else photos.push({ name: `(no ${OPENCV_DATA}: the opencv-doc photos are left out)`, path: () => '' });

  for (const photo of photos.filter((p) => !p.name.startsWith('('))) {
    for (const size of SIZES) {
      test(`${photo.name}, ${size.name}, light and dark`, async (t) => {
        // A shop of its own: a catalog costs credits, and one workspace's 100 end after a few.
        const own = await openShop();
        t.after(() => own.close());
        await withPage(
          own,
          t.name,
          async (page, problems) => {
            await catalogResult(page, 'en', photo.path(), own);
            // The render keeps the photo's frame, so the before-and-after lines the person up.
            const front = await sharp(await frontImage(page)).metadata();
            const chosen = await sharp(photo.path()).metadata();
            const aspect = (m: { width?: number; height?: number }) => (m.width ?? 0) / (m.height ?? 1);
            assert.ok(
              Math.abs(aspect(front) / aspect(chosen) - 1) < 0.02,
              `the render's frame is the photo's: ${front.width}×${front.height} for ${chosen.width}×${chosen.height}`,
            );
            // The whole result, as a shopper first sees it: no before-and-after divide until asked for.
            assert.equal(await page.getByRole('dialog').locator('[part="compare-handle"]').count(), 0);
            await saveLightAndDark(page, (scheme) => `result-${photo.name}-${size.name}-${scheme}.png`);
            assert.deepEqual(problems, []);
          },
          { viewport: { width: size.width, height: size.height } },
        );
      });
    }
  }
});
