// The Shopify theme block's "Add to cart", as `npm run build` writes the extension: the block
// rendered with liquidjs on a theme-like page, the built widget in Chromium, a real proxy and
// sandbox behind it, and a stand-in of Shopify's cart endpoints (shopify-cart-stand-in.ts: the
// answer shapes of Shopify's Ajax API reference, Cart API, as documented in 2025, errors as of the
// 2025-03-04 changelog). The page carries what Dawn and Horizon refresh their cart from: Dawn's
// `publish` (assets/pubsub.js) and a <cart-notification> that renders the sections asked for with
// the add (its cart bubble), and Horizon's listeners of `shopify:cart:lines-update` (v4) and
// `cart:update` (v2–3), each writing the count it was told.
import { after, before, describe, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { buildIntegrations } from '../../scripts/build.js';
import { cachedCdnBuild } from '../../scripts/kept-builds.js';
import { CHROMIUM_ARGS } from '../../scripts/chromium.js';
import { programPath } from '../../scripts/prerequisites.js';
import { startStack, type Stack } from '../proxy/stack.js';
import { product, renderBlock } from './shopify-block.js';
import { shopifyCartStandIn, type ShopifyCartStandIn } from './shopify-cart-stand-in.js';
import { catalogWithSaree, openShopPage, tryOnToResult } from './cart-dialog.js';

const ROOT = '/en-in/';
const VARIANTS = [44871234567890, 44871234567891];
const work = await mkdtemp(join(tmpdir(), 'tryon-shopify-cart-'));

let extension: string;
let stack: Stack;
let cart: ShopifyCartStandIn;
let browser: Browser;
let shopUrl = '';
let closeShop: () => Promise<void> = async () => {};

/** What a Dawn or Horizon page holds for its cart, reduced to what they read from an add. */
const THEME_SCRIPT = `
  window.Shopify = { routes: { root: '${ROOT}' } };
  // Shopify's Customer Privacy API as its cookie banner leaves it: the visitor's answer (here from
  // the page's query, ?consent=yes), and visitorConsentCollected when the visitor answers again.
  const query = new URLSearchParams(location.search);
  window.analyticsAllowed = query.get('consent') === 'yes';
  window.Shopify.customerPrivacy = { analyticsProcessingAllowed: () => window.analyticsAllowed };
  // This browser's holdout draw (?draw=0.5: treatment under holdout="0.1").
  if (query.has('draw')) localStorage.setItem('tryon-holdout', query.get('draw'));
  // Dawn's assets/pubsub.js: a classic script's function, on window.
  window.published = [];
  function publish(eventName, data) { window.published.push([eventName, data]); return Promise.resolve(); }
  // Dawn's <cart-notification>: the sections it renders after an add, and renderContents.
  customElements.define('cart-notification', class extends HTMLElement {
    getSectionsToRender() { return [{ id: 'cart-icon-bubble' }]; }
    renderContents(parsedState) {
      this.renderedKey = parsedState.key;
      for (const section of this.getSectionsToRender()) {
        const html = new DOMParser().parseFromString(parsedState.sections[section.id], 'text/html');
        document.getElementById(section.id).innerHTML = html.querySelector('.shopify-section').innerHTML;
      }
    }
  });
  // Horizon 4's cart icon reads the event's promise; Horizon 2–3's reads detail.data.itemCount.
  document.addEventListener('shopify:cart:lines-update', (event) => {
    event.promise.then(({ cart }) => { document.getElementById('horizon-count').textContent = String(cart.totalQuantity); });
  });
  document.addEventListener('cart:update', (event) => {
    document.getElementById('horizon3-count').textContent = String(event.detail.data.itemCount);
  });
`;

before(async () => {
  const cdn = await cachedCdnBuild(join(work, 'cdn'));
  [extension] = (await buildIntegrations(cdn.outDir, join(work, 'dist'))) as [string];
  cart = shopifyCartStandIn(ROOT, [
    { id: VARIANTS[0]!, title: 'Ivory', price: 1_250_000, stock: 5, productId: 8123456789, handle: 'saree-banarasi' },
    {
      id: VARIANTS[1]!,
      title: 'Sindoor red',
      price: 1_250_000,
      stock: 1,
      productId: 8123456789,
      handle: 'saree-banarasi',
    },
  ]);
  const shop = new Hono();
  shop.route('/', cart.app);
  shop.get('/assets/:file', async (c) => {
    const file = c.req.param('file');
    if (!/^[\w.-]+\.js$/.test(file)) return c.notFound();
    const body = await readFile(join(extension, 'assets', file)).catch(() => undefined);
    return body ? c.body(body, 200, { 'Content-Type': 'text/javascript; charset=utf-8' }) : c.notFound();
  });
  shop.get('/theme.js', (c) => c.body(THEME_SCRIPT, 200, { 'Content-Type': 'text/javascript; charset=utf-8' }));
  shop.get('/products/saree-banarasi', async (c) => {
    const selected = VARIANTS.find((id) => String(id) === c.req.query('variant')) ?? VARIANTS[0]!;
    const block = await renderBlock({
      product: {
        ...product('saree-banarasi', { tryon_enabled: { value: true } }, VARIANTS),
        selected_or_first_available_variant: { id: selected },
      },
      settings: {
        endpoint: stack.url,
        add_to_cart: c.req.query('cart') !== 'off',
        holdout: c.req.query('holdout') ?? 'none',
      },
      assetBase: '/assets/',
    });
    return c.html(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Banarasi saree</title><script src="/theme.js"></script></head><body>
      <header><a href="${ROOT}cart" id="cart-icon-bubble"><span class="cart-count-bubble"><span aria-hidden="true">0</span></span></a>
      <span id="horizon-count">0</span><span id="horizon3-count">0</span></header>
      <cart-notification></cart-notification>
      <h1>Banarasi saree</h1>${block}</body></html>`);
  });
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: shop.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  const address = server.address();
  assert.ok(address && typeof address === 'object');
  shopUrl = `http://127.0.0.1:${address.port}`;
  closeShop = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
    });
  stack = await startStack({
    proxy: {
      allowedOrigins: [shopUrl],
      catalog: catalogWithSaree(VARIANTS[0]!, VARIANTS[1]!),
    },
  });
  browser = await chromium.launch({ executablePath: programPath('chromium'), args: CHROMIUM_ARGS, headless: true });
});

after(async () => {
  await browser?.close();
  await closeShop();
  await stack?.close();
  await rm(work, { recursive: true, force: true });
});

/** The product page, a try-on through the real proxy, up to the result. */
async function tryOnPage(t: TestContext, path: string): Promise<{ page: Page; dialog: Locator; errors: string[] }> {
  const { page, errors } = await openShopPage(t, browser, `${shopUrl}${path}`);
  return { page, dialog: await tryOnToResult(page), errors };
}

describe("the block's Add to cart, against a stand-in of Shopify's cart endpoints", () => {
  test('on by default: the variant tried on reaches the cart; Dawn and Horizon are told; it says so', async (t) => {
    const { page, dialog, errors } = await tryOnPage(t, `/products/saree-banarasi?variant=${VARIANTS[1]}`);
    const tag = page.locator('tryon-button');
    assert.equal(await tag.getAttribute('add-to-cart'), 'shopify');
    assert.equal(await tag.getAttribute('cart-id'), String(VARIANTS[1]));
    await dialog.getByRole('button', { name: 'Add to cart', exact: true }).press('Enter');
    await dialog.getByRole('button', { name: 'Added to cart', exact: true }).waitFor();
    await dialog.getByRole('status').filter({ hasText: 'Banarasi saree is in your cart.' }).waitFor();

    assert.deepEqual(cart.adds.at(-1), {
      items: [{ id: VARIANTS[1], quantity: 1, properties: { _tryon: 'saree-banarasi' } }],
      sections: ['cart-icon-bubble'],
      sections_url: '/products/saree-banarasi',
    });
    assert.equal(cart.itemCount(), 1);
    // Dawn: the bubble rendered from the sections of the add, and publish(cart-update).
    assert.equal((await page.locator('#cart-icon-bubble').innerText()).trim(), '1');
    const published = await page.evaluate(() =>
      (window as unknown as { published: [string, { source: string; productVariantId: string }][] }).published.map(
        ([name, data]) => [name, data.source, data.productVariantId],
      ),
    );
    assert.deepEqual(published, [['cart-update', 'tryon-button', String(VARIANTS[1])]]);
    assert.equal(
      await page.evaluate(
        () => (document.querySelector('cart-notification') as HTMLElement & { renderedKey: string }).renderedKey,
      ),
      `${VARIANTS[1]}:9f1c2b3a4d5e6f708192a3b4c5d6e7f8`,
      'Dawn renders the line item added',
    );
    // Horizon 4 and 2–3.
    await page.locator('#horizon-count', { hasText: '1' }).waitFor();
    assert.equal(await page.locator('#horizon3-count').innerText(), '1');
    assert.deepEqual(errors, []);
  });

  test("that variant's stock is one: Shopify's refusal is shown (role=alert) in its own words after ours, nothing counted", async (t) => {
    const before = cart.itemCount();
    const { page, dialog } = await tryOnPage(t, `/products/saree-banarasi?variant=${VARIANTS[1]}`);
    await dialog.getByRole('button', { name: 'Add to cart', exact: true }).click();
    const alert = dialog.getByRole('alert');
    await alert.waitFor();
    assert.equal(
      (await alert.innerText()).trim(),
      'Could not add Banarasi saree to your cart. Please try again. The maximum quantity of this item is already in your cart.',
    );
    assert.equal(cart.itemCount(), before);
    assert.equal(await page.locator('#horizon-count').innerText(), '0');
  });

  test('with the setting off, no add-to-cart attribute and no button on the result', async (t) => {
    const { page, dialog } = await tryOnPage(t, '/products/saree-banarasi?cart=off');
    assert.equal(await page.locator('tryon-button').getAttribute('add-to-cart'), null);
    await dialog.getByRole('button', { name: 'Download' }).first().waitFor();
    assert.equal(await dialog.getByRole('button', { name: 'Add to cart', exact: true }).count(), 0);
  });
});

describe("the try-on's marks on the cart, with the block's holdout", () => {
  test('with consent: the cart carries the group and the browser id, the tried-on line its _tryon; withdrawn, the id goes', async (t) => {
    const { page, errors } = await openShopPage(
      t,
      browser,
      `${shopUrl}/products/saree-banarasi?variant=${VARIANTS[0]}&holdout=0.1&draw=0.5&consent=yes`,
    );
    assert.equal(await page.locator('tryon-button').getAttribute('holdout'), '0.1');
    // Marked at the exposure, before any add: a shopper who adds with the theme's own button counts too.
    const atExposure = await cart.attributesWhen((a) => Boolean(a['_tryon_group']));
    const kept = await page.evaluate(() => localStorage.getItem('tryon-browser'));
    assert.match(kept ?? '', /^[A-Za-z0-9_-]{22}$/, 'a 128-bit base64url id, kept with consent');
    assert.deepEqual(atExposure, { _tryon_group: 'treatment', _tryon_browser: kept });

    const dialog = await tryOnToResult(page);
    await dialog.getByRole('button', { name: 'Add to cart', exact: true }).click();
    await dialog.getByRole('button', { name: 'Added to cart', exact: true }).waitFor();
    const added = cart.adds.at(-1) as { items: unknown[] };
    assert.deepEqual(added.items, [{ id: VARIANTS[0], quantity: 1, properties: { _tryon: 'saree-banarasi' } }]);
    assert.deepEqual(
      cart.lines().find((line) => line.id === VARIANTS[0] && line.properties['_tryon']),
      { id: VARIANTS[0], quantity: 1, properties: { _tryon: 'saree-banarasi' } },
      'the line keeps its mark (an order line property)',
    );
    assert.deepEqual(cart.attributes, { _tryon_group: 'treatment', _tryon_browser: kept });

    // The visitor withdraws consent in Shopify's banner: the id is deleted, and the cart keeps only the group.
    await page.evaluate(() => {
      (window as unknown as { analyticsAllowed: boolean }).analyticsAllowed = false;
      document.dispatchEvent(new CustomEvent('visitorConsentCollected', { detail: { analyticsAllowed: false } }));
    });
    assert.deepEqual(await cart.attributesWhen((a) => !a['_tryon_browser']), { _tryon_group: 'treatment' });
    assert.equal(await page.evaluate(() => localStorage.getItem('tryon-browser')), null);
    assert.deepEqual(errors, []);
  });

  test('without consent: no id is stored, the cart still carries the group (a held-out browser, no button)', async (t) => {
    for (const name of Object.keys(cart.attributes)) delete cart.attributes[name];
    const { page, errors } = await openShopPage(
      t,
      browser,
      `${shopUrl}/products/saree-banarasi?variant=${VARIANTS[0]}&holdout=0.1&draw=0.05`,
    );
    assert.deepEqual(await cart.attributesWhen((a) => Boolean(a['_tryon_group'])), { _tryon_group: 'holdout' });
    assert.equal(await page.evaluate(() => localStorage.getItem('tryon-browser')), null);
    assert.equal(await page.getByRole('button', { name: 'Try it on' }).count(), 0, 'the holdout never sees the button');
    assert.deepEqual(errors, []);
  });
});

describe('the block renders add-to-cart and holdout from its settings', () => {
  test('add_to_cart on: add-to-cart="shopify" and the selected variant as cart-id, also for a product without variants', async () => {
    const html = await renderBlock({
      product: product('kurta', { tryon_enabled: { value: true } }),
      settings: { add_to_cart: true },
    });
    assert.match(html, /add-to-cart="shopify" cart-id="44871234560001"/);
    assert.doesNotMatch(html, / variant="/, 'no variant for the default one: the catalog needs none');
    const off = await renderBlock({
      product: product('kurta', { tryon_enabled: { value: true } }),
      settings: { add_to_cart: false },
    });
    assert.doesNotMatch(off, /add-to-cart|cart-id/);
  });

  test('holdout: none by default, else the chosen share', async () => {
    const none = await renderBlock({
      product: product('kurta', { tryon_enabled: { value: true } }),
      settings: { holdout: 'none' },
    });
    assert.doesNotMatch(none, /holdout=/);
    const ten = await renderBlock({
      product: product('kurta', { tryon_enabled: { value: true } }),
      settings: { holdout: '0.1' },
    });
    assert.match(ten, / holdout="0.1"/);
  });
});
