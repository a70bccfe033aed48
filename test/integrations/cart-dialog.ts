// The shopper's path through the built widget on a shop's product page, as the platform cart tests
// (shopify-cart.test.ts, woocommerce-cart.test.ts) drive it in Chromium: one page per test, closed
// when the test ends, and the dialog taken to its result through the real proxy, where "Add to cart" is.
import type { TestContext } from 'node:test';
import type { Browser, Locator, Page } from 'playwright-core';
import type { CatalogFile } from '../../proxy/catalog/catalog.js';
import { CATALOG, closeAfter, personPhoto } from '../proxy/stack.js';
import { goOnPastPhotoCheck } from '../e2e/photo-check.js';

/** Generous for a loaded two-core machine; every wait is for an event, bounded by this. */
export const WAIT = 30_000;

/** A new page at `url`, closed when the test ends (passed or failed), its uncaught errors collected. */
export async function openShopPage(
  t: TestContext,
  browser: Browser,
  url: string,
): Promise<{ page: Page; errors: string[] }> {
  const page = closeAfter(t, await browser.newPage());
  page.setDefaultTimeout(WAIT);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(url, { waitUntil: 'load' });
  return { page, errors };
}

/**
 * From the product page: "Try it on", consent, a photo of a person (on past the photo check), "Try it on"
 * in the dialog, and waits for the result. Returns the dialog.
 */
export async function tryOnToResult(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: 'Try it on', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Virtual try-on' });
  await dialog.getByRole('checkbox', { name: 'I agree to upload my photo for this try-on' }).check();
  await dialog.getByRole('button', { name: 'Continue' }).click();
  await dialog
    .getByLabel('Your photo', { exact: true })
    .setInputFiles({ name: 'me.jpg', mimeType: 'image/jpeg', buffer: Buffer.from(await personPhoto()) });
  await goOnPastPhotoCheck(dialog);
  await dialog.getByRole('button', { name: 'Try it on', exact: true }).click();
  await page.locator('tryon-button[status="result"]').waitFor({ state: 'attached' });
  return dialog;
}

/**
 * The tests' catalog with a Banarasi saree in two colours under the platform's variant ids
 * (`ivory`, `sindoor`): Sindoor red is draped another way (nivi), so its try-on differs.
 */
export function catalogWithSaree(ivory: string | number, sindoor: string | number): CatalogFile {
  return {
    ...CATALOG,
    products: {
      ...CATALOG.products,
      'saree-banarasi': {
        mode: 'garment_to_person',
        garmentImage: 'garments/banarasi-red.png',
        garment: { category: 'saree', subtype: 'bengali' },
        name: 'Banarasi saree',
        variants: {
          [String(ivory)]: { name: 'Ivory' },
          [String(sindoor)]: { name: 'Sindoor red', garment: { subtype: 'nivi' } },
        },
      },
    },
  };
}
