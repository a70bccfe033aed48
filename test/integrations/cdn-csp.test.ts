// A shop page that loads the CDN build (dist/cdn/tryon-button.js) by a plain script tag with
// Subresource Integrity, under a strict Content-Security-Policy header, runs the whole try-on in
// Chromium: consent, photo, upload, render, result image. Every CSP violation is collected three
// ways (the page's securitypolicyviolation events, console messages, Chrome's DevTools issues) and
// must stay at zero. Controls prove the collectors and SRI really catch what they should.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { chromium, type Browser, type Page } from 'playwright-core';
import sharp from 'sharp';
import { startSandbox } from '../../sandbox/server.js';
import { createProxy } from '../../proxy/app.js';
import { findPhotoMetadata } from '../../proxy/photos/metadata.js';
import { sriHash, type BuildResult } from '../../scripts/build.js';
import { cachedCdnBuild } from '../../scripts/kept-builds.js';
import { makeHeicPhoto } from '../photos/heic.js';
import { CHROMIUM_ARGS } from '../../scripts/chromium.js';
import { programPath } from '../../scripts/prerequisites.js';
import { videoDuration } from '../e2e/video.js';
import { render as renderPlugin } from './woocommerce/plugin.js';
import { product as shopifyProduct, renderBlock } from './shopify-block.js';

/**
 * The policy docs/security.md recommends, with the proxy on the page's own origin. Scripts: only
 * files from 'self' (no inline script, no eval). Styles: none allowed inline at all: Lit applies
 * constructable stylesheets and the before/after slider sets its position through the CSSOM
 * (styleMap), neither of which CSP blocks.
 */
export const STRICT_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' blob:",
  "media-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "object-src 'none'",
].join('; ');

/**
 * What a page must add for HEIC photos in browsers that cannot decode them: the decoder is
 * WebAssembly, which CSP compiles only under 'wasm-unsafe-eval' (it allows no JavaScript eval).
 */
export const HEIC_CSP = STRICT_CSP.replace("script-src 'self'", "script-src 'self' 'wasm-unsafe-eval'");

/**
 * A page that refuses every worker: the photo is then prepared on the page, in slices (the console
 * says so), and libheif runs on the page under the page's own policy.
 */
export const NO_WORKER_CSP = `${STRICT_CSP}; worker-src 'none'`;

const PRODUCT = 'saree-banarasi-red';
const PRODUCT_NAME = 'Banarasi saree, red';
const WAIT = 30_000;

interface Violation {
  source: string;
  text: string;
}

/** The accent the WordPress and Shopify settings give, and its computed colour. */
const ACCENT = '#8a1c4a';
const ACCENT_RGB = 'rgb(138, 28, 74)';

/** What each platform printed for its button. */
const platformMarkup = { wordpress: '', shopify: '' };

let work: string;
let cdn: BuildResult;
let browser: Browser;
let shopUrl: string;
let closeAll: () => Promise<void>;
/** The body of every photo upload the shop's proxy received, as sent. */
const uploadBodies: Promise<Buffer>[] = [];

function page(script: string, body = ''): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Saree</title>${script}</head>
<body><main><h1>${PRODUCT_NAME}</h1>
<tryon-button product="${PRODUCT}" endpoint="/tryon" video photo-check="off"></tryon-button>${body}</main></body></html>`;
}

before(async () => {
  // First, before any server starts: a missing browser fails this file at once instead of
  // leaving servers open that keep it running.
  const executablePath = programPath('chromium');
  work = await mkdtemp(join(tmpdir(), 'tryon-csp-'));
  cdn = await cachedCdnBuild(join(work, 'cdn'));
  const integrity = await sriHash(join(cdn.outDir, 'tryon-button.js'));

  await mkdir(join(work, 'assets/garments'), { recursive: true });
  await writeFile(
    join(work, 'assets/garments/red.png'),
    await sharp({ create: { width: 300, height: 400, channels: 4, background: { r: 180, g: 20, b: 40, alpha: 1 } } })
      .png()
      .toBuffer(),
  );
  const photo = await sharp({
    create: { width: 768, height: 1024, channels: 3, background: { r: 205, g: 175, b: 150 } },
  })
    .composite([
      {
        input: Buffer.from(
          '<svg width="768" height="1024"><circle cx="384" cy="240" r="110" fill="#643"/><rect x="250" y="380" width="268" height="560" fill="#345"/></svg>',
        ),
      },
    ])
    .jpeg()
    .toBuffer();
  await writeFile(join(work, 'shopper.jpg'), photo);
  // As an iPhone's photo copied to a computer: HEVC in HEIF, with EXIF (camera, GPS) and XMP.
  await writeFile(join(work, 'shopper.heic'), await makeHeicPhoto({ width: 768, height: 1024 }));

  const sandbox = await startSandbox({
    port: 0,
    hostname: '127.0.0.1',
    speed: 0,
    keys: { sk_test_csp: 'ws_csp' },
    log: () => {},
  });
  const proxy = createProxy({
    apiKey: 'sk_test_csp',
    baseUrl: sandbox.url,
    secret: 'csp-test-secret-0123456789abcdef0123',
    allowedOrigins: [],
    catalog: {
      defaults: { tier: 'draft', views: ['front'] },
      products: {
        [PRODUCT]: {
          mode: 'garment_to_person',
          garmentImage: 'garments/red.png',
          garment: { category: 'saree', subtype: 'nivi' },
          name: PRODUCT_NAME,
          video: { durationSeconds: 1, fps: 8 },
        },
      },
    },
    assetsDir: join(work, 'assets'),
    readAsset: async (path) => new Uint8Array(await readFile(path)),
    log: () => {},
    // The proxy leaves its upload idle timer armed after an upload finishes, which holds this
    // test process open for the whole timeout (60 s by default); a short one keeps the run quick.
    limits: { uploadTimeoutMs: 5_000 },
  });

  const shop = new Hono();
  shop.use('*', async (c, next) => {
    await next();
    // The pages' policy. The widget's files go without one, as most servers send them: the photo
    // worker runs under its own response's policy, not the page's (CSP 3), so there libheif needs no
    // 'wasm-unsafe-eval' (docs/integrations/script-tag.md).
    if (c.req.path.startsWith('/tryon/') || c.req.path.startsWith('/cdn/')) return;
    c.header(
      'Content-Security-Policy',
      { '/product-heic': HEIC_CSP, '/product-no-worker': NO_WORKER_CSP }[c.req.path] ?? STRICT_CSP,
    );
  });
  shop.use('/tryon/photos', async (c, next) => {
    if (c.req.method === 'POST')
      uploadBodies.push(
        c.req.raw
          .clone()
          .arrayBuffer()
          .then((body) => Buffer.from(body)),
      );
    await next();
  });
  shop.route('/tryon', proxy);
  shop.get('/cdn/:file', async (c) => {
    const file = c.req.param('file');
    if (!cdn.files.some((f) => f.file === file)) return c.notFound();
    return c.body(await readFile(join(cdn.outDir, file)), 200, { 'Content-Type': 'text/javascript; charset=utf-8' });
  });
  const tag = (sri: string) =>
    `<script type="module" src="/cdn/tryon-button.js" integrity="${sri}" crossorigin="anonymous"></script>`;
  shop.get('/product', (c) => c.html(page(tag(integrity))));
  // The WordPress plugin's and the Shopify block's own markup, with the accent their settings give.
  const wordpress = (
    await renderPlugin({
      options: { tryon_button_options: { endpoint: '/tryon', accent: ACCENT } },
      meta: { 20: { _tryon_enabled: 'yes', _tryon_product: PRODUCT } },
      products: [{ id: 20, slug: 'saree' }],
    })
  ).products[0]!;
  const shopify = (
    await renderBlock({
      product: shopifyProduct(PRODUCT, { tryon_enabled: { value: true } }),
      settings: { endpoint: '/tryon', accent: ACCENT, label: 'Try it on' },
    })
  ).replace(/<script\b[^>]*><\/script>/g, '');
  const platformPage = (markup: string) =>
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Saree</title>${tag(integrity)}</head><body><main>${markup}</main></body></html>`;
  platformMarkup.wordpress = wordpress;
  platformMarkup.shopify = shopify;
  shop.get('/product-wordpress', (c) => c.html(platformPage(wordpress)));
  shop.get('/product-shopify', (c) => c.html(platformPage(shopify)));
  // Control: the accent as an inline style, as the platforms wrote it before, is refused.
  shop.get('/product-inline-accent', (c) =>
    c.html(
      platformPage(
        `<tryon-button product="${PRODUCT}" endpoint="/tryon" style="--tryon-accent: ${ACCENT}"></tryon-button>`,
      ),
    ),
  );
  shop.get('/product-heic', (c) => c.html(page(tag(integrity))));
  shop.get('/product-no-worker', (c) => c.html(page(tag(integrity))));
  // Controls: a tampered hash must stop the script; an inline script must be reported.
  shop.get('/wrong-integrity', (c) => c.html(page(tag(`sha384-${Buffer.alloc(48).toString('base64')}`))));
  shop.get('/inline-script', (c) => c.html(page(tag(integrity), '<script>document.title = "inline ran"</script>')));

  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: shop.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  const address = server.address();
  assert.ok(address && typeof address === 'object');
  shopUrl = `http://127.0.0.1:${address.port}`;

  browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS, headless: true });

  closeAll = async () => {
    await browser?.close();
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
    });
    await sandbox.close();
    await rm(work, { recursive: true, force: true });
  };
});

after(async () => {
  await closeAll?.();
});

/** A fresh page whose CSP violations are collected from the DOM event, the console and DevTools issues. */
async function watchedPage(): Promise<{
  page: Page;
  violations: Violation[];
  /** Resolves once the violations reported so far satisfy `enough` (checked at each report), bounded by WAIT. */
  reported(enough: (all: Violation[]) => boolean): Promise<void>;
  errors: string[];
  requests: string[];
  close(): Promise<void>;
}> {
  const context = await browser.newContext();
  const page = await context.newPage();
  page.setDefaultTimeout(WAIT);
  const violations: Violation[] = [];
  const waiting = new Set<() => void>();
  const note = (violation: Violation) => {
    violations.push(violation);
    for (const check of waiting) check();
  };
  const reported = (enough: (all: Violation[]) => boolean) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (!enough(violations)) return;
        waiting.delete(check);
        clearTimeout(timer);
        resolve();
      };
      // Bounded: the caller's assertion then says what was (not) reported.
      const timer = setTimeout(() => {
        waiting.delete(check);
        resolve();
      }, WAIT);
      waiting.add(check);
      check();
    });
  const errors: string[] = [];
  const requests: string[] = [];
  await page.exposeFunction('reportViolation', (text: string) => {
    note({ source: 'event', text });
  });
  // Init scripts run through DevTools, outside the page's CSP, before any page script.
  await page.addInitScript(() => {
    document.addEventListener(
      'securitypolicyviolation',
      (event) => {
        const report = (window as unknown as { reportViolation(text: string): void }).reportViolation;
        report(
          `${event.effectiveDirective} blocked ${event.blockedURI || '(inline)'} in ${event.sourceFile}:${event.lineNumber}`,
        );
      },
      true,
    );
  });
  page.on('console', (message) => {
    if (/Content[- ]Security[- ]Policy|Refused to/i.test(message.text()))
      note({ source: 'console', text: message.text() });
  });
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('request', (request) => requests.push(new URL(request.url()).pathname));
  const cdp = await context.newCDPSession(page);
  cdp.on('Audits.issueAdded', ({ issue }) => {
    if (issue.code === 'ContentSecurityPolicyIssue') {
      const details = issue.details.contentSecurityPolicyIssueDetails;
      note({
        source: 'devtools',
        text: `${details?.violatedDirective} ${details?.blockedURL ?? '(inline)'}`,
      });
    }
  });
  await cdp.send('Audits.enable');
  return { page, violations, reported, errors, requests, close: () => context.close() };
}

describe('CDN build under a strict CSP in Chromium', () => {
  test('the build is an entry, the core it imports once the page has loaded, a lazily loaded panel chunk and the HEIC decoder it loads on demand, with no eval', async () => {
    const scripts = cdn.files.filter((f) => f.file.endsWith('.js')).map((f) => f.file);
    assert.ok(scripts.includes('tryon-button.js'), `files: ${scripts.join(', ')}`);
    const core = scripts.find((f) => f.startsWith('tryon-core-'));
    const panel = scripts.find((f) => f.startsWith('tryon-panel-'));
    assert.ok(core && panel, `files: ${scripts.join(', ')}`);
    const entry = await readFile(join(cdn.outDir, 'tryon-button.js'), 'utf8');
    const coreText = await readFile(join(cdn.outDir, core), 'utf8');
    // Once the page has loaded (not at once: the page's own content comes first).
    assert.match(
      entry,
      new RegExp(`import\\(\\s*[\`'"]\\./${core.replace(/[.]/g, '\\.')}[\`'"]\\s*\\)`),
      'the entry imports the core (Lit and the button)',
    );
    assert.match(entry, /addEventListener\(\s*[`'"]load[`'"]/, 'once the page has loaded');
    assert.match(
      coreText,
      new RegExp(`import\\(\\s*[\`'"]\\./${panel.replace(/[.]/g, '\\.')}[\`'"]\\s*\\)`),
      'the panel is a dynamic import',
    );
    assert.ok(
      scripts.some((f) => /^heic-[\w-]+\.js$/.test(f)),
      `files: ${scripts.join(', ')}`,
    );
    for (const file of scripts) {
      const text = await readFile(join(cdn.outDir, file), 'utf8');
      assert.doesNotMatch(text, /(?<![\w$.])eval\s*\(|new\s+Function\s*\(/, `${file} uses no eval`);
    }
  });

  test('the whole try-on flow, image then video, runs with zero CSP violations', async () => {
    const { page, violations, errors, requests, close } = await watchedPage();
    try {
      const response = await page.goto(`${shopUrl}/product`);
      assert.equal(response?.headers()['content-security-policy'], STRICT_CSP);
      await page.waitForFunction(() => customElements.get('tryon-button') !== undefined);

      await page.getByRole('button', { name: 'Try it on', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Virtual try-on' });
      await dialog.waitFor({ state: 'visible' });
      assert.ok(
        requests.some((path) => /^\/cdn\/tryon-panel-[\w-]+\.js$/.test(path)),
        'the panel chunk was fetched from the CDN folder',
      );

      await dialog.getByRole('checkbox', { name: 'I agree to upload my photo for this try-on' }).check();
      await dialog.getByRole('button', { name: 'Continue' }).click();
      await dialog.getByLabel('Your photo', { exact: true }).setInputFiles(join(work, 'shopper.jpg'));
      await dialog.getByRole('button', { name: 'Try it on', exact: true }).click();

      const image = dialog.getByRole('img', { name: `You wearing ${PRODUCT_NAME}` }).first();
      await image.waitFor({ state: 'visible' });
      const shown = await image.evaluate(async (element) => {
        const img = element as HTMLImageElement;
        if (!img.complete || img.naturalWidth === 0) await img.decode();
        return { width: img.naturalWidth, src: img.currentSrc || img.src };
      });
      assert.ok(shown.width >= 256, `the result image decoded (${shown.width} px wide)`);
      assert.ok(shown.src.startsWith(`${shopUrl}/tryon/files/`), `served by the proxy: ${shown.src}`);
      assert.ok(requests.includes('/tryon/photos'), 'the photo was uploaded');
      assert.ok(requests.includes('/tryon/tryons'), 'the try-on was submitted');

      // The video comes from the proxy too (media-src).
      await dialog.getByRole('button', { name: 'Make a video' }).click();
      const video = dialog.locator('video').first();
      await video.waitFor({ state: 'visible' });
      const duration = await videoDuration(video);
      assert.ok(Math.abs(duration - 1) < 0.5, `the 1 s video played its metadata (${duration} s)`);

      // Let any late report (DevTools issues arrive asynchronously) land before judging.
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))));
      assert.deepEqual(violations, [], 'no CSP violation reported');
      assert.deepEqual(errors, [], 'no page error');
    } finally {
      await close();
    }
  });

  test("a HEIC photo under the strict CSP plus 'wasm-unsafe-eval': decoder fetched only then, previewed, sent without metadata", async () => {
    const { page, violations, errors, requests, close } = await watchedPage();
    uploadBodies.length = 0;
    try {
      const response = await page.goto(`${shopUrl}/product-heic`);
      assert.equal(response?.headers()['content-security-policy'], HEIC_CSP);
      await page.getByRole('button', { name: 'Try it on', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Virtual try-on' });
      await dialog.getByRole('checkbox', { name: 'I agree to upload my photo for this try-on' }).check();
      await dialog.getByRole('button', { name: 'Continue' }).click();
      await dialog.getByLabel('Your photo', { exact: true }).waitFor({ state: 'attached' });
      // Decoded in the photo worker, which imports the same libheif chunk as the page's fallback (heic-<hash>.js).
      const decoderFetched = () => requests.some((path) => /^\/cdn\/heic-[\w-]+\.js$/.test(path));
      assert.equal(decoderFetched(), false, 'the decoder is not fetched before a HEIC is picked');

      await dialog.getByLabel('Your photo', { exact: true }).setInputFiles(join(work, 'shopper.heic'));
      const preview = dialog.getByRole('img', { name: 'Your photo, ready to send' });
      await preview.waitFor({ state: 'visible' });
      const size = await preview.evaluate(async (element) => {
        const img = element as HTMLImageElement;
        await img.decode();
        return [img.naturalWidth, img.naturalHeight];
      });
      assert.deepEqual(size, [768, 1024], 'the HEIC is previewed at its size');
      assert.equal(decoderFetched(), true, 'the decoder chunk came from the CDN folder');
      assert.ok(!requests.some((path) => path.endsWith('.wasm')), 'no separate wasm file: it is inside the chunk');

      await dialog.getByRole('button', { name: 'Try it on', exact: true }).click();
      await dialog
        .getByRole('img', { name: `You wearing ${PRODUCT_NAME}` })
        .first()
        .waitFor({ state: 'visible' });
      assert.equal(uploadBodies.length, 1);
      const body = await uploadBodies[0]!;
      const start = body.indexOf('\r\n\r\n') + 4;
      const photo = new Uint8Array(body.subarray(start, body.lastIndexOf('\r\n--')));
      assert.deepEqual([...photo.subarray(0, 3)], [0xff, 0xd8, 0xff], 'sent as a JPEG');
      assert.deepEqual(findPhotoMetadata(photo, 'image/jpeg'), []);
      for (const trace of ['Exif', 'GPS', 'TryonTestCam', 'xpacket'])
        assert.equal(Buffer.from(photo).includes(trace), false, trace);

      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))));
      assert.deepEqual(violations, [], 'no CSP violation reported');
      assert.deepEqual(errors, [], 'no page error');
    } finally {
      await close();
    }
  });

  test("a page whose CSP refuses workers (worker-src 'none'): the photo is prepared on the page, and the console says so", async () => {
    const { page, violations, reported, requests, close } = await watchedPage();
    const told: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'warning') told.push(message.text());
    });
    try {
      const response = await page.goto(`${shopUrl}/product-no-worker`);
      assert.equal(response?.headers()['content-security-policy'], NO_WORKER_CSP);
      await page.getByRole('button', { name: 'Try it on', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Virtual try-on' });
      await dialog.getByRole('checkbox', { name: 'I agree to upload my photo for this try-on' }).check();
      await dialog.getByRole('button', { name: 'Continue' }).click();
      await dialog.getByLabel('Your photo', { exact: true }).setInputFiles(join(work, 'shopper.jpg'));
      await dialog.getByRole('img', { name: 'Your photo, ready to send' }).waitFor({ state: 'visible' });
      assert.ok(
        told.some((text) => /prepared on the page, in slices, not in a worker/.test(text)),
        `said in the console: ${JSON.stringify(told)}`,
      );
      await reported((all) => all.some((v) => /worker-src/.test(v.text)));
      assert.ok(
        violations.some((v) => /worker-src/.test(v.text)),
        `the refusal is reported: ${JSON.stringify(violations)}`,
      );

      // libheif then runs on the page, under its policy: without 'wasm-unsafe-eval' a HEIC is refused, said, and nothing is uploaded.
      await dialog.getByLabel('Your photo', { exact: true }).setInputFiles(join(work, 'shopper.heic'));
      await dialog
        .getByRole('alert')
        .filter({ hasText: 'This photo could not be opened.' })
        .waitFor({ state: 'visible' });
      assert.ok(!requests.includes('/tryon/photos'), 'nothing uploaded');
      await reported((all) => all.some((v) => /script-src|wasm/i.test(v.text)));
      assert.ok(
        violations.some((v) => /script-src|wasm/i.test(v.text)),
        `the refusal is reported: ${JSON.stringify(violations)}`,
      );
    } finally {
      await close();
    }
  });

  for (const platform of ['wordpress', 'shopify'] as const) {
    test(`the ${platform} output shows its accent with zero CSP violations, the dialog's primary button too`, async () => {
      const { page, violations, errors, close } = await watchedPage();
      try {
        await page.goto(`${shopUrl}/product-${platform}`);
        await page.waitForFunction(() => customElements.get('tryon-button') !== undefined);
        const markup = platformMarkup[platform];
        assert.match(markup, new RegExp(`<tryon-button[^>]* accent="${ACCENT}"`), 'the accent is an attribute');
        assert.doesNotMatch(markup, /style=/, 'no inline style in the markup');
        const button = page.getByRole('button', { name: 'Try it on', exact: true });
        await page.waitForFunction(
          (rgb) =>
            getComputedStyle(document.querySelector('tryon-button')!.shadowRoot!.querySelector('[part="button"]')!)
              .backgroundColor === rgb,
          ACCENT_RGB,
        );
        await button.click();
        const dialog = page.getByRole('dialog', { name: 'Virtual try-on' });
        await dialog.waitFor({ state: 'visible' });
        await dialog.getByRole('checkbox', { name: 'I agree to upload my photo for this try-on' }).check();
        const primary = dialog.getByRole('button', { name: 'Continue' });
        assert.equal(
          await primary.evaluate((el) => getComputedStyle(el).backgroundColor),
          ACCENT_RGB,
          "the dialog's primary button",
        );
        assert.deepEqual(violations, []);
        assert.deepEqual(errors, []);
      } finally {
        await close();
      }
    });
  }

  test('control: the accent as an inline style attribute is refused and reported', async () => {
    const { page, violations, reported, close } = await watchedPage();
    try {
      await page.goto(`${shopUrl}/product-inline-accent`);
      await reported((all) => all.some((v) => /style-src/.test(v.text)));
      assert.ok(
        violations.some((v) => /style-src/.test(v.text)),
        `reported: ${JSON.stringify(violations)}`,
      );
    } finally {
      await close();
    }
  });

  test('control: a wrong integrity hash keeps the script from running', async () => {
    const { page, violations, close } = await watchedPage();
    try {
      const refused = page.waitForEvent('console', (message) => /integrity/i.test(message.text()));
      await page.goto(`${shopUrl}/wrong-integrity`);
      await refused;
      assert.equal(await page.evaluate(() => customElements.get('tryon-button') === undefined), true);
      assert.deepEqual(violations, []);
    } finally {
      await close();
    }
  });

  test('control: an inline script on the page is refused and reported by every collector', async () => {
    const { page, violations, reported, close } = await watchedPage();
    try {
      await page.goto(`${shopUrl}/inline-script`);
      await page.waitForFunction(() => customElements.get('tryon-button') !== undefined);
      await reported((all) => new Set(all.map((v) => v.source)).size >= 3);
      assert.notEqual(await page.title(), 'inline ran');
      assert.deepEqual([...new Set(violations.map((v) => v.source))].sort(), ['console', 'devtools', 'event']);
      assert.ok(
        violations.every((v) => /script-src/.test(v.text)),
        JSON.stringify(violations),
      );
    } finally {
      await close();
    }
  });
});
