// "Complete the look" in the demo shop: the Emerald Bridal Lehenga tried on, then its dupatta in
// another colour over that result (a try-on `over` it, rendered by the sandbox through the proxy),
// then "Add the look to cart": the shop's cart holds both pieces with their colours, and the proxy
// was told (POST /tryons/{h}/cart). The outfit's picture is sampled against the lehenga's: where it
// changed it is the dupatta's colour, and below, where the dupatta does not reach, still the
// lehenga's emerald. Chromium only (see tryon-variants.test.ts); the flow itself runs in all three
// engines in test/widget/outfit.test.ts.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import { openProduct, openShop, resultImage, tryOn, until, withPage } from './shop.js';
import type { Shop } from './shop.js';
import { products } from '../../demo/shop/products.js';

let shop: Shop;

before(async () => {
  shop = await openShop();
});
after(async () => {
  await shop?.close();
});

const LEHENGA = products.find((product) => product.id === 'lehenga-emerald')!;
const DUPATTA = products.find((product) => product.id === 'dupatta-gota')!;

type Rgb = [number, number, number];
type Pixels = { data: Buffer; width: number; height: number };

const rgbOf = (hex: string): Rgb => {
  const value = Number.parseInt(hex.slice(1), 16);
  return [(value >> 16) & 255, (value >> 8) & 255, value & 255];
};
const distance = (a: Rgb, b: Rgb) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
const median = (values: number[]) => values.sort((a, b) => a - b)[values.length >> 1] ?? 0;

/** A picture the dialog shows, fetched as the browser did and decoded to RGB. */
async function pixels(url: string): Promise<Pixels> {
  const response = await fetch(url);
  assert.equal(response.status, 200, `the picture ${url}`);
  const { data, info } = await sharp(Buffer.from(await response.arrayBuffer()))
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

describe('complete the look in the demo shop', () => {
  test('the lehenga, then its dupatta over it: both colours in the picture, both in the cart', async (t) => {
    const saffron = DUPATTA.colours.find((colour) => colour.id === 'saffron')!;
    const emerald = LEHENGA.colours.find((colour) => colour.id === 'emerald')!;
    assert.ok(saffron && emerald, 'the demo sells the dupatta in saffron and the lehenga in emerald');
    await withPage(shop, t.name, async (page, problems) => {
      const reports: { url: string; status: number; body: unknown }[] = [];
      page.on('response', async (response) => {
        if (response.request().method() === 'POST' && response.url().endsWith('/cart'))
          reports.push({ url: response.url(), status: response.status(), body: response.request().postDataJSON() });
      });
      await openProduct(page, shop, LEHENGA.id);
      const dialog = await tryOn(page);
      const base = await resultImage(dialog, LEHENGA.name);

      // "Complete the look": the dupatta offered with its picture, its colours, and "Add".
      await dialog.getByRole('heading', { name: 'Complete the look' }).waitFor();
      const colour = dialog.getByRole('combobox', { name: `Colour of ${DUPATTA.name}` });
      assert.deepEqual(
        await colour.locator('option').allTextContents(),
        DUPATTA.colours.map((c) => c.name),
      );
      await colour.selectOption({ label: saffron.name });
      await dialog.getByRole('button', { name: `Add ${DUPATTA.name}`, exact: true }).click();

      // Its full render in the result's place, named for the outfit.
      const outfitName = `${LEHENGA.name} and ${DUPATTA.name} (${saffron.name})`;
      const outfit = await resultImage(dialog, outfitName);
      assert.notEqual(outfit.src, base.src);
      await dialog
        .getByRole('listitem')
        .filter({ hasText: `${DUPATTA.name} (${saffron.name})` })
        .waitFor();
      await dialog.getByRole('button', { name: `Remove ${DUPATTA.name} (${saffron.name})` }).waitFor();

      // The pictures, as the proxy serves them: the same frame, the dupatta where it changed, the lehenga below it.
      const [before, after] = await Promise.all([pixels(base.src), pixels(outfit.src)]);
      assert.deepEqual([after.width, after.height], [before.width, before.height], "the base's own frame");
      const changed: number[][] = [[], [], []];
      let below = 0;
      let emeraldBelow = 0;
      for (let y = 0; y < after.height; y += 2) {
        for (let x = 0; x < after.width; x += 2) {
          const i = (y * after.width + x) * 3;
          const a: Rgb = [after.data[i]!, after.data[i + 1]!, after.data[i + 2]!];
          const b: Rgb = [before.data[i]!, before.data[i + 1]!, before.data[i + 2]!];
          if (distance(a, b) > 60) a.forEach((value, c) => changed[c]!.push(value));
          else if (y > after.height * 0.6 && distance(b, rgbOf(emerald.hex)) < 90) {
            below += 1;
            if (distance(a, rgbOf(emerald.hex)) < 90) emeraldBelow += 1;
          }
        }
      }
      const samples = changed[0]!.length;
      t.diagnostic(`changed points ${samples}, lower emerald points ${emeraldBelow} of ${below}`);
      assert.ok(samples > 500, `the dupatta changed the picture: ${samples} points`);
      const drape = changed.map(median) as Rgb;
      t.diagnostic(`the drape's median colour rgb(${drape.join(', ')})`);
      const [toSaffron, toRose] = [
        distance(drape, rgbOf(saffron.hex)),
        distance(drape, rgbOf(DUPATTA.colours[0]!.hex)),
      ];
      assert.ok(
        toSaffron < 110 && toSaffron < toRose,
        `the drape is the saffron chosen: rgb(${drape.join(', ')}), ${toSaffron.toFixed(0)} from saffron, ${toRose.toFixed(0)} from rose`,
      );
      assert.ok(
        below > 200 && emeraldBelow >= below * 0.9,
        `the lehenga's emerald below, where the drape does not reach: ${emeraldBelow} of ${below}`,
      );

      // The look to the shop's cart: both pieces, each in its colour; and the proxy told, once.
      await dialog.getByRole('button', { name: 'Add the look to cart' }).click();
      await dialog.getByRole('button', { name: 'The look is in your cart' }).waitFor();
      const cart = await page.evaluate(() => JSON.parse(sessionStorage.getItem('kapda-cart') ?? '[]') as unknown);
      assert.deepEqual(cart, [
        { product: LEHENGA.id, variant: emerald.id },
        { product: DUPATTA.id, variant: saffron.id },
      ]);
      assert.equal(await page.locator('[data-cart-count]').first().textContent(), '2');
      await until(
        'the outfit reported to the proxy',
        async () => reports.length,
        (n) => n === 1,
      );
      assert.equal(reports[0]!.status, 204);
      assert.deepEqual(reports[0]!.body, {
        pieces: [
          { product: LEHENGA.id, variant: emerald.id },
          { product: DUPATTA.id, variant: saffron.id },
        ],
      });
      assert.deepEqual(problems, []);
    });
  });
});
