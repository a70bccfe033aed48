// The day's budget in the demo shop: with a budget of one try-on, the first shopper makes it and
// the second never sees the button (the proxy's GET /products says `available: false`, reason
// `daily_budget_reached`, and the widget hides the button before anything can be uploaded). The
// button stays unseen from the first frame: a recorder in the page samples it on every frame.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openProduct, openShop, resultImage, tryOn, until, withPage } from './shop.js';
import type { Shop } from './shop.js';

let shop: Shop;

before(async () => {
  shop = await openShop({ proxyLimits: { dailyTryons: 1 } });
});
after(async () => {
  await shop?.close();
});

describe('the day’s budget', () => {
  test('with a budget of one try-on, the second shopper never sees the button', async (t) => {
    await withPage(shop, `${t.name} (first shopper)`, async (page, problems) => {
      await openProduct(page, shop, 'saree-nivi-ruby');
      const dialog = await tryOn(page);
      await resultImage(dialog, 'Ruby Banarasi Silk Saree');
      assert.deepEqual(problems, []);
    });
    const afterFirst = await until(
      'the try-on to succeed',
      () => shop.sandbox.workspace(),
      (ws) => ws.jobs.some((job) => job.status === 'succeeded'),
    );
    // One try-on (standard tier) and its first look (a draft job of its own).
    assert.deepEqual(
      afterFirst.jobs
        .filter((job) => job.parent === null)
        .map((job) => job.tier)
        .sort(),
      ['draft', 'standard'],
    );
    const uploadsBefore = (await shop.sandbox.state()).requests['POST /v1/files'] ?? 0;
    assert.ok(uploadsBefore >= 1, 'the first shopper’s photo went up');

    await withPage(shop, `${t.name} (second shopper)`, async (page, problems) => {
      // Every frame from the first: was a "Try it on" button ever shown (rendered, not transparent)?
      // A string, not a function: the test's compiler would wrap a function's names in helpers the page lacks.
      await page.addInitScript(`
        window.buttonSeen = [];
        const look = () => {
          for (const host of document.querySelectorAll('tryon-button')) {
            const button = host.shadowRoot && host.shadowRoot.querySelector('[part="button"]');
            if (!button) continue;
            const style = getComputedStyle(button);
            const box = button.getBoundingClientRect();
            if (style.opacity !== '0' && style.visibility !== 'hidden' && box.width > 0 && box.height > 0) window.buttonSeen.push(performance.now());
          }
          requestAnimationFrame(look);
        };
        requestAnimationFrame(look);
      `);
      // Not openProduct: it waits for the element to be visible, and an element without its button is not.
      await page.goto(`${shop.url}/products/saree-nivi-ruby`);
      const element = page.locator('tryon-button').first();
      await page.waitForFunction(
        () => document.querySelector('tryon-button')?.getAttribute('unavailable') === 'daily_budget_reached',
        undefined,
        { timeout: 30_000 },
      );
      // A few more frames after the answer, then the record.
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
      assert.equal(await page.getByRole('button', { name: 'Try it on', exact: true }).count(), 0, 'no button to press');
      assert.deepEqual(await page.evaluate('window.buttonSeen'), [], 'the button was never shown');
      assert.equal(await element.getAttribute('unavailable'), 'daily_budget_reached');
      assert.deepEqual(problems, []);
    });
    const end = await shop.sandbox.workspace();
    assert.equal(
      end.jobs.filter((job) => job.parent === null).length,
      afterFirst.jobs.filter((job) => job.parent === null).length,
      'nothing more was spent',
    );
    assert.equal((await shop.sandbox.state()).requests['POST /v1/files'] ?? 0, uploadsBefore, 'no photo was uploaded');
  });
});
