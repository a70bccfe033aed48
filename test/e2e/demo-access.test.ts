// The demo shop's own accessibility and polish, beside the widget's: a skip link that costs a
// right-to-left page no sideways scroll, a favicon, a privacy page linked from the consent step,
// and an event log a keyboard can scroll. Chromium only, as every file here (playwright-core
// drives Debian's Chromium; the widget's own suites run in every engine).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { choosePhoto, giveConsent, openProduct, openShop, startTryon, tryonDialog, withPage } from './shop.js';
import type { Shop } from './shop.js';

let shop: Shop;

before(async () => {
  shop = await openShop();
});
after(async () => {
  await shop?.close();
});

/** The deepest focused element's outer tag and text, through shadow roots. */
function focusedElement(page: Page): Promise<string> {
  return page.evaluate(() => {
    let active: Element | null = document.activeElement;
    while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
    return active ? `${active.tagName} ${active.textContent?.trim().slice(0, 40)}` : '';
  });
}

const VIEWPORTS = [
  { width: 1366, height: 768 },
  { width: 390, height: 844 },
];

describe('the demo shop', () => {
  for (const viewport of VIEWPORTS) {
    test(`a right-to-left page does not scroll sideways at ${viewport.width}×${viewport.height}, and the skip link shows on screen`, async (t) => {
      await withPage(
        shop,
        t.name,
        async (page, problems) => {
          for (const path of ['/', '/products/saree-nivi-ruby', '/products/dress-aline-indigo']) {
            for (const dir of ['ltr', 'rtl']) {
              // A fresh load each time, so the first Tab starts from the top of the page.
              await page.goto(`${shop.url}${path}`);
              await page.evaluate((value) => {
                document.documentElement.dir = value;
              }, dir);
              const { scrollWidth, clientWidth } = await page.evaluate(() => ({
                scrollWidth: document.documentElement.scrollWidth,
                clientWidth: document.documentElement.clientWidth,
              }));
              assert.equal(
                scrollWidth,
                clientWidth,
                `${path} dir=${dir}: scrollWidth ${scrollWidth}, clientWidth ${clientWidth}`,
              );

              // The first Tab shows the skip link inside the viewport, at the start of the line.
              await page.keyboard.press('Tab');
              assert.match(await focusedElement(page), /^A Skip to content/);
              const box = await page.getByRole('link', { name: 'Skip to content' }).boundingBox();
              assert.ok(
                box && box.x >= 0 && box.x + box.width <= clientWidth && box.y >= 0 && box.width > 40,
                `${path} dir=${dir}: the focused skip link is on screen: ${JSON.stringify(box)}`,
              );
              const atStart = dir === 'ltr' ? box.x < clientWidth / 2 : box.x + box.width > clientWidth / 2;
              assert.ok(
                atStart,
                `${path} dir=${dir}: the skip link sits at the start of the line: ${JSON.stringify(box)}`,
              );
            }
          }
          assert.deepEqual(problems, []);
        },
        { viewport },
      );
    });
  }

  for (const viewport of VIEWPORTS) {
    test(`every product page shows "Try it on" whole in its first screen at ${viewport.width}×${viewport.height}`, async (t) => {
      await withPage(
        shop,
        t.name,
        async (page, problems) => {
          const home = await (await fetch(shop.url)).text();
          const products = [...new Set([...home.matchAll(/href="\/products\/([^"]+)"/g)].map((m) => m[1]!))];
          assert.ok(products.length >= 9, `the home page lists the products: ${products.join(', ')}`);
          for (const product of products) {
            await page.goto(`${shop.url}/products/${product}`);
            const button = page.getByRole('button', { name: /try it on|try on|see it on you/i }).first();
            await button.waitFor();
            const box = await button.boundingBox();
            assert.ok(
              box && box.y >= 0 && box.y + box.height <= viewport.height,
              `${product}: the try-on button ends at ${box ? Math.round(box.y + box.height) : '?'} px in a ${viewport.height} px screen`,
            );
            assert.ok(box.height >= 44, `${product}: the button is ${box.height} px tall`);
          }
          assert.deepEqual(problems, []);
        },
        { viewport },
      );
    });
  }

  test('GET /favicon.ico is an image, and every page links it', async (t) => {
    const response = await fetch(`${shop.url}/favicon.ico`);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^image\//);
    const bytes = new Uint8Array(await response.arrayBuffer());
    // An ICO directory of one image, holding a PNG.
    assert.deepEqual([...bytes.subarray(0, 6)], [0, 0, 1, 0, 1, 0]);
    assert.deepEqual([...bytes.subarray(22, 26)], [0x89, 0x50, 0x4e, 0x47]);
    await withPage(shop, t.name, async (page) => {
      await page.goto(`${shop.url}/products/saree-nivi-ruby`);
      const size = await page.evaluate(async () => {
        const href = document.querySelector<HTMLLinkElement>('link[rel="icon"]')?.href;
        if (!href) return undefined;
        const image = new Image();
        image.src = href;
        await image.decode();
        return { width: image.naturalWidth, height: image.naturalHeight };
      });
      assert.deepEqual(size, { width: 32, height: 32 }, 'the linked icon decodes as a 32×32 image');
    });
  });

  test("the consent step links the shop's privacy page, which answers", async (t) => {
    await withPage(shop, t.name, async (page, problems) => {
      await openProduct(page, shop, 'bandhgala-midnight');
      const dialog = await startTryon(page);
      const link = dialog.getByRole('link', { name: 'How we handle your photo' });
      await link.waitFor();
      const href = await link.evaluate((element) => (element as HTMLAnchorElement).href);
      assert.equal(href, `${shop.url}/privacy`);
      const response = await fetch(href);
      assert.equal(response.status, 200);
      assert.match(await response.text(), /<h1[^>]*>How we handle your photo<\/h1>/);
      // The privacy page is one of the consent step's words, and the try-on goes on past it.
      await giveConsent(dialog);
      await choosePhoto(dialog);
      await tryonDialog(page).getByRole('img', { name: 'Your photo, ready to send' }).waitFor();
      assert.deepEqual(problems, []);
    });
  });

  test("the themed page's event log is a labelled log that a keyboard can focus and scroll", async (t) => {
    await withPage(shop, t.name, async (page, problems) => {
      await openProduct(page, shop, 'dress-aline-indigo');
      const log = page.getByRole('log', { name: 'Event log' });
      await log.waitFor();
      assert.equal(await log.getAttribute('tabindex'), '0');

      // Fill it past its height: each open and close logs two events and two dataLayer pushes.
      const lines = page.locator('[data-event-log-list] li:not(.empty)');
      // The button as the shopper sees it: the element's label is its light-DOM text, visible (and
      // clickable, to no effect) before the widget's module defines the element.
      const opener = page.getByRole('button', { name: 'See it on you', exact: true });
      for (let round = 1; round <= 6; round++) {
        await opener.click();
        await tryonDialog(page).waitFor({ state: 'visible' });
        await page.keyboard.press('Escape');
        await tryonDialog(page).waitFor({ state: 'hidden' });
        await page.waitForFunction(
          (count) => document.querySelectorAll('[data-event-log-list] li:not(.empty)').length >= count,
          round * 4,
        );
      }
      assert.ok((await lines.count()) >= 24);
      const metrics = () =>
        log.evaluate((element) => ({
          top: element.scrollTop,
          height: element.scrollHeight,
          client: element.clientHeight,
        }));
      const filled = await metrics();
      assert.ok(filled.height > filled.client, `the log overflows: ${JSON.stringify(filled)}`);
      assert.ok(filled.top + filled.client >= filled.height - 1, 'the newest line is in view');

      // Tab reaches the log from the page; Home, then arrows and End scroll it.
      await page.evaluate(() => {
        // Start the Tab walk from the heading just before the log, as a reader who got there would.
        const heading = document.getElementById('event-log-title')!;
        heading.tabIndex = -1;
        heading.focus();
      });
      await page.keyboard.press('Tab');
      assert.equal(
        await log.evaluate((element) => element === document.activeElement),
        true,
        'Tab from the heading focuses the log',
      );
      // Each key's scroll is awaited on the log's own scrollend (keyboard scrolls are animated).
      await log.evaluate((element) => {
        const ends: number[] = [];
        (window as unknown as { logScrollEnds: number[] }).logScrollEnds = ends;
        element.addEventListener('scrollend', () => ends.push(element.scrollTop));
      });
      const scrollWith = async (key: string): Promise<number> => {
        const before = await page.evaluate(
          () => (window as unknown as { logScrollEnds: number[] }).logScrollEnds.length,
        );
        await page.keyboard.press(key);
        const settled = await page.waitForFunction((count) => {
          const ends = (window as unknown as { logScrollEnds: number[] }).logScrollEnds;
          return ends.length > count ? ends[ends.length - 1]! + 1 : 0;
        }, before);
        return (await settled.jsonValue()) - 1;
      };
      assert.equal(await scrollWith('Home'), 0, 'Home scrolls the log to its first line');
      assert.ok((await scrollWith('PageDown')) > 0, 'Page Down scrolls it down');
      const { height, client } = await metrics();
      assert.ok((await scrollWith('End')) >= height - client - 1, 'End scrolls it to the newest line');
      assert.deepEqual(problems, []);
    });
  });
});
