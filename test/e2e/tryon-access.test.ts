// The same shop for shoppers who use only a keyboard, and for shoppers on a phone.
// Chromium only: playwright-core drives Firefox and WebKit only in Playwright's own patched builds,
// which it downloads (these machines cannot) and not Debian's firefox-esr or WebKitGTK. What differs
// between engines here, the dialog and its focus, the compare slider from the keyboard and by touch,
// and right to left, runs in all three engines in test/widget/ (keyboard, flow, look, languages).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import {
  choosePhoto,
  giveConsent,
  openProduct,
  openShop,
  resultImage,
  SHOPPER_PHOTO,
  submit,
  tryonDialog,
  withPage,
} from './shop.js';
import type { Shop } from './shop.js';

let shop: Shop;

before(async () => {
  shop = await openShop();
});
after(async () => {
  await shop?.close();
});

/** True when `target` holds focus, looking through shadow roots. */
function isFocused(target: Locator): Promise<boolean> {
  return target.evaluate((element) => {
    let active: Element | null = document.activeElement;
    while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
    return active === element;
  });
}

/** Presses Tab until `target` has focus (as a keyboard user would), failing after `max` presses. */
async function tabTo(page: Page, target: Locator, name: string, max = 40): Promise<void> {
  await target.waitFor();
  for (let presses = 0; presses < max; presses++) {
    if (await isFocused(target)) return;
    await page.keyboard.press('Tab');
  }
  assert.fail(`"${name}" never took focus after ${max} Tab presses`);
}

describe('keyboard and phone', () => {
  test('a keyboard-only run: Tab, Space and Enter from the product page to the result, Escape back', async (t) => {
    await withPage(shop, t.name, async (page, problems) => {
      // Listen for the file chooser from the start: Playwright turns on its interception
      // asynchronously when the first listener is added, and a chooser opened before that is lost.
      const chooserOpened = page.waitForEvent('filechooser', { timeout: 120_000 });
      chooserOpened.catch(() => undefined); // a failure earlier in the test must not leave it unhandled
      await openProduct(page, shop, 'bandhgala-midnight');
      const opener = page.getByRole('button', { name: 'Try it on', exact: true });
      await tabTo(page, opener, 'Try it on');
      await page.keyboard.press('Enter');

      const dialog = tryonDialog(page);
      await dialog.waitFor({ state: 'visible' });
      const consent = dialog.getByRole('checkbox', { name: 'I agree to upload my photo for this try-on' });
      await tabTo(page, consent, 'consent checkbox');
      await page.keyboard.press('Space');
      assert.equal(await consent.isChecked(), true);
      const carryOn = dialog.getByRole('button', { name: 'Continue' });
      await tabTo(page, carryOn, 'Continue');
      await page.keyboard.press('Enter');

      // "Choose a photo" opens the system file picker; the test answers it like a shopper would.
      const choose = dialog.getByRole('button', { name: 'Choose a photo' });
      await tabTo(page, choose, 'Choose a photo');
      await page.keyboard.press('Enter');
      const chooser = await chooserOpened;
      await chooser.setFiles(SHOPPER_PHOTO);

      const send = dialog.getByRole('button', { name: 'Try it on', exact: true });
      await tabTo(page, send, 'Try it on (submit)');
      await page.keyboard.press('Enter');
      await resultImage(dialog, 'Midnight Bandhgala');

      // Focus stayed inside the dialog throughout: Tab from the result lands on its controls.
      await page.keyboard.press('Tab');
      assert.equal(
        await dialog.evaluate((element) => {
          let active: Element | null = document.activeElement;
          while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
          return active !== null && element.contains(active);
        }),
        true,
        'focus is inside the dialog',
      );

      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
      assert.equal(await isFocused(opener), true, 'focus returns to the button that opened the dialog');
      assert.deepEqual(problems, []);
    });
  });

  test('a phone-sized viewport: the shop and the dialog fit, touch works end to end', async (t) => {
    await withPage(
      shop,
      t.name,
      async (page, problems) => {
        const width = 390;
        const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

        await page.goto(`${shop.url}/`);
        assert.ok((await overflow()) <= 0, 'the home page does not scroll sideways');
        await page.getByRole('link', { name: 'Emerald Bridal Lehenga' }).tap();
        await page.waitForURL(/\/products\/lehenga-emerald$/);
        assert.ok((await overflow()) <= 0, 'the product page does not scroll sideways');

        await page.getByRole('button', { name: 'Try it on', exact: true }).tap();
        const dialog = tryonDialog(page);
        await dialog.waitFor({ state: 'visible' });
        await giveConsent(dialog);
        await choosePhoto(dialog);
        await submit(dialog);
        await resultImage(dialog, 'Emerald Bridal Lehenga');

        const box = await dialog.boundingBox();
        assert.ok(box, 'the dialog is laid out');
        assert.ok(
          box.x >= 0 && box.x + box.width <= width + 0.5,
          `the dialog fits the screen's width: ${JSON.stringify(box)}`,
        );
        const image = await dialog
          .getByRole('img', { name: 'You wearing Emerald Bridal Lehenga' })
          .first()
          .boundingBox();
        assert.ok(
          image && image.x >= 0 && image.x + image.width <= width + 0.5,
          `the result fits: ${JSON.stringify(image)}`,
        );
        for (const name of ['Download', 'Try another photo', 'Show my photo', 'Before and after']) {
          const control = await dialog.getByRole('button', { name }).boundingBox();
          assert.ok(
            control && control.height >= 40,
            `"${name}" is a comfortable touch target: ${JSON.stringify(control)}`,
          );
        }
        assert.deepEqual(problems, []);
      },
      { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true },
    );
  });
});
