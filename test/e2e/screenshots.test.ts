// Pictures of the result step for the docs, made by this test: the four-view catalog in the demo
// shop at a 1366×768 laptop and a 390×844 phone, light and dark, English and Arabic (right to
// left), written under docs/screenshots/. Each is taken once the result is complete and its image
// decoded, and the step is checked to fit: on the laptop nothing to scroll for.
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import type { Page } from 'playwright-core';
import { openProduct, openShop, root, SHOPPER_PHOTO, WAIT, withPage } from './shop.js';
import type { Shop } from './shop.js';
import { goOnPastPhotoCheck } from './photo-check.js';
import ar from '../../widget/i18n/ar.js';
import checkAr from '../../widget/photo/check/i18n/check-ar.js';

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
async function catalogResult(page: Page, lang: string): Promise<void> {
  await openProduct(page, shop, PRODUCT);
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
  await dialog.locator('#file').setInputFiles(SHOPPER_PHOTO);
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
            await mkdir(OUT, { recursive: true });
            for (const scheme of ['light', 'dark'] as const) {
              await page.emulateMedia({ colorScheme: scheme });
              await painted(page);
              const shot = await page.screenshot({ animations: 'disabled' });
              const png = await sharp(shot)
                .png({ palette: true, quality: 80, compressionLevel: 9, effort: 10 })
                .toBuffer();
              assert.ok(png.length <= 400 * 1024, `screenshot is ${png.length} bytes`);
              await writeFile(join(OUT, `result-${size.name}-${scheme}-${lang}.png`), png);
            }
            assert.deepEqual(problems, []);
          },
          { viewport: { width: size.width, height: size.height } },
        );
      });
    }
  }
});
