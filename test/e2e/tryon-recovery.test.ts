// When things go wrong mid-try-on: a render that fails upstream, a submit whose answer is lost
// after the job was charged, and a page reload in the middle of a render. The shopper recovers
// with "Try again" (or nothing at all) and pays for one render, checked in /sandbox/state.
// Chromium only: playwright-core drives Firefox and WebKit only in Playwright's own patched builds,
// which it downloads (these machines cannot) and not Debian's firefox-esr or WebKitGTK. What differs
// between engines here, SSE resumed after a reload, runs in all three engines in test/widget/ (resume,
// real-proxy); the charges counted here are the proxy's and the sandbox's, the same in any engine.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import { serve } from '@hono/node-server';
import type { Page } from 'playwright-core';
import { startProxy } from '../../proxy/node.js';
import type { StartedProxy } from '../../proxy/node.js';
import { prepareShopCatalog } from '../../demo/shop/tryon-catalog.js';
import { en } from '../../widget/i18n/en.js';
import {
  LIVE_KEY,
  openProduct,
  openShop,
  resultImage,
  topJobs,
  tryOn,
  tryonDialog,
  until,
  withPage,
  WAIT,
} from './shop.js';
import type { SandboxJob, Shop } from './shop.js';

let shop: Shop;

// A short upstream timeout and no silent proxy retries let the lost-answer test provoke a
// timeout the shopper sees, in seconds.
before(async () => {
  shop = await openShop({ proxyLimits: { upstreamTimeoutMs: 1500, retries: 0 } });
});
after(async () => {
  await shop?.close();
});
// Faults and held jobs never leak from one test into the next.
beforeEach(async () => {
  await shop.sandbox.clearFaults();
});
afterEach(async () => {
  await shop?.sandbox.clearFaults();
});

/**
 * The top-level try-on jobs created since `before` was read. Each try-on's first look (a draft
 * beside it, proxy.md "First look") is counted apart: these tests are about the try-on.
 */
function newJobs(beforeJobs: SandboxJob[], afterJobs: SandboxJob[]): SandboxJob[] {
  const seen = new Set(beforeJobs.map((job) => job.id));
  return topJobs(afterJobs).filter((job) => !seen.has(job.id) && job.tier !== 'draft');
}

/** What the first looks created since `before` was read were charged (no demo product is draft-tier, so every draft is one). */
function firstLookCredits(beforeJobs: SandboxJob[], afterJobs: SandboxJob[]): number {
  const seen = new Set(beforeJobs.map((job) => job.id));
  return topJobs(afterJobs)
    .filter((job) => !seen.has(job.id) && job.tier === 'draft')
    .reduce((sum, job) => sum + job.charged, 0);
}

interface Recorded {
  submits: string[];
  errors: string[];
  messages: string[];
}

/** Records what an integrator's listener would see: each submit's requestId and each error's code. */
async function recordEvents(page: Page): Promise<() => Promise<Recorded>> {
  await page.evaluate(() => {
    const seen: Recorded = { submits: [], errors: [], messages: [] };
    (window as unknown as { recorded: Recorded }).recorded = seen;
    document.addEventListener('tryon-submit', (event) =>
      seen.submits.push((event as CustomEvent<{ requestId: string }>).detail.requestId),
    );
    document.addEventListener('tryon-error', (event) => {
      const { code, message } = (event as CustomEvent<{ code: string; message: string }>).detail;
      seen.errors.push(code);
      seen.messages.push(message);
    });
  });
  return () => page.evaluate(() => (window as unknown as { recorded: Recorded }).recorded);
}

async function submitCount(): Promise<number> {
  return (await shop.sandbox.state()).requests['POST /v1/images/tryon'] ?? 0;
}

describe('recovering from faults in the demo shop', () => {
  test('the render fails upstream, the shopper presses Try again and pays for one render', async (t) => {
    await withPage(shop, t.name, async (page, problems) => {
      const start = await shop.sandbox.workspace();
      await shop.sandbox.fault({ jobOutcome: 'failed', times: 1 });
      await openProduct(page, shop, 'saree-gujarati-marigold');
      const recorded = await recordEvents(page);
      const dialog = await tryOn(page);

      const alert = dialog.getByRole('alert');
      await alert.waitFor();
      const { errors, messages } = await recorded();
      assert.deepEqual(errors, ['render_failed']);
      assert.ok(messages[0] && messages[0].length > 10, 'the error is said in words');
      assert.equal((await alert.innerText()).trim(), messages[0], 'the shopper reads what the integrator is told');
      const failed = await shop.sandbox.workspace();
      const [failedJob] = newJobs(start.jobs, failed.jobs);
      assert.equal(failedJob?.status, 'failed');
      assert.equal(
        start.credits - failed.credits,
        firstLookCredits(start.jobs, failed.jobs),
        'a failed render costs nothing (its first look is charged as a draft)',
      );

      await dialog.getByRole('button', { name: 'Try again' }).click();
      await resultImage(dialog, 'Marigold Bandhani Saree');

      const end = await shop.sandbox.workspace();
      const jobs = newJobs(start.jobs, end.jobs);
      assert.deepEqual(jobs.map((job) => job.status).sort(), ['failed', 'succeeded']);
      const succeeded = jobs.find((job) => job.status === 'succeeded');
      assert.ok(succeeded && succeeded.charged > 0);
      assert.equal(
        start.credits - end.credits - firstLookCredits(start.jobs, end.jobs),
        succeeded.charged,
        'charged for exactly one render',
      );
      assert.deepEqual(problems, []);
    });
  });

  test("the submit's answer is lost after upstream charged it; Try again re-sends the same request at no cost", async (t) => {
    await withPage(shop, t.name, async (page, problems) => {
      const start = await shop.sandbox.workspace();
      const submitsBefore = await submitCount();
      // The submit outlasts the proxy's 1.5 s timeout, but the sandbox still creates (and charges)
      // the job: the shopper sees an error, not the job. The job is held mid-render, as a real
      // render would still be running when the shopper presses Try again.
      await shop.sandbox.fault({ jobOutcome: 'hold', times: 1 });
      await shop.sandbox.fault({ match: 'POST /v1/images/tryon', delayMs: 2500, times: 1 });
      await openProduct(page, shop, 'saree-maharashtrian-paithani');
      const recorded = await recordEvents(page);
      const dialog = await tryOn(page);

      const alert = dialog.getByRole('alert');
      await alert.waitFor({ timeout: WAIT });
      const { errors, messages } = await recorded();
      assert.deepEqual(errors, ['upstream_timeout']);
      assert.equal((await alert.innerText()).trim(), messages[0]);
      // The delayed submit lands upstream after the proxy gave up on it.
      const charged = await until(
        'the delayed submit to reach the sandbox',
        () => shop.sandbox.workspace(),
        (ws) => newJobs(start.jobs, ws.jobs).length > 0,
      );
      const attempts = (await submitCount()) - submitsBefore;
      const [job] = newJobs(start.jobs, charged.jobs);
      assert.ok(job && job.charged > 0, 'upstream made and charged the job');

      await dialog.getByRole('button', { name: 'Try again' }).click();
      await page.locator('tryon-button[status="rendering"]').waitFor({ state: 'attached' });
      await shop.sandbox.release(job.id);
      await resultImage(dialog, 'Peacock Paithani Nauvari');

      const end = await shop.sandbox.workspace();
      assert.deepEqual(
        newJobs(start.jobs, end.jobs).map((j) => j.id),
        [job.id],
        'the retry got the original job',
      );
      assert.equal(
        start.credits - end.credits - firstLookCredits(start.jobs, end.jobs),
        job.charged,
        'no second charge',
      );
      assert.ok((await submitCount()) > submitsBefore + attempts, 'the retry did reach upstream');
      const { submits } = await recorded();
      assert.ok(submits.length >= 1);
      assert.equal(new Set(submits).size, 1, `one requestId across the retry: ${submits.join(', ')}`);
      assert.deepEqual(problems, []);
    });
  });

  // The first answer is lost and the job finishes before the retry: the proxy must not take the
  // finished job without its outputs as final (it once did, and the shopper saw "ready" and no image).
  test("Try again after the lost answer's job already finished still shows the result, at no cost", async (t) => {
    await withPage(shop, t.name, async (page) => {
      page.setDefaultTimeout(10_000);
      const start = await shop.sandbox.workspace();
      await shop.sandbox.fault({ match: 'POST /v1/images/tryon', delayMs: 2500, times: 1 });
      await openProduct(page, shop, 'bandhgala-midnight');
      const dialog = await tryOn(page);
      await dialog.getByRole('alert').waitFor({ timeout: WAIT });
      const done = await until(
        "the lost answer's job to finish",
        () => shop.sandbox.workspace(),
        (ws) => newJobs(start.jobs, ws.jobs).some((job) => job.status === 'succeeded'),
      );
      const [job] = newJobs(start.jobs, done.jobs);
      await dialog.getByRole('button', { name: 'Try again' }).click();
      await resultImage(dialog, 'Midnight Bandhgala');
      const end = await shop.sandbox.workspace();
      assert.deepEqual(
        newJobs(start.jobs, end.jobs).map((j) => j.id),
        [job?.id],
      );
      assert.equal(start.credits - end.credits - firstLookCredits(start.jobs, end.jobs), job?.charged);
    });
  });

  test('a reload in the middle of a render resumes watching the same try-on', async (t) => {
    await withPage(shop, t.name, async (page, problems) => {
      const start = await shop.sandbox.workspace();
      await shop.sandbox.fault({ jobOutcome: 'hold', times: 1 });
      await openProduct(page, shop, 'suit-charcoal');
      await tryOn(page);
      await page.locator('tryon-button[status="rendering"]').waitFor({ state: 'attached' });
      const held = await until(
        'the held job',
        () => shop.sandbox.workspace(),
        (ws) => newJobs(start.jobs, ws.jobs).some((job) => job.status === 'processing'),
      );
      const [job] = newJobs(start.jobs, held.jobs);
      assert.ok(job);
      const submitsBefore = await submitCount();

      await page.reload();
      const dialog = tryonDialog(page);
      await dialog.waitFor({ state: 'visible' });
      await page.locator('tryon-button[status="rendering"]').waitFor({ state: 'attached' });
      await dialog.getByRole('status').first().waitFor();

      await shop.sandbox.release(job.id);
      await resultImage(dialog, 'Charcoal Two-Piece Suit');

      const end = await shop.sandbox.workspace();
      assert.deepEqual(
        newJobs(start.jobs, end.jobs).map((j) => j.id),
        [job.id],
        'no new job after the reload',
      );
      assert.equal(await submitCount(), submitsBefore, 'nothing re-submitted');
      assert.equal(start.credits - end.credits - firstLookCredits(start.jobs, end.jobs), job.charged);
      assert.deepEqual(problems, []);
    });
  });
});

// The shop's own front server, as nginx would be: the demo shop's pages behind it, and /tryon/ sent
// to a token proxy of its own that the test really stops (its listener closed, streams cut) and
// starts again on the same port. While it is down the front answers 502, as nginx does.
interface Front {
  url: string;
  close(): Promise<void>;
}

/** The proxy went away mid-answer (a status stream): the front ends the response, as nginx does. */
function endWhenCut(body: ReadableStream<Uint8Array> | null): ReadableStream<Uint8Array> | null {
  if (!body) return null;
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      } catch {
        controller.close();
      }
    },
    cancel: (reason) => reader.cancel(reason),
  });
}

function startFront(shopUrl: string, proxyPort: () => number | undefined): Promise<Front> {
  return new Promise((resolveFront, reject) => {
    const server = serve(
      {
        hostname: '127.0.0.1',
        port: 0,
        fetch: async (request) => {
          const url = new URL(request.url);
          const port = proxyPort();
          const toProxy = url.pathname === '/tryon' || url.pathname.startsWith('/tryon/');
          const target = toProxy ? `http://127.0.0.1:${port ?? 1}` : shopUrl;
          const headers = new Headers(request.headers);
          headers.delete('host');
          try {
            const answer = await fetch(`${target}${url.pathname}${url.search}`, {
              method: request.method,
              headers,
              redirect: 'manual',
              signal: request.signal,
              ...(request.body ? { body: request.body, duplex: 'half' } : {}),
            } as RequestInit);
            const out = new Headers(answer.headers);
            // fetch has already decoded the body.
            out.delete('content-encoding');
            out.delete('content-length');
            return new Response(endWhenCut(answer.body), { status: answer.status, headers: out });
          } catch {
            return new Response('<html><body><h1>502 Bad Gateway</h1></body></html>', {
              status: 502,
              headers: { 'content-type': 'text/html' },
            });
          }
        },
      },
      (info: AddressInfo) =>
        resolveFront({
          url: `http://127.0.0.1:${info.port}`,
          close: () =>
            new Promise<void>((done) => {
              if ('closeAllConnections' in server) server.closeAllConnections();
              server.close(() => done());
            }),
        }),
    );
    server.once('error', reject);
  });
}

describe("the shop's token proxy stops mid-render", () => {
  let front: Front;
  let proxy: StartedProxy | undefined;
  let proxyPort: number | undefined;
  const secrets = { first: 'outage-test-secret-0123456789abcdef', second: 'outage-test-secret-after-restart-9876' };

  async function startTokenProxy(secret: string): Promise<void> {
    const { catalog, imagesDir } = await prepareShopCatalog();
    proxy = await startProxy({
      port: proxyPort ?? 0,
      basePath: '/tryon',
      secret,
      apiKey: LIVE_KEY,
      baseUrl: shop.sandbox.url,
      upstreamLabel: 'live',
      catalog,
      assetsDir: imagesDir,
      readAsset: async (path) => new Uint8Array(await readFile(resolve(imagesDir, path))),
      allowedOrigins: [front.url],
      log: () => undefined,
    });
    proxyPort = proxy.port;
  }

  async function stopTokenProxy(): Promise<void> {
    await proxy?.close();
    proxy = undefined;
  }

  before(async () => {
    front = await startFront(shop.url, () => proxyPort);
  });
  beforeEach(async () => {
    await startTokenProxy(secrets.first);
  });
  afterEach(async () => {
    await stopTokenProxy();
  });
  after(async () => {
    await front?.close();
  });

  /** Starts a try-on through the front whose job upstream holds mid-render; resolves with that job. */
  async function renderHeld(page: Page, product: string): Promise<SandboxJob> {
    const start = await shop.sandbox.workspace();
    await shop.sandbox.fault({ jobOutcome: 'hold', times: 1 });
    await page.goto(`${front.url}/products/${product}`);
    await page.locator('tryon-button').first().waitFor();
    await tryOn(page);
    await page.locator('tryon-button[status="rendering"]').waitFor({ state: 'attached' });
    const held = await until(
      'the held job',
      () => shop.sandbox.workspace(),
      (ws) => newJobs(start.jobs, ws.jobs).some((job) => job.status === 'processing'),
    );
    const [job] = newJobs(start.jobs, held.jobs);
    assert.ok(job);
    return job;
  }

  /** Stops the proxy, and measures how long until the dialog says the service is not answering. */
  async function stopAndMeasure(page: Page): Promise<number> {
    const status = tryonDialog(page).getByRole('status');
    await stopTokenProxy();
    const stoppedAt = Date.now();
    await status.filter({ hasText: en.notAnswering }).waitFor({ timeout: 10_000 });
    const told = Date.now() - stoppedAt;
    // No clock pretends the render is coming along.
    assert.doesNotMatch(await tryonDialog(page).innerText(), /usually about/);
    return told;
  }

  test('restarted with the same secret, the run resumes by itself to the result, charged once', async (t) => {
    await withPage(shop, t.name, async (page, problems) => {
      const start = await shop.sandbox.workspace();
      const job = await renderHeld(page, 'sherwani-ivory');
      const told = await stopAndMeasure(page);
      t.diagnostic(`"not answering" said ${told} ms after the proxy stopped`);
      assert.ok(told <= 10_000);

      await startTokenProxy(secrets.first);
      const restartedAt = Date.now();
      await shop.sandbox.release(job.id);
      const dialog = tryonDialog(page);
      await resultImage(dialog, 'Ivory Brocade Sherwani');
      t.diagnostic(`result shown ${Date.now() - restartedAt} ms after the proxy restarted, with no press`);
      const end = await shop.sandbox.workspace();
      assert.deepEqual(
        newJobs(start.jobs, end.jobs).map((j) => j.id),
        [job.id],
        'no second try-on',
      );
      assert.equal(start.credits - end.credits - firstLookCredits(start.jobs, end.jobs), job.charged, 'charged once');
      assert.equal(await dialog.getByRole('alert').count(), 0, 'no error on the way');
      assert.deepEqual(problems, []);
    });
  });

  test('restarted with a new secret, the try-on is said to be lost and one press of the button that says so reaches the photo step', async (t) => {
    await withPage(shop, t.name, async (page, problems) => {
      const job = await renderHeld(page, 'bandhgala-midnight');
      const told = await stopAndMeasure(page);
      t.diagnostic(`"not answering" said ${told} ms after the proxy stopped`);
      assert.ok(told <= 10_000);

      await startTokenProxy(secrets.second);
      const dialog = tryonDialog(page);
      const alert = dialog.getByRole('alert');
      await alert.filter({ hasText: en.error_tryon_lost }).waitFor();
      const buttons = await dialog.getByRole('button').allInnerTexts();
      assert.ok(!buttons.map((b) => b.trim()).includes('Try again'), `no "Try again": ${buttons.join(', ')}`);
      const startAgain = dialog.getByRole('button', { name: en.startAgain, exact: true });
      assert.match((await alert.innerText()).toLowerCase(), new RegExp(en.startAgain.toLowerCase()));
      await startAgain.click();
      await page.locator('tryon-button[status="photo"]').waitFor({ state: 'attached' });
      await dialog.getByRole('button', { name: 'Choose a photo' }).waitFor();
      await shop.sandbox.release(job.id);
      assert.deepEqual(problems, []);
    });
  });
});
