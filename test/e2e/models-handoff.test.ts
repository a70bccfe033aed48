// Issue 22 in the demo shop, in Chromium: a model try-on with no consent step and no shopper photo
// uploaded; a desktop and a phone (an emulated device) completing a hand-off and a try-on, on one
// proxy and across two proxy instances sharing Redis; a second use of a code refused on the phone.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { devices, type Browser, type Page } from 'playwright-core';
import { startDemo, type Demo } from '../../demo/start.js';
import { sharedStores } from '../proxy/stores.js';
import {
  choosePhoto,
  giveConsent,
  LIVE_KEY,
  openProduct,
  openShop,
  resultImage,
  startTryon,
  tryonDialog,
  withPage,
} from './shop.js';
import type { Shop } from './shop.js';

const PRODUCT = 'saree-nivi-ruby';
const PRODUCT_NAME = 'Ruby Banarasi Silk Saree';
const PHONE = devices['Pixel 7']!;

/** Counts the page's requests to the proxy by method and path end. */
function countRequests(page: Page): { photos: () => number } {
  let photos = 0;
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname.endsWith('/tryon/photos')) photos++;
  });
  return { photos: () => photos };
}

/** The desktop asks for a code ("Use your phone") and reads it as shown, in letters. */
async function desktopCode(page: Page): Promise<string> {
  const dialog = await startTryon(page);
  await dialog.getByRole('button', { name: 'Use your phone' }).click();
  await dialog.getByRole('img', { name: 'QR code that opens this page on your phone' }).waitFor();
  const code = (await dialog.locator('[part="handoff-code"] strong').textContent())?.trim() ?? '';
  assert.match(code, /^[2-9A-Z]{5}-[2-9A-Z]{5}$/);
  return code;
}

/** The phone opens the page with the code in its fragment, agrees, picks a photo and sends it. */
async function phoneSends(
  browser: Browser,
  url: string,
  code: string,
): Promise<{ page: Page; close: () => Promise<void> }> {
  const context = await browser.newContext({ ...PHONE });
  const page = await context.newPage();
  await page.goto(`${url}/products/${PRODUCT}#tryon-handoff=${code.replace('-', '')}`);
  const dialog = tryonDialog(page);
  await dialog.waitFor({ state: 'visible' });
  // The code leaves the address bar at once.
  assert.ok(!page.url().includes('tryon-handoff'), page.url());
  await giveConsent(dialog);
  await choosePhoto(dialog);
  await dialog.getByRole('button', { name: 'Send to my computer' }).click();
  return { page, close: () => context.close() };
}

/**
 * The desktop shows its code, a phone at `phoneUrl` sends its photo to it and hears it went, and
 * the desktop carries on by itself to the result (consent was given on the phone). The code, for
 * what a test does with it next.
 */
async function handOffToPhone(page: Page, browser: Browser, phoneUrl: string): Promise<string> {
  const code = await desktopCode(page);
  const phone = await phoneSends(browser, phoneUrl, code);
  try {
    await tryonDialog(phone.page).getByRole('heading', { name: 'Sent — look at your computer' }).waitFor();
    const image = await resultImage(tryonDialog(page), PRODUCT_NAME);
    assert.ok(image.width >= 256);
  } finally {
    await phone.close();
  }
  return code;
}

describe('see it on a model, and the hand-off, in the demo shop', () => {
  let shop: Shop;
  before(async () => {
    shop = await openShop();
  });
  after(async () => {
    await shop?.close();
  });

  test('a model try-on: no consent step, no shopper photo uploaded', async (t) => {
    await withPage(shop, t.name, async (page, problems) => {
      const requests = countRequests(page);
      await openProduct(page, shop, PRODUCT);
      const dialog = await startTryon(page);
      await dialog.getByRole('button', { name: 'No photo? See it on a model' }).click();
      // The grid is a chunk of its own: it shows once loaded.
      await dialog.getByRole('button', { name: 'Asha' }).waitFor();
      const models = dialog.getByRole('list').getByRole('button');
      assert.equal(await models.count(), 5);
      await dialog.getByRole('button', { name: 'Meera' }).click();
      const image = await resultImage(dialog, PRODUCT_NAME);
      assert.ok(image.width >= 256, `a real image, got ${image.width}`);
      assert.equal(requests.photos(), 0, 'no POST /photos');
      assert.equal(
        await dialog.getByRole('checkbox', { name: 'I agree to upload my photo for this try-on' }).count(),
        0,
      );
      assert.deepEqual(problems, []);
    });
  });

  test('a desktop and a phone complete a hand-off and a try-on; a second use of the code is refused', async (t) => {
    await withPage(shop, t.name, async (page, problems) => {
      await openProduct(page, shop, PRODUCT);
      const code = await handOffToPhone(page, shop.browser, shop.url);
      const again = await phoneSends(shop.browser, shop.url, code);
      try {
        const dialog = tryonDialog(again.page);
        await dialog.getByRole('heading', { name: 'Not sent' }).waitFor();
        await dialog.getByText('This code has already been used. Ask for a new one on your computer.').waitFor();
      } finally {
        await again.close();
      }
      assert.deepEqual(problems, []);
    });
  });
});

describe('the hand-off across two proxy instances on Redis', () => {
  let shop: Shop;
  let second: Demo;
  before(async () => {
    const [a, b] = await sharedStores('redis', 2);
    const secret = 'e2e-handoff-secret-0123456789abcdef0123';
    shop = await openShop({ proxyStore: a!, env: { ...process.env, TRYON_PROXY_SECRET: secret } });
    // The second instance: the same upstream, secret and Redis, its own process state and port.
    second = await startDemo({
      port: 0,
      quiet: true,
      proxyStore: b!,
      env: { ...process.env, TRYON_PROXY_SECRET: secret, TRYON_API_KEY: LIVE_KEY, TRYON_BASE_URL: shop.sandbox.url },
    });
  });
  after(async () => {
    await second?.close();
    await shop?.close();
  });

  test('the desktop on one instance, the phone on the other', async (t) => {
    await withPage(shop, t.name, async (page, problems) => {
      await openProduct(page, shop, PRODUCT);
      await handOffToPhone(page, shop.browser, second.url);
      assert.deepEqual(problems, []);
    });
  });
});
