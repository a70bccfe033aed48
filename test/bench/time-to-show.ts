// 6. Time to show: from the sandbox marking a job succeeded to the result image painted in the
// widget. A page of our own carries the real CDN build of <tryon-button> and the proxy mounted
// at /tryon (same origin, as a shop has it). The shopper's flow runs in Chromium; the job is held
// mid-render, released, and the page records when the result image has loaded, decoded and been
// through a frame (requestAnimationFrame). Both ends read the same system clock.
//   polling: no webhooks, EventSource removed from the page → the widget polls every 2 s and the
//            proxy reads upstream at most once a second;
//   webhook + SSE: the sandbox's webhook wakes the proxy, which pushes over the event stream.
import { Hono } from 'hono';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import type { BenchContext, Benchmark } from './harness.js';
import { json } from './harness.js';
import { launchChromium, openPage } from './browser.js';
import { serveFetch } from './loopback.js';
import { shopperJpeg } from './photos.js';
import {
  BENCH_KEY,
  allJobs,
  holdNextJob,
  loadBuild,
  loadProxyApp,
  newJob,
  releaseJob,
  sandboxState,
} from './project.js';
import { proxySettings } from './proxy-overhead.js';
import type { Figure } from './report.js';
import { figure, median, ms } from './report.js';
import { startBenchSandbox } from './webhook-relay.js';
import { goOnPastPhotoCheck } from '../e2e/photo-check.js';

type Mode = 'polling' | 'webhook + SSE';

interface Shop {
  url: string;
  sandboxUrl: string;
  webhooks: { delivered: number; refused: number };
}

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Bench saree</title>
<script type="module" src="/widget/tryon-button.js"></script></head>
<body><h1>Bench saree</h1><tryon-button product="bench-saree" endpoint="/tryon"></tryon-button></body></html>`;

async function startShop(ctx: BenchContext, mode: Mode, widgetDir: string): Promise<Shop> {
  const { createProxy } = await loadProxyApp();
  const bench = await startBenchSandbox(ctx, mode === 'webhook + SSE');
  const extra = bench.webhookSecret ? { webhookSecret: bench.webhookSecret } : {};
  const proxy = createProxy({ ...(await proxySettings(ctx, bench.sandbox.url, extra)), log: () => {} });
  const shop = new Hono();
  shop.get('/', (c) => c.html(PAGE));
  shop.get('/widget/:file', async (c) => {
    const file = c.req.param('file');
    if (!/^[\w.-]+\.js$/.test(file)) return c.notFound();
    const body = await readFile(join(widgetDir, file)).catch(() => undefined);
    return body ? c.body(new Uint8Array(body), 200, { 'content-type': 'text/javascript' }) : c.notFound();
  });
  shop.route('/tryon', proxy as unknown as Hono);
  const served = await serveFetch((request) => shop.fetch(request));
  ctx.defer(() => served.close());
  bench.deliverTo(`${served.url}/tryon/webhooks`);
  return { url: served.url, sandboxUrl: bench.sandbox.url, webhooks: bench.webhooks };
}

interface Shown {
  fromSucceeded: number;
  fromRelease: number;
}

/** One shopper, one try-on, from a fresh page; returns how long the result took to show. */
async function showOnce(browser: Browser, shop: Shop, mode: Mode, photo: Buffer): Promise<Shown> {
  const page = await openPage(browser);
  const refused: string[] = [];
  try {
    if (mode === 'polling') await page.addInitScript('delete window.EventSource;');
    page.on('response', (response) => {
      if (response.status() >= 400)
        refused.push(
          `${response.request().method()} ${new URL(response.url()).pathname.slice(0, 40)} → ${response.status()}`,
        );
    });
    await page.goto(shop.url);
    await page.getByRole('button', { name: 'Try it on' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Virtual try-on' });
    await dialog.getByRole('checkbox', { name: 'I agree to upload my photo for this try-on' }).check();
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await dialog.getByLabel('Your photo').setInputFiles({ name: 'me.jpg', mimeType: 'image/jpeg', buffer: photo });
    await goOnPastPhotoCheck(dialog);

    const known = new Set(allJobs(await sandboxState(shop.sandboxUrl)).map((job) => job.id));
    await holdNextJob(shop.sandboxUrl);
    await dialog.getByRole('button', { name: 'Try it on' }).click();
    // Rendering is shown once the widget has heard "processing" back: it is watching by then.
    await page.waitForFunction(
      () => document.querySelector('tryon-button')?.getAttribute('status') === 'rendering',
      undefined,
      { timeout: 20_000 },
    );
    const job = await newJob(shop.sandboxUrl, known);
    if (!job) throw new Error('the sandbox shows no job for the try-on');

    // Looks once a frame (nothing to await across shadow roots) for the result image, then waits
    // for it to load, decode and reach the screen.
    await page.evaluate(() => {
      const w = window as unknown as { shownAt?: number };
      const find = (root: Document | ShadowRoot): HTMLImageElement | undefined => {
        const img = [...root.querySelectorAll('img')].find(
          (i) => /^You wearing/.test(i.alt) && i.src.includes('/files/'),
        );
        if (img) return img;
        for (const el of root.querySelectorAll('*')) {
          const inner = el.shadowRoot ? find(el.shadowRoot) : undefined;
          if (inner) return inner;
        }
        return undefined;
      };
      const look = () => {
        const img = find(document);
        if (!img) {
          requestAnimationFrame(look);
          return;
        }
        const painted = () =>
          img
            .decode()
            .catch(() => undefined)
            .then(() =>
              requestAnimationFrame(() => {
                w.shownAt = performance.timeOrigin + performance.now();
              }),
            );
        if (img.complete && img.naturalWidth > 0) void painted();
        else img.addEventListener('load', () => void painted(), { once: true });
      };
      requestAnimationFrame(look);
    });
    const released = performance.timeOrigin + performance.now();
    await releaseJob(shop.sandboxUrl, job.id);
    const handle = await page.waitForFunction(() => (window as unknown as { shownAt?: number }).shownAt, undefined, {
      timeout: 20_000,
    });
    const shownAt = (await handle.jsonValue()) as number;
    const finished = await json<{ status: string; updated_at: string }>(
      await fetch(`${shop.sandboxUrl}/v1/jobs/${job.id}`, { headers: { authorization: `Bearer ${BENCH_KEY}` } }),
      'GET /v1/jobs/{id}',
    );
    if (finished.status !== 'succeeded') throw new Error(`the job ended ${finished.status}`);
    return { fromSucceeded: shownAt - Date.parse(finished.updated_at), fromRelease: shownAt - released };
  } catch (error) {
    // Say where the flow stood: the widget's reflected status and any alert it shows.
    const status = await page
      .evaluate(() => document.querySelector('tryon-button')?.getAttribute('status'))
      .catch(() => undefined);
    const alert = await page
      .getByRole('alert')
      .first()
      .textContent({ timeout: 500 })
      .catch(() => undefined);
    if (process.env.BENCH_DEBUG)
      await page
        .screenshot({ path: join(process.env.BENCH_DEBUG, `time-to-show-${Date.now()}.png`) })
        .catch(() => undefined);
    throw new Error(
      `${mode}: ${(error as Error).message.split('\n')[0]} (widget status ${status ?? 'unknown'}${alert ? `, alert "${alert.trim()}"` : ''}${refused.length ? `; refused: ${refused.join(', ')}` : ''})`,
      { cause: error },
    );
  } finally {
    await page.context().close();
  }
}

export const timeToShow: Benchmark = {
  id: 'time-to-show',
  title: '6. Time to show (job succeeded → result image painted in the widget)',
  limitSeconds: 150,
  async run(ctx) {
    const { buildCdn } = await loadBuild();
    const widgetDir = ctx.scratch('widget');
    await buildCdn({ outDir: widgetDir, quiet: true });
    const photo = await shopperJpeg();
    const browser = await launchChromium();
    ctx.defer(() => browser.close());
    const modes: Mode[] = ['polling', 'webhook + SSE'];
    const shops = new Map<Mode, Shop>();
    for (const mode of modes) shops.set(mode, await startShop(ctx, mode, widgetDir));

    const runs = ctx.quick ? 1 : 5;
    const results = new Map<Mode, Shown[]>(modes.map((mode) => [mode, []]));
    // Alternating the modes spreads the machine's noise over both.
    for (let i = 0; i < runs; i += 1) {
      for (const mode of modes) {
        const shown = await showOnce(browser, shops.get(mode)!, mode, photo);
        ctx.log(
          `${mode} run ${i + 1}: ${Math.round(shown.fromSucceeded)} ms after succeeded (${Math.round(shown.fromRelease)} ms after release)`,
        );
        results.get(mode)!.push(shown);
      }
    }
    const figures: Figure[] = [];
    for (const mode of modes) {
      const shown = results.get(mode)!;
      const value = median(shown.map((s) => s.fromSucceeded));
      // Polling can be up to one 2 s widget poll plus one 1 s shared poll late; a push should be near-instant.
      const goal = mode === 'polling' ? 3000 : 500;
      figures.push(
        figure(`${mode}: succeeded → painted (median of ${runs})`, ms(value), `≤ ${ms(goal)}`, value <= goal),
      );
    }
    const polling = median(results.get('polling')!.map((s) => s.fromSucceeded));
    const pushed = median(results.get('webhook + SSE')!.map((s) => s.fromSucceeded));
    figures.push(figure('webhook + SSE ÷ polling', `${(pushed / polling).toFixed(2)}×`, '< 1', pushed < polling));
    const hooks = shops.get('webhook + SSE')!.webhooks;
    return {
      figures,
      notes: [
        `all runs, ms after succeeded: ${modes
          .map(
            (m) =>
              `${m}: ${results
                .get(m)!
                .map((s) => Math.round(s.fromSucceeded))
                .join(', ')}`,
          )
          .join('; ')}`,
        `release → painted medians (includes the sandbox render after release): ${modes.map((m) => `${m} ${ms(median(results.get(m)!.map((s) => s.fromRelease)))}`).join(', ')}`,
        `webhooks delivered to the proxy: ${hooks.delivered} accepted, ${hooks.refused} refused`,
      ],
    };
  },
};
