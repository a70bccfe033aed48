// The demo shop when the try-on service forgets a job mid-render, or stays down for longer than
// the tier's slow case: the shopper reads why within the bound, "Try again" makes a new render of
// the same photo (nothing uploaded again) and reaches a result, and the shop is charged once, for
// the render that finished (checked in /sandbox/state). On the proxy's memory store and on a real
// Redis. Chromium only, as every file of test/e2e (tryon-recovery.test.ts says why); the error
// step's words and its Try again run in all three engines in test/widget/upstream-lost.test.ts.
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { connectRedisStore } from '../../proxy/store/redis.js';
import { downBoundMs } from '../../proxy/tryons/give-up.js';
import type { ProxyStore } from '../../proxy/store/store.js';
import { en } from '../../widget/i18n/en.js';
import { startRedis, type RedisServer } from '../proxy/cluster.js';
import { openProduct, openShop, resultImage, topJobs, tryOn, until, withPage, WAIT } from './shop.js';
import type { SandboxJob, Shop } from './shop.js';

/** 8 % of a standard try-on's 25 s slow case: two seconds of failed polls end it. */
const DOWN_PERCENT = 8;
const BOUND = downBoundMs('standard', DOWN_PERCENT);
const PRODUCT = 'bandhgala-midnight';
const NAME = 'Midnight Bandhgala';

/** The try-ons (not their first looks, which are draft jobs of their own) created since `before`. */
function newTryons(before: SandboxJob[], now: SandboxJob[]): SandboxJob[] {
  const seen = new Set(before.map((job) => job.id));
  return topJobs(now).filter((job) => !seen.has(job.id) && job.tier !== 'draft');
}

/** What the first looks created since `before` were charged. */
function firstLookCredits(before: SandboxJob[], now: SandboxJob[]): number {
  const seen = new Set(before.map((job) => job.id));
  return topJobs(now)
    .filter((job) => !seen.has(job.id) && job.tier === 'draft')
    .reduce((sum, job) => sum + job.charged, 0);
}

/** Counts the photos the page uploads (POST …/photos). */
function countUploads(page: Page): () => number {
  let uploads = 0;
  page.on('request', (request) => {
    if (request.method() === 'POST' && /\/photos$/.test(new URL(request.url()).pathname)) uploads++;
  });
  return () => uploads;
}

async function saysWhy(dialog: Locator, words: string): Promise<number> {
  const alert = dialog.getByRole('alert');
  await alert.waitFor({ timeout: WAIT });
  assert.equal((await alert.innerText()).trim(), words);
  return Date.now();
}

const stores: [string, () => Promise<{ store?: ProxyStore; close(): Promise<void> }>][] = [
  ['memory', async () => ({ close: async () => undefined })],
  [
    'Redis',
    async () => {
      const redis: RedisServer = await startRedis();
      const store = await connectRedisStore(redis.url, { prefix: 'e2e-lost:' });
      return {
        store,
        close: async () => {
          await store.close();
          await redis.close();
        },
      };
    },
  ],
];

for (const [name, open] of stores) {
  describe(`the try-on service forgets or stays down (${name} store)`, () => {
    let shop: Shop;
    let store: Awaited<ReturnType<typeof open>>;
    before(async () => {
      store = await open();
      shop = await openShop({
        proxyLimits: { upstreamDownPercent: DOWN_PERCENT, pollIntervalMs: 250 },
        ...(store.store ? { proxyStore: store.store } : {}),
      });
    });
    after(async () => {
      await shop?.close();
      await store?.close();
    });
    afterEach(async () => {
      await shop.sandbox.clearFaults();
    });

    test('a job forgotten mid-render: the shopper reads why, Try again reaches a result, charged once', async (t) => {
      await withPage(shop, t.name, async (page, problems) => {
        const start = await shop.sandbox.workspace();
        await shop.sandbox.fault({ jobOutcome: 'vanish' });
        await openProduct(page, shop, PRODUCT);
        const uploads = countUploads(page);
        const sent = Date.now();
        const dialog = await tryOn(page);
        const told = await saysWhy(dialog, en.error_upstream_lost);
        // Known at the first poll that finds the job gone, well before any outage bound.
        assert.ok(told - sent < BOUND + 10_000, `told after ${told - sent} ms`);
        const lost = newTryons(start.jobs, (await shop.sandbox.workspace()).jobs);
        assert.deepEqual(
          lost.map((job) => [(job as SandboxJob & { vanished?: boolean }).vanished, job.charged]),
          [[true, 0]],
        );

        await dialog.getByRole('button', { name: en.tryAgain }).click();
        await resultImage(dialog, NAME);
        assert.equal(uploads(), 1, 'Try again sends the same photo: nothing uploaded again');
        const end = await shop.sandbox.workspace();
        const jobs = newTryons(start.jobs, end.jobs);
        const finished = jobs.find((job) => job.status === 'succeeded');
        assert.equal(jobs.length, 2);
        assert.ok(finished && finished.charged > 0);
        assert.equal(
          start.credits - end.credits - firstLookCredits(start.jobs, end.jobs),
          finished.charged,
          'charged once, for the render that finished',
        );
        assert.deepEqual(problems, []);
      });
    });

    test('the service down for longer than the slow case: the shopper reads why after the bound, Try again reaches a result, charged once', async (t) => {
      await withPage(shop, t.name, async (page, problems) => {
        const start = await shop.sandbox.workspace();
        // Every status read fails from the start; meanwhile the job fails there (and gives its credits back).
        await shop.sandbox.fault({ match: 'GET /v1/jobs/*', status: 503, times: 1000 });
        await shop.sandbox.fault({ jobOutcome: 'failed' });
        await openProduct(page, shop, PRODUCT);
        const uploads = countUploads(page);
        const dialog = await tryOn(page);
        const sent = Date.now();
        const told = await saysWhy(dialog, en.error_tryon_unfinished);
        assert.ok(told - sent >= BOUND - 1000, `told after ${told - sent} ms, the bound is ${BOUND} ms`);
        assert.ok(told - sent < BOUND + 15_000, `told after ${told - sent} ms, the bound is ${BOUND} ms`);

        await shop.sandbox.clearFaults();
        await dialog.getByRole('button', { name: en.tryAgain }).click();
        await resultImage(dialog, NAME);
        assert.equal(uploads(), 1, 'Try again sends the same photo: nothing uploaded again');
        const end = await until(
          'the try-ons to settle',
          () => shop.sandbox.workspace(),
          (ws) => newTryons(start.jobs, ws.jobs).every((job) => job.status === 'succeeded' || job.status === 'failed'),
        );
        const jobs = newTryons(start.jobs, end.jobs);
        assert.deepEqual(jobs.map((job) => job.status).sort(), ['failed', 'succeeded']);
        const finished = jobs.find((job) => job.status === 'succeeded')!;
        assert.equal(
          start.credits - end.credits - firstLookCredits(start.jobs, end.jobs),
          finished.charged,
          'charged once, for the render that finished',
        );
        assert.deepEqual(problems, []);
      });
    });
  });
}
