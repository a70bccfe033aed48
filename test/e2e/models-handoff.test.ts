// Models and the desktop → phone hand-off in the demo shop, in Chromium: a model try-on with no
// consent step and no shopper photo uploaded; a desktop and a phone (an emulated device) completing a hand-off and a try-on, on one
// proxy and across two proxy instances sharing Redis, the desktop typing the number the phone
// shows; a second use of a code refused on the phone. And the hand-off link sent by an attacker:
// the victim's phone sends its photo, but the attacker's desktop, which never sees the phone's
// number, gets no photo, and its wrong guesses end the hand-off.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { devices, type Browser, type Page, type Response as PlaywrightResponse } from 'playwright-core';
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

/** Counts the page's try-on submits (POST …/tryons). */
function countTryons(page: Page): () => number {
  let tryons = 0;
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname.endsWith('/tryon/tryons')) tryons++;
  });
  return () => tryons;
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
): Promise<{ page: Page; sent: Promise<PlaywrightResponse | undefined>; close: () => Promise<void> }> {
  const context = await browser.newContext({ ...PHONE });
  const page = await context.newPage();
  await page.goto(`${url}/products/${PRODUCT}#tryon-handoff=${code.replace('-', '')}`);
  const dialog = tryonDialog(page);
  await dialog.waitFor({ state: 'visible' });
  // The code leaves the address bar at once.
  assert.ok(!page.url().includes('tryon-handoff'), page.url());
  await giveConsent(dialog);
  // Said before anything is sent: whose computer the photo goes to.
  await dialog.getByRole('heading', { name: 'Send a photo to the computer that showed the code' }).waitFor();
  await choosePhoto(dialog);
  // Its upload's answer, heard from before the click (a closed page ends the wait with nothing).
  const sent = page
    .waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname.endsWith('/tryon/photos'))
    .catch(() => undefined);
  await dialog.getByRole('button', { name: 'Send to my computer' }).click();
  return { page, sent, close: () => context.close() };
}

/** The number the phone shows once its photo went up, as shown (`123 456`). */
async function phoneNumber(page: Page): Promise<string> {
  const dialog = tryonDialog(page);
  await dialog.getByRole('heading', { name: 'Type this number on your computer' }).waitFor();
  await dialog
    .getByText('Then the photo goes to the computer that showed the code. Not yours? Close this page.')
    .waitFor();
  const number = (await dialog.locator('[part="handoff-number"] strong').textContent())?.trim() ?? '';
  assert.match(number, /^[0-9]{3} [0-9]{3}$/);
  return number;
}

/** Types a number on the desktop, by keyboard, into the field the hand-off shows once the phone's photo came. */
async function typeOnDesktop(page: Page, number: string): Promise<void> {
  const field = tryonDialog(page).getByRole('textbox', { name: 'Number shown on your phone' });
  await field.waitFor();
  await field.fill('');
  await field.pressSequentially(number);
  await field.press('Enter');
}

/**
 * The desktop shows its code, a phone at `phoneUrl` sends its photo to it and hears it went, and
 * the desktop carries on by itself to the result (consent was given on the phone). The code, for
 * what a test does with it next.
 */
async function handOffToPhone(page: Page, browser: Browser, phoneUrl: string): Promise<string> {
  const tryons = countTryons(page);
  const code = await desktopCode(page);
  const phone = await phoneSends(browser, phoneUrl, code);
  try {
    const number = await phoneNumber(phone.page);
    // The photo has come, but it is not the desktop's until the number is typed there.
    await tryonDialog(page).getByRole('textbox', { name: 'Number shown on your phone' }).waitFor();
    assert.equal(tryons(), 0, 'no try-on before the number');
    await typeOnDesktop(page, number);
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

describe('a hand-off link sent by an attacker', () => {
  let shop: Shop;
  before(async () => {
    shop = await openShop();
  });
  after(async () => {
    await shop?.close();
  });

  test('the attacker’s desktop never gets the photo of a phone whose shopper did not confirm', async (t) => {
    await withPage(shop, t.name, async (attacker, problems) => {
      // Everything the proxy answers the attacker's page about its hand-off, and its handle.
      const answers: Promise<string>[] = [];
      let handle = '';
      attacker.on('response', (response) => {
        const path = new URL(response.url()).pathname;
        if (!path.includes('/tryon/handoffs')) return;
        answers.push(
          response.text().then(
            (text) => {
              if (response.request().method() === 'POST' && path.endsWith('/tryon/handoffs'))
                handle = (JSON.parse(text) as { handoff: string }).handoff;
              return text;
            },
            // An event stream still open has no body to give; what it said is read from the proxy below.
            () => '',
          ),
        );
      });
      const tryons = countTryons(attacker);
      const jobsBefore = (await shop.sandbox.workspace()).jobs.length;
      await openProduct(attacker, shop, PRODUCT);
      const code = await desktopCode(attacker);

      // The victim opens the link on her phone, is told whose computer the photo goes to, sends it,
      // and is shown a number to type on "her" computer, which shows nothing: she types it nowhere.
      const victim = await phoneSends(shop.browser, shop.url, code);
      const number = await (async () => {
        try {
          assert.equal((await victim.sent)?.status(), 201);
          // The photo is up: what the attacker's desktop reads of its hand-off holds no photo.
          const read = await attacker.evaluate(async (h) => (await fetch(`/tryon/handoffs/${h}`)).text(), handle);
          assert.ok(!read.includes('v1.photo.'), `a photo handle reached the attacker: ${read}`);
          assert.equal((JSON.parse(read) as { status: string }).status, 'confirming');
          return (await phoneNumber(victim.page)).replace(' ', '');
        } finally {
          await victim.close();
        }
      })();
      assert.equal(tryons(), 0, 'no try-on on the attacker’s desktop');

      // The attacker's desktop asks for the number it cannot see; five guesses end the hand-off.
      const dialog = tryonDialog(attacker);
      const status = attacker.getByRole('dialog').getByRole('status');
      for (let n = 1; n <= 5; n++) {
        await typeOnDesktop(attacker, String((Number(number) + n * 1111) % 1_000_000).padStart(6, '0'));
        if (n < 5) await status.getByText(`Tries left: ${5 - n}.`).waitFor();
      }
      await status.getByText('Too many wrong numbers').waitFor();
      await dialog.getByRole('button', { name: 'Get a new code' }).waitFor();
      assert.equal(await dialog.getByRole('textbox', { name: 'Number shown on your phone' }).count(), 0);

      // Even the right number is refused now; the proxy says the hand-off ended, with no photo.
      const late = await attacker.evaluate(
        async ({ h, n }) => {
          const confirm = await fetch(`/tryon/handoffs/${h}/confirm`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ number: n }),
          });
          const read = await fetch(`/tryon/handoffs/${h}`);
          return { status: confirm.status, confirm: await confirm.text(), read: await read.text() };
        },
        { h: handle, n: number },
      );
      assert.equal(late.status, 410, late.confirm);
      assert.match(late.confirm, /handoff_tries_used/);
      assert.equal((JSON.parse(late.read) as { status: string }).status, 'expired');

      for (const text of [...(await Promise.all(answers)), late.confirm, late.read])
        assert.ok(!text.includes('v1.photo.'), `a photo handle reached the attacker: ${text}`);
      assert.equal(tryons(), 0, 'no try-on on the attacker’s desktop');
      assert.equal((await shop.sandbox.workspace()).jobs.length, jobsBefore, 'no try-on of the victim upstream');
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
