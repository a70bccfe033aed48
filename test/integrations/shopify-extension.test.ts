// The Shopify theme app extension as `npm run build` writes it: Shopify's own linter (Theme Check,
// with the theme-app-extension checks `shopify app build` applies) over the built folder and the
// source, and the rendered block in Chromium with the built assets: when the panel's code loads,
// and the variant follower under the ways themes announce a variant change.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { Offense } from '@shopify/theme-check-node';
import { buildIntegrations, listFiles } from '../../scripts/build.js';
import { cachedCdnBuild } from '../../scripts/kept-builds.js';
import { CHROMIUM_ARGS } from '../../scripts/chromium.js';
import { programPath } from '../../scripts/prerequisites.js';
import { extensionSource, product, renderBlock } from './shopify-block.js';

const WAIT = 30_000;
const work = await mkdtemp(join(tmpdir(), 'tryon-shopify-'));

// Theme Check downloads Shopify's latest Liquid docs into the user's cache at every run unless
// they are current. Here it runs offline and the same every time, on the docs bundled in its
// package: the docs address is a local path that does not exist (read as a file, never fetched),
// so it falls back to them, and the cache it would write to is this test's own. The cache
// directory is read once, when the package loads.
const userCache = process.env.XDG_CACHE_HOME;
process.env.XDG_CACHE_HOME = join(work, 'cache');
process.env.SHOPIFY_TLD_ROOT = join(work, 'no-docs-download');
const themeCheck = await import('@shopify/theme-check-node');
if (userCache === undefined) delete process.env.XDG_CACHE_HOME;
else process.env.XDG_CACHE_HOME = userCache;

let extension: string;

before(async () => {
  const cdn = await cachedCdnBuild(join(work, 'cdn'));
  [extension] = (await buildIntegrations(cdn.outDir, join(work, 'dist'))) as [string];
});

after(async () => {
  await rm(work, { recursive: true, force: true });
});

interface Run {
  offenses: Offense[];
  context: string;
  checks: string[];
  log: string[];
}

async function runThemeCheck(root: string): Promise<Run> {
  const log: string[] = [];
  const run = await themeCheck.themeCheckRun(root, undefined, (message) => log.push(message));
  return {
    offenses: run.offenses,
    context: run.config.context,
    checks: run.config.checks.map((check) => check.meta.code),
    log,
  };
}

function describeOffenses(root: string, offenses: Offense[]): string {
  return offenses
    .map((o) => `${o.check} ${relative(root, fileURLToPath(o.uri))}:${o.start.line + 1} ${o.message}`)
    .join('\n');
}

describe('Theme Check', () => {
  test('the built extension passes with no offence, offline on the bundled Liquid docs', async () => {
    const { offenses, context, checks, log } = await runThemeCheck(extension);
    assert.deepEqual(offenses, [], `Theme Check offences:\n${describeOffenses(extension, offenses)}`);
    // The checks Shopify applies to a theme app extension (found by its shopify.extension.toml).
    assert.equal(context, 'app');
    for (const check of [
      'AppBlockValidTags',
      'AssetSizeAppBlockJavaScript',
      'MissingAsset',
      'MatchingTranslations',
      'ValidSchemaTranslations',
      'ValidSchema',
      'ParserBlockingScript',
      'UndefinedObject',
      'UnknownFilter',
    ]) {
      assert.ok(checks.includes(check), `${check} ran`);
    }
    assert.ok(
      log.some((line) => line.startsWith('Loaded fallback resource')),
      'the bundled docs were used',
    );
    assert.ok(!log.some((line) => /Successfully downloaded|https:/.test(line)), log.join('\n'));
  });

  test("the built extension fits Shopify's 10 MB limit for a theme app extension", async () => {
    const files = await listFiles(extension);
    const bytes = (await Promise.all(files.map((file) => stat(file)))).reduce((sum, s) => sum + s.size, 0);
    console.log(`  measured: the built extension is ${(bytes / 1024 / 1024).toFixed(2)} MB in ${files.length} files`);
    assert.ok(bytes < 10 * 1024 * 1024, `${bytes} B`);
  });

  test("the source folder's only offences are the two assets the build adds", async () => {
    const source = fileURLToPath(extensionSource);
    const { offenses } = await runThemeCheck(source);
    assert.deepEqual(
      offenses.map((o) => o.check),
      ['MissingAsset', 'MissingAsset'],
      describeOffenses(source, offenses),
    );
    assert.deepEqual(offenses.map((o) => /'assets\/([\w.-]+)'/.exec(o.message)?.[1]).sort(), [
      'tryon-button.js',
      'tryon-variant.js',
    ]);
  });

  test('it does catch a Hindi text missing and a schema key with no English (the checks are live)', async () => {
    const broken = join(work, 'broken-extension');
    await cp(extension, broken, { recursive: true });
    const hindiPath = join(broken, 'locales/hi.schema.json');
    const hindi = JSON.parse(await readFile(hindiPath, 'utf8')) as {
      blocks: { tryon_button: { settings: Record<string, unknown> } };
    };
    delete hindi.blocks.tryon_button.settings.video;
    await writeFile(hindiPath, JSON.stringify(hindi));
    const blockPath = join(broken, 'blocks/tryon-button.liquid');
    const block = await readFile(blockPath, 'utf8');
    await writeFile(
      blockPath,
      block.replace('t:blocks.tryon_button.settings.accent.label', 't:blocks.tryon_button.settings.accent.title'),
    );
    const { offenses } = await runThemeCheck(broken);
    const found = new Set(offenses.map((o) => o.check));
    assert.ok(found.has('MatchingTranslations'), describeOffenses(broken, offenses));
    assert.ok(found.has('ValidSchemaTranslations'), describeOffenses(broken, offenses));
  });
});

// The built block in a browser: a stand-in theme page with the rendered block, its scripts served
// from the built extension's assets/ as Shopify's CDN would (with a ?v= query).
const VARIANTS = ['44871234567890', '44871234567891', '44871234567892'];
const OTHER_PRODUCT_VARIANTS = ['45000000000001', '45000000000002'];

describe('the built block in Chromium', () => {
  let browser: Browser | undefined;
  let shopUrl = '';
  let closeServer: () => Promise<void> = async () => {};

  async function themePage(body: string): Promise<string> {
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Banarasi saree</title></head><body>${body}</body></html>`;
  }

  before(async () => {
    const shop = new Hono();
    shop.get('/assets/:file', async (c) => {
      const file = c.req.param('file');
      if (!/^[\w.-]+\.js$/.test(file)) return c.notFound();
      const body = await readFile(join(extension, 'assets', file)).catch(() => undefined);
      return body ? c.body(body, 200, { 'Content-Type': 'text/javascript; charset=utf-8' }) : c.notFound();
    });
    const enabled = { tryon_enabled: { value: true } };
    // A product page of a saree with no variants; ?prefetch= is the block's setting.
    shop.get('/products/plain', async (c) => {
      const prefetch = c.req.query('prefetch');
      const block = await renderBlock({
        product: product('saree-banarasi-red', enabled),
        settings: { label: 'Try it on', endpoint: '/apps/tryon', analytics: true, ...(prefetch ? { prefetch } : {}) },
        assetBase: '/assets/',
      });
      return c.html(await themePage(`<h1>Banarasi saree</h1>${block}`));
    });
    // A product page with three colours, the ways themes pick a variant, and a second product's
    // block further down (a featured product), whose variants the first button must ignore.
    shop.get('/products/saree-banarasi', async (c) => {
      const selected = VARIANTS.find((id) => id === c.req.query('variant')) ?? VARIANTS[0]!;
      const block = await renderBlock({
        product: {
          ...product('saree-banarasi', enabled, VARIANTS.map(Number)),
          selected_or_first_available_variant: { id: Number(selected) },
        },
        settings: { endpoint: '/apps/tryon' },
        assetBase: '/assets/',
      });
      const featured = await renderBlock({
        product: { ...product('kurta-silk', enabled, OTHER_PRODUCT_VARIANTS.map(Number)), id: 8123456790 },
        settings: { endpoint: '/apps/tryon' },
        assetBase: '/assets/',
      });
      const options = VARIANTS.map(
        (id) => `<option value="${id}"${id === selected ? ' selected' : ''}>${id}</option>`,
      ).join('');
      return c.html(
        await themePage(`
        <form id="select-form" action="/cart/add" method="post"><select name="id">${options}</select></form>
        <form id="dawn-form" action="/cart/add" method="post"><input type="hidden" name="id" value="${selected}"></form>
        <fieldset id="address-only">${VARIANTS.map((id) => `<label><input type="radio" name="Colour" value="${id}">${id}</label>`).join('')}</fieldset>
        <script>
          // A theme that only rewrites the address when a colour is picked.
          document.getElementById('address-only').addEventListener('change', (event) => {
            history.replaceState({}, '', '?variant=' + event.target.value);
          });
        </script>
        <section id="main">${block}</section>
        <section id="featured">${featured}</section>`),
      );
    });
    const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
      const s = serve({ fetch: shop.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
    });
    const address = server.address();
    assert.ok(address && typeof address === 'object');
    shopUrl = `http://127.0.0.1:${address.port}`;
    closeServer = () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
      });
    browser = await chromium.launch({ executablePath: programPath('chromium'), args: CHROMIUM_ARGS, headless: true });
  });

  after(async () => {
    await browser?.close();
    await closeServer();
  });

  async function openPage(path: string): Promise<{ page: Page; requests: string[]; errors: string[] }> {
    assert.ok(browser);
    const page = await browser.newPage();
    page.setDefaultTimeout(WAIT);
    const requests: string[] = [];
    const errors: string[] = [];
    page.on('request', (request) => requests.push(new URL(request.url()).pathname));
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${shopUrl}${path}`, { waitUntil: 'load' });
    await page.waitForFunction(() => customElements.get('tryon-button') !== undefined);
    return { page, requests, errors };
  }

  /**
   * Until the page has been idle twice after load: the widget schedules its idle prefetch when
   * the page has loaded, so by then it has run (idle callbacks run in the order asked for).
   */
  const untilIdleAfterLoad = (page: Page) =>
    page.evaluate(
      () => new Promise<void>((resolve) => requestIdleCallback(() => requestIdleCallback(() => resolve()))),
    );

  const isPanel = (path: string) => /\/assets\/tryon-panel-[\w-]+\.js$/.test(path);

  test("by default no panel code loads until the shopper reaches for the button (Shopify's import on interaction)", async () => {
    const { page, requests, errors } = await openPage('/products/plain');
    try {
      assert.equal(await page.getAttribute('tryon-button', 'prefetch'), 'interaction');
      await untilIdleAfterLoad(page);
      assert.deepEqual(requests.filter(isPanel), [], `requests: ${requests.join(', ')}`);
      assert.ok(
        requests.some((path) => path === '/assets/tryon-button.js'),
        'the button itself did load',
      );
      const panelRequested = page.waitForRequest((request) => isPanel(new URL(request.url()).pathname));
      await page.hover('tryon-button');
      await panelRequested;
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  test('with the setting on idle, the panel code loads after the page without any interaction', async () => {
    assert.ok(browser);
    const page = await browser.newPage();
    try {
      const panelRequested = page.waitForRequest((request) => isPanel(new URL(request.url()).pathname), {
        timeout: WAIT,
      });
      await page.goto(`${shopUrl}/products/plain?prefetch=idle`, { waitUntil: 'load' });
      assert.equal(await page.getAttribute('tryon-button', 'prefetch'), 'idle');
      await untilIdleAfterLoad(page);
      await panelRequested;
    } finally {
      await page.close();
    }
  });

  test("the variant follows the theme's events, its product form and its address, and only this product's variants", async () => {
    const { page, errors } = await openPage('/products/saree-banarasi');
    const main = '#main tryon-button';
    const variantOf = (selector: string) => page.getAttribute(selector, 'variant');
    /** Dispatches an event as a theme does and reads the attribute right after: following is synchronous. */
    const dispatch = (
      name: string,
      detail: unknown,
      on: 'document' | 'form' = 'document',
      kind: 'CustomEvent' | 'Event' = 'CustomEvent',
    ) =>
      page.evaluate(
        ({ name, detail, on, kind }) => {
          const target = on === 'document' ? document : document.getElementById('select-form')!;
          const bubbles = on !== 'form';
          // Horizon's events are Event subclasses that set their own `detail`.
          const event =
            kind === 'CustomEvent'
              ? new CustomEvent(name, { detail, bubbles })
              : Object.assign(new Event(name, { bubbles }), { detail });
          target.dispatchEvent(event);
          return document.querySelector('#main tryon-button')!.getAttribute('variant');
        },
        { name, detail, on, kind },
      );
    try {
      assert.equal(await variantOf(main), VARIANTS[0], 'the variant the page was rendered with');

      // Archetype and Maestrooo themes: variant:change with detail.variant (ids are numbers in theme JSON).
      assert.equal(await dispatch('variant:change', { variant: { id: Number(VARIANTS[1]) } }), VARIANTS[1]);
      // Clean Canvas: on:variant:change, here on the form itself without bubbling.
      assert.equal(await dispatch('on:variant:change', { variant: { id: Number(VARIANTS[2]) } }, 'form'), VARIANTS[2]);
      // Pipeline and its family: theme:variant:change.
      assert.equal(await dispatch('theme:variant:change', { variant: { id: Number(VARIANTS[0]) } }), VARIANTS[0]);
      // Horizon: variant:update with detail.resource (its ids are strings).
      assert.equal(
        await dispatch('variant:update', { resource: { id: VARIANTS[1] }, sourceId: 'main' }, 'document', 'Event'),
        VARIANTS[1],
      );

      // Nothing changes for another product's variant, an unavailable combination or a malformed id.
      assert.equal(
        await dispatch('variant:change', { variant: { id: Number(OTHER_PRODUCT_VARIANTS[0]) } }),
        VARIANTS[1],
      );
      assert.equal(await dispatch('variant:change', { variant: null }), VARIANTS[1]);
      assert.equal(await dispatch('variant:change', { variant: { id: `${VARIANTS[0]}"><script>` } }), VARIANTS[1]);
      // ...but the featured product's own button does follow its own variant.
      assert.equal(await variantOf('#featured tryon-button'), OTHER_PRODUCT_VARIANTS[0]);
      await dispatch('variant:change', { variant: { id: Number(OTHER_PRODUCT_VARIANTS[1]) } });
      assert.equal(await variantOf('#featured tryon-button'), OTHER_PRODUCT_VARIANTS[1]);

      // A shopper's pick in a <select name="id"> of the product form.
      await page.selectOption('#select-form select[name="id"]', VARIANTS[2]!);
      assert.equal(await variantOf(main), VARIANTS[2]);
      // Dawn: the hidden input[name="id"] is set and a change event dispatched.
      await page.evaluate((id) => {
        const input = document.querySelector<HTMLInputElement>('#dawn-form input[name="id"]')!;
        input.value = id;
        input.dispatchEvent(new Event('change', { bubbles: true }));
      }, VARIANTS[0]!);
      assert.equal(await variantOf(main), VARIANTS[0]);

      // A theme that only rewrites the address (?variant=) in its own change handler.
      await page.check(`#address-only input[value="${VARIANTS[1]}"]`);
      await page.waitForFunction(
        (id) => document.querySelector('#main tryon-button')?.getAttribute('variant') === id,
        VARIANTS[1],
      );
      // Back and forward through the address history.
      await page.evaluate((id) => history.pushState({}, '', `?variant=${id}`), VARIANTS[2]!);
      await page.evaluate(() => history.back());
      await page.waitForFunction((id) => new URLSearchParams(location.search).get('variant') === id, VARIANTS[1]);
      await page.evaluate(() => history.forward());
      await page.waitForFunction(
        (id) => document.querySelector('#main tryon-button')?.getAttribute('variant') === id,
        VARIANTS[2],
      );
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  test('an address a theme never updates does not undo a pick made in the product form', async () => {
    const { page } = await openPage(`/products/saree-banarasi?variant=${VARIANTS[2]}`);
    try {
      assert.equal(await page.getAttribute('#main tryon-button', 'variant'), VARIANTS[2]);
      await page.selectOption('#select-form select[name="id"]', VARIANTS[0]!);
      // The follower looks at the address in a task it queued during the change; this one runs after it.
      await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)));
      assert.equal(
        new URL(page.url()).searchParams.get('variant'),
        VARIANTS[2],
        'the address still names the old variant',
      );
      assert.equal(await page.getAttribute('#main tryon-button', 'variant'), VARIANTS[0]);
    } finally {
      await page.close();
    }
  });
});
