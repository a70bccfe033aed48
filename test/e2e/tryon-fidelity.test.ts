// True to the product, in the demo shop against the real sandbox and proxy: a faithful render is
// shown "Colours checked against the product", and one whose colours the sandbox drifted (its
// `colour_drift` fault) "Colours may differ from the product photo", each also in the result
// image's name, and the page hears `tryon-fidelity` once per try-on with the proxy's verdict.
// Chromium only, as every file here (see tryon-variants.test.ts); the label itself runs in all
// three engines in test/widget/fidelity.test.ts.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { choosePhoto, openProduct, openShop, resultImage, submit, tryOn, withPage } from './shop.js';
import type { Shop } from './shop.js';
import { products } from '../../demo/shop/products.js';

let shop: Shop;

before(async () => {
  // The check's CPU budget is for a machine doing nothing else; on a loaded test machine its answer
  // would be `unchecked` (over budget), which claims nothing and so shows nothing.
  shop = await openShop({ proxyLimits: { fidelityCpuMs: 20_000 } });
});
after(async () => {
  await shop?.close();
});

const SAREE = products.find((product) => product.id === 'saree-gujarati-marigold')!;

interface Heard {
  verdict: string;
  views: { view: string; colour: { deltaE: number }; coverage: string }[];
}

describe("the check against the product, as the demo shop's shopper sees it", () => {
  test('a faithful render is "checked"; one whose colours drifted "may differ", in words and in its name', async (t) => {
    await withPage(shop, t.name, async (page, problems) => {
      // What the page hears, kept where the test can read it.
      await page.addInitScript(() => {
        const heard: unknown[] = [];
        (window as unknown as { heard: unknown[] }).heard = heard;
        document.addEventListener('tryon-fidelity', (event) => heard.push((event as CustomEvent).detail));
      });
      const heard = () => page.evaluate(() => (window as unknown as { heard: Heard[] }).heard);
      await openProduct(page, shop, SAREE.id);

      const dialog = await tryOn(page);
      await resultImage(dialog, SAREE.name);
      const checked = dialog.getByText('Colours checked against the product', { exact: true });
      await checked.waitFor();
      await dialog
        .getByRole('img', { name: `You wearing ${SAREE.name} — Colours checked against the product`, exact: true })
        .waitFor();
      assert.equal(await dialog.getByText('Colours may differ from the product photo').count(), 0);
      const first = await heard();
      assert.deepEqual(
        first.map((h) => h.verdict),
        ['true'],
        JSON.stringify(first),
      );
      assert.deepEqual(
        first[0]!.views.map((v) => [v.view, v.coverage]),
        [['front', 'ok']],
      );

      // The same shopper, another photo, and the sandbox drifts the render's colours far past the check's threshold.
      await shop.sandbox.fault({ jobOutcome: 'colour_drift', deltaE: 20 });
      await dialog.getByRole('button', { name: 'Try another photo' }).click();
      await choosePhoto(dialog);
      await submit(dialog);
      const differs = dialog.getByText('Colours may differ from the product photo', { exact: true });
      await differs.waitFor();
      await dialog
        .getByRole('img', {
          name: `You wearing ${SAREE.name} — Colours may differ from the product photo`,
          exact: true,
        })
        .waitFor();
      assert.equal(await checked.count(), 0, 'no "checked" beside a render that differs');
      // Beside it, the colour the shopper would receive: the tried variant's own garment picture, loaded.
      const swatch = dialog.getByRole('img', { name: `Product photo of ${SAREE.name}`, exact: true });
      await swatch.waitFor();
      const drawn = await swatch.evaluate((element) => {
        const image = element as HTMLImageElement;
        const url = new URL(image.src);
        return { width: image.naturalWidth, src: url.pathname + url.search };
      });
      assert.ok(drawn.width > 0, 'the garment picture loaded');
      assert.equal(drawn.src, `/tryon/products/${SAREE.id}/image?variant=marigold`);
      const both = await heard();
      assert.deepEqual(
        both.map((h) => h.verdict),
        ['true', 'differs'],
        JSON.stringify(both),
      );
      assert.ok(
        both[1]!.views[0]!.colour.deltaE > first[0]!.views[0]!.colour.deltaE,
        `the drifted render is further from the garment (${JSON.stringify(both)})`,
      );
      assert.deepEqual(problems, []);
    });
  });
});
