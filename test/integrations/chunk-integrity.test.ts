// Every script of the CDN build pinned, in a real browser: a shop's page (one origin) loads the
// widget from a CDN (another origin) with the import map the build writes (dist/cdn/importmap.json,
// scripts/import-map.ts; its jsDelivr prefix replaced by the CDN's folder) and the entry's own `integrity`, under a strict CSP that allows the inline
// map by its hash. The CDN serves the built files as they are, or with one chunk's bytes altered
// (the core, imported by the entry once the page has loaded; or the panel, imported on a click):
// Chromium refuses the altered chunk, runs none of it, and the widget stops there. The control page
// has no map: there the same altered core runs, which is what a tampered CDN could do before.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { chromium, type Browser, type ConsoleMessage, type Page } from 'playwright-core';
import sharp from 'sharp';
import { startSandbox } from '../../sandbox/server.js';
import { createProxy } from '../../proxy/app.js';
import {
  IMPORT_MAP_FILE,
  importMapFor,
  importMapSnippet,
  jsdelivrBase,
  widgetPackage,
  type BuildResult,
  type ImportMap,
} from '../../scripts/build.js';
import { cachedCdnBuild } from '../../scripts/kept-builds.js';
import { CHROMIUM_ARGS } from '../../scripts/chromium.js';
import { programPath } from '../../scripts/prerequisites.js';

const PRODUCT = 'saree-banarasi-red';
const WAIT = 30_000;
/** What an altered chunk would do first if it ran. */
const TAMPER = '\n;globalThis.__tampered = true;\n';

let work: string;
let cdn: BuildResult;
let browser: Browser;
let shopUrl: string;
let cdnUrl: string;
/** The chunks the CDN alters, by the folder it serves them under. */
const altered: Record<string, RegExp> = {
  honest: /^$/,
  'tampered-core': /^tryon-core-[\w-]+\.js$/,
  'tampered-panel': /^tryon-panel-[\w-]+\.js$/,
};
/** Each folder's page: the map, and the snippet the build makes of it (scripts/import-map.ts). */
const pages: Record<string, { map: ImportMap; html: string; cspHash: string }> = {};
let closeAll: () => Promise<void>;

function listen(app: Hono): Promise<{ url: string; close(): Promise<void> }> {
  return new Promise((resolve) => {
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) =>
      resolve({
        url: `http://127.0.0.1:${info.port}`,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
          }),
      }),
    );
  });
}

before(async () => {
  const executablePath = programPath('chromium');
  work = await mkdtemp(join(tmpdir(), 'tryon-pinned-'));
  cdn = await cachedCdnBuild(join(work, 'cdn'));

  // The CDN: another origin (another port), CORS as public CDNs send it.
  const cdnApp = new Hono();
  cdnApp.get('/:folder/:file', async (c) => {
    const pattern = altered[c.req.param('folder')];
    const file = c.req.param('file');
    if (!pattern || !cdn.files.some((f) => f.file === file)) return c.notFound();
    const bytes = await readFile(join(cdn.outDir, file));
    const body = pattern.test(file) ? Buffer.concat([bytes, Buffer.from(TAMPER)]) : bytes;
    return c.body(body, 200, {
      'Content-Type': 'text/javascript; charset=utf-8',
      'Access-Control-Allow-Origin': '*',
    });
  });
  const cdnServer = await listen(cdnApp);
  cdnUrl = cdnServer.url;
  // The map the build wrote (keyed to this version on jsDelivr), with that prefix replaced by the
  // folder the shop loads the files from, as docs/integrations/script-tag.md tells a shop to do.
  const written = await readFile(join(cdn.outDir, IMPORT_MAP_FILE), 'utf8');
  const jsdelivr = jsdelivrBase((await widgetPackage()).version);
  assert.ok(written.includes(jsdelivr));
  for (const folder of Object.keys(altered)) {
    const map = JSON.parse(written.split(jsdelivr).join(`${cdnUrl}/${folder}/`)) as ImportMap;
    assert.deepEqual(map, await importMapFor(cdn.outDir, `${cdnUrl}/${folder}/`));
    pages[folder] = { map, ...importMapSnippet(map, `${cdnUrl}/${folder}/`) };
  }

  await mkdir(join(work, 'assets/garments'), { recursive: true });
  await writeFile(
    join(work, 'assets/garments/red.png'),
    await sharp({ create: { width: 300, height: 400, channels: 4, background: { r: 180, g: 20, b: 40, alpha: 1 } } })
      .png()
      .toBuffer(),
  );
  const sandbox = await startSandbox({
    port: 0,
    hostname: '127.0.0.1',
    speed: 0,
    keys: { sk_test_pinned: 'ws_pinned' },
    log: () => {},
  });
  const proxy = createProxy({
    apiKey: 'sk_test_pinned',
    baseUrl: sandbox.url,
    secret: 'pinned-test-secret-0123456789abcdef0123',
    allowedOrigins: [],
    catalog: {
      defaults: { tier: 'draft', views: ['front'] },
      products: {
        [PRODUCT]: {
          mode: 'garment_to_person',
          garmentImage: 'garments/red.png',
          garment: { category: 'saree', subtype: 'nivi' },
          name: 'Banarasi saree, red',
        },
      },
    },
    assetsDir: join(work, 'assets'),
    readAsset: async (path) => new Uint8Array(await readFile(path)),
    log: () => {},
    limits: { uploadTimeoutMs: 5_000 },
  });

  const shop = new Hono();
  shop.route('/tryon', proxy);
  // `/product/<folder>`: the snippet docs/integrations/script-tag.md gives, for that CDN folder.
  // `/no-map/<folder>`: the script tag alone, as before the map.
  shop.get('/:kind/:folder', (c) => {
    const folder = c.req.param('folder');
    const pinned = pages[folder];
    const kind = c.req.param('kind');
    if (!pinned || (kind !== 'product' && kind !== 'no-map')) return c.notFound();
    const entry = `${cdnUrl}/${folder}/tryon-button.js`;
    const head =
      kind === 'product'
        ? pinned.html
        : `<script type="module" src="${entry}" integrity="${pinned.map.integrity[entry]}" crossorigin="anonymous"></script>`;
    c.header(
      'Content-Security-Policy',
      [
        "default-src 'none'",
        `script-src ${cdnUrl} ${kind === 'product' ? pinned.cspHash : ''}`,
        "style-src 'self'",
        "connect-src 'self'",
        "img-src 'self' blob:",
        "base-uri 'none'",
      ].join('; '),
    );
    return c.html(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Saree</title>${head}</head>
<body><main><h1>Banarasi saree, red</h1><tryon-button product="${PRODUCT}" endpoint="/tryon" photo-check="off"></tryon-button></main></body></html>`);
  });
  const shopServer = await listen(shop);
  shopUrl = shopServer.url;

  browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS, headless: true });
  closeAll = async () => {
    await browser?.close();
    await shopServer.close();
    await cdnServer.close();
    await sandbox.close();
    await rm(work, { recursive: true, force: true });
  };
});

after(async () => {
  await closeAll?.();
});

/** A fresh page at `path`; `refusal` names a chunk whose integrity refusal is awaited from before the page loads. */
async function openPage(
  path: string,
  refusal?: RegExp,
): Promise<{
  page: Page;
  /** Settles once the browser reports refusing `refusal` for its integrity. */
  refused: Promise<unknown>;
  scripts: string[];
  refusals: string[];
  violations: string[];
  close(): Promise<void>;
}> {
  const context = await browser.newContext();
  const page = await context.newPage();
  page.setDefaultTimeout(WAIT);
  const scripts: string[] = [];
  const refusals: string[] = [];
  const violations: string[] = [];
  page.on('request', (request) => {
    if (request.url().startsWith(`${cdnUrl}/`)) scripts.push(request.url());
  });
  page.on('console', (message: ConsoleMessage) => {
    if (/integrity/i.test(message.text())) refusals.push(message.text());
    if (/Content[- ]Security[- ]Policy|Refused to/i.test(message.text())) violations.push(message.text());
  });
  // Listening before the page loads: the panel is also imported when the browser is idle, which
  // can come before any click.
  const refused = refusal ? integrityRefusal(page, refusal) : Promise.resolve();
  await page.goto(`${shopUrl}${path}`);
  return { page, refused, scripts, refusals, violations, close: () => context.close() };
}

const tampered = (page: Page) => page.evaluate(() => (globalThis as { __tampered?: boolean }).__tampered === true);
const integrityRefusal = (page: Page, chunk: RegExp) =>
  page.waitForEvent('console', (message) => /integrity/i.test(message.text()) && chunk.test(message.text()));

describe('every chunk pinned by the import map (Chromium)', () => {
  test('untampered: the button registers, the panel opens, every script fetched is one the map pins, under a strict CSP', async () => {
    const { page, scripts, refusals, violations, close } = await openPage('/product/honest');
    try {
      await page.getByRole('button', { name: 'Try it on', exact: true }).click();
      await page.getByRole('dialog', { name: 'Virtual try-on' }).waitFor({ state: 'visible' });
      const pinned = Object.keys(pages['honest']!.map.integrity);
      assert.ok(
        scripts.some((url) => /\/tryon-core-[\w-]+\.js$/.test(url)) &&
          scripts.some((url) => /\/tryon-panel-[\w-]+\.js$/.test(url)),
        `the core and the panel came from the CDN: ${scripts.join(', ')}`,
      );
      assert.deepEqual(
        scripts.filter((url) => !pinned.includes(url)),
        [],
        'every script the page fetched has its hash in the map',
      );
      assert.equal(await tampered(page), false);
      assert.deepEqual(refusals, []);
      assert.deepEqual(violations, [], 'the inline map is allowed by its hash, nothing else inline');
    } finally {
      await close();
    }
  });

  test('a core chunk with altered bytes is refused: none of it runs and the element is never defined', async () => {
    const { page, refused, close } = await openPage('/product/tampered-core', /tryon-core-[\w-]+\.js/);
    try {
      await refused;
      assert.equal(await tampered(page), false, 'the altered code did not run');
      assert.equal(await page.evaluate(() => customElements.get('tryon-button') === undefined), true);
    } finally {
      await close();
    }
  });

  test('a panel chunk with altered bytes is refused on the click that imports it: the dialog never opens', async () => {
    const { page, refused, close } = await openPage('/product/tampered-panel', /tryon-panel-[\w-]+\.js/);
    try {
      const button = page.getByRole('button', { name: 'Try it on', exact: true });
      await button.click();
      await refused;
      assert.equal(await tampered(page), false, 'the altered panel did not run');
      assert.equal(await page.getByRole('dialog', { name: 'Virtual try-on' }).count(), 0);
    } finally {
      await close();
    }
  });

  test('control: without the map, the same altered core runs (the entry’s own integrity covers only the entry)', async () => {
    const { page, refusals, close } = await openPage('/no-map/tampered-core');
    try {
      await page.waitForFunction(() => customElements.get('tryon-button') !== undefined);
      assert.equal(await tampered(page), true, 'the altered core ran');
      assert.deepEqual(refusals, []);
    } finally {
      await close();
    }
  });
});
