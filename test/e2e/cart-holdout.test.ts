// The result's "Add to cart" and the holdout in the demo shop, in a real Chromium: the shop's toy
// cart takes the add (add-to-cart="event", its script hands the work back with waitUntil) and its
// count changes; a browser forced into the holdout never sees the button, never talks to the
// proxy, and reports its exposure (DOM event in the page's log, tryon_exposure to dataLayer).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openProduct, openShop, resultImage, tryOn, withPage } from './shop.js';
import type { Shop } from './shop.js';

let shop: Shop;

before(async () => {
  shop = await openShop();
});
after(async () => {
  await shop?.close();
});

describe('add to cart and the holdout in the demo shop', () => {
  test("add to cart from the result: the shop's cart count changes, and the dialog says it is in", async (t) => {
    await withPage(shop, t.name, async (page, problems) => {
      await openProduct(page, shop, 'saree-nivi-ruby');
      const count = page.locator('[data-cart-count]');
      assert.equal(await count.textContent(), '0');
      const dialog = await tryOn(page);
      await resultImage(dialog, 'Ruby Banarasi Silk Saree');

      const add = dialog.getByRole('button', { name: 'Add to cart', exact: true });
      await add.focus();
      await page.keyboard.press('Enter');
      await dialog.getByRole('button', { name: 'Added to cart', exact: true }).waitFor();
      await dialog.getByRole('status').filter({ hasText: 'Ruby Banarasi Silk Saree is in your cart.' }).waitFor();
      assert.equal(await count.textContent(), '1', 'the cart count changed');

      await dialog.getByRole('button', { name: 'Close' }).first().click();
      await dialog.waitFor({ state: 'hidden' });
      assert.equal(await count.textContent(), '1');
      assert.deepEqual(problems, []);
    });
  });

  for (const { draw, group } of [
    { draw: '0', group: 'holdout' },
    { draw: '0.5', group: 'treatment' },
  ] as const) {
    test(`holdout="0.1", a browser drawn ${draw}: ${group === 'holdout' ? 'no button, no proxy request' : 'the button'}, and its exposure reported as ${group}`, async (t) => {
      await withPage(shop, t.name, async (page, problems) => {
        await page.addInitScript((kept) => localStorage.setItem('tryon-holdout', kept), draw);
        const proxyRequests: string[] = [];
        const exposures: unknown[] = [];
        let twoReported = () => {};
        const twoExposures = new Promise<void>((resolve) => (twoReported = resolve));
        page.on('request', (request) => {
          const path = new URL(request.url()).pathname;
          if (!path.startsWith('/tryon/')) return;
          proxyRequests.push(`${request.method()} ${path}`);
          if (path === '/tryon/exposures' && exposures.push(request.postDataJSON()) === 2) twoReported();
        });
        await page.goto(`${shop.url}/products/dress-aline-indigo?holdout=0.1`);
        const log = page.getByRole('log', { name: 'Event log' });
        await log.locator('[data-event="tryon-exposure"]').waitFor({ state: 'attached' });
        const logged = await log.locator('[data-event="tryon-exposure"]').innerText();
        assert.match(logged, new RegExp(`"group":"${group}"`));

        const pushed = await page.waitForFunction(() => {
          const layer = (window as unknown as { dataLayer?: Record<string, unknown>[] }).dataLayer ?? [];
          return layer.find((entry) => entry['event'] === 'tryon_exposure');
        });
        assert.deepEqual(await pushed.jsonValue(), {
          event: 'tryon_exposure',
          product: 'dress-aline-indigo',
          variant: 'indigo',
          group,
          holdout: 0.1,
        });

        const button = page.getByRole('button', { name: 'See it on you', exact: true });
        if (group === 'holdout') {
          assert.equal(await button.count(), 0, 'the holdout never sees the button');
          const box = await page.locator('tryon-button').boundingBox();
          assert.ok(!box || box.width === 0, 'nothing of it takes space on the page');
          // Reloaded, still in the holdout: the draw is the browser's.
          await page.reload();
          await log.locator('[data-event="tryon-exposure"]').waitFor({ state: 'attached' });
          assert.equal(await button.count(), 0);
          // The holdout costs the shop nothing but the count the lift is measured against: one
          // exposure report per page view, no product, photo or try-on request.
          await twoExposures;
          assert.deepEqual(proxyRequests, ['POST /tryon/exposures', 'POST /tryon/exposures']);
          for (const exposure of exposures)
            assert.deepEqual(
              { product: (exposure as { product?: unknown }).product, group: (exposure as { group?: unknown }).group },
              { product: 'dress-aline-indigo', group: 'holdout' },
            );
        } else {
          await button.waitFor();
        }
        assert.equal(await page.evaluate(() => localStorage.getItem('tryon-holdout')), draw);
        assert.deepEqual(problems, []);
      });
    });
  }
});
