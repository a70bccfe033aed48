// A shopper's try-ons in the demo shop, in a real Chromium: one view, the 4-view catalog,
// person_to_person, video, and the themed page that listens to the widget's events.
// Chromium only: playwright-core drives Firefox and WebKit only in Playwright's own patched builds,
// which it downloads (these machines cannot) and not Debian's firefox-esr or WebKitGTK. What differs
// between engines here, photo preparation, upload progress, SSE and share/download, runs in all three
// engines in test/widget/ (photo, flow, real-proxy, network-urls); this file checks the shop around it.
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import { openProduct, openShop, resultImage, root, topJobs, tryOn, until, withPage } from './shop.js';
import type { SandboxJob, Shop } from './shop.js';
import { videoDuration } from './video.js';

let shop: Shop;

before(async () => {
  shop = await openShop();
});
after(async () => {
  await shop?.close();
});

/** The top-level jobs created since `before` was read. */
function newJobs(beforeJobs: SandboxJob[], afterJobs: SandboxJob[]): SandboxJob[] {
  const seen = new Set(beforeJobs.map((job) => job.id));
  return topJobs(afterJobs).filter((job) => !seen.has(job.id));
}

describe('try-on flows in the demo shop', () => {
  test('garment_to_person with one view: the saree on the shopper, charged once', async (t) => {
    await withPage(shop, t.name, async (page, problems) => {
      const start = await shop.sandbox.workspace();
      await openProduct(page, shop, 'saree-nivi-ruby');
      const dialog = await tryOn(page);
      const image = await resultImage(dialog, 'Ruby Banarasi Silk Saree');

      assert.ok(image.width >= 256 && image.height >= 256, `a real image, got ${image.width}×${image.height}`);
      assert.ok(image.src.startsWith(`${shop.url}/tryon/files/`), `served through the proxy, got ${image.src}`);
      assert.equal(await dialog.getByRole('tab').count(), 0, 'one view: no view switcher');
      await dialog
        .getByRole('button', { name: 'Download' })
        .or(dialog.getByRole('link', { name: 'Download' }))
        .first()
        .waitFor();

      const end = await until(
        'the job to succeed',
        () => shop.sandbox.workspace(),
        (ws) => newJobs(start.jobs, ws.jobs).some((job) => job.status === 'succeeded'),
      );
      const [job, firstLook] = newJobs(start.jobs, end.jobs);
      assert.ok(job);
      assert.equal(
        newJobs(start.jobs, end.jobs).length,
        2,
        'one try-on: its job and its first look (a draft beside it)',
      );
      assert.deepEqual(job.views, ['front']);
      assert.equal(job.tier, 'standard');
      assert.deepEqual([firstLook?.tier, firstLook?.views], ['draft', ['front']]);
      assert.ok(job.charged > 0, 'a live key is charged');
      assert.equal(start.credits - end.credits, job.charged + firstLook!.charged, 'each charged exactly once');
      const upstream = await shop.sandbox.job(job.id);
      assert.equal(upstream.mode, 'garment_to_person');
      assert.deepEqual(problems, []);
    });
  });

  test('the 4-view catalog: front first, then three more angles on a haveli background', async (t) => {
    await withPage(shop, t.name, async (page, problems) => {
      const start = await shop.sandbox.workspace();
      await openProduct(page, shop, 'saree-bengali-haveli');
      const dialog = await tryOn(page);
      const front = await resultImage(dialog, 'Garad Silk Saree, Bengali Drape');

      const names = ['Front', 'Three-quarter', 'Side', 'Back'];
      // The tabs' own pictures: the first shown may still be the first look, replaced by the
      // render when it lands, so it is not one of the four.
      assert.ok(front.width > 0);
      const sources = new Set<string>();
      for (const name of names) {
        const tab = dialog.getByRole('tab', { name });
        await tab.click();
        await until(
          `the ${name} tab to be selected`,
          () => tab.getAttribute('aria-selected'),
          (value) => value === 'true',
        );
        const shown = await resultImage(dialog, 'Garad Silk Saree, Bengali Drape');
        assert.ok(shown.width > 0);
        sources.add(shown.src);
      }
      assert.equal(sources.size, 4, 'each view is its own image');

      const end = await shop.sandbox.workspace();
      const jobs = newJobs(start.jobs, end.jobs);
      assert.equal(jobs.length, 2, 'one catalog job and its first look');
      const [catalog, firstLook] = jobs;
      assert.equal(firstLook?.tier, 'draft');
      assert.ok(catalog);
      assert.equal(catalog.type, 'catalog');
      assert.deepEqual([...catalog.views].sort(), ['back', 'front', 'side', 'three_quarter_left']);
      assert.equal(catalog.tier, 'premium');
      assert.equal(
        start.credits - end.credits,
        end.jobs
          .filter((job) => job.id === catalog.id || job.parent === catalog.id || job.id === firstLook?.id)
          .reduce((sum, job) => sum + job.charged, 0),
        'credits match what the catalog and its first look charged',
      );

      // The README's picture: the dialog showing the front view, small enough to commit.
      await dialog.getByRole('tab', { name: 'Front' }).click();
      await resultImage(dialog, 'Garad Silk Saree, Bengali Drape');
      // The try-on shows whole: no before/after divide until the shopper asks for it.
      assert.equal(await dialog.getByRole('slider', { name: 'Before and after' }).count(), 0);
      assert.equal(
        await dialog.getByRole('button', { name: 'Before and after' }).getAttribute('aria-pressed'),
        'false',
      );
      const shot = await dialog.screenshot({ animations: 'disabled' });
      const png = await sharp(shot)
        .resize({ width: 560, withoutEnlargement: true })
        .png({ palette: true, quality: 80, compressionLevel: 9, effort: 10 })
        .toBuffer();
      assert.ok(png.length <= 120 * 1024, `screenshot is ${png.length} bytes`);
      await mkdir(join(root, 'docs'), { recursive: true });
      await writeFile(join(root, 'docs/screenshot.png'), png);
      assert.deepEqual(problems, []);
    });
  });

  test('person_to_person: the lehenga taken from the model photo', async (t) => {
    await withPage(shop, t.name, async (page, problems) => {
      const start = await shop.sandbox.workspace();
      await openProduct(page, shop, 'lehenga-emerald');
      const dialog = await tryOn(page);
      await resultImage(dialog, 'Emerald Bridal Lehenga');
      const end = await shop.sandbox.workspace();
      const [job] = newJobs(start.jobs, end.jobs);
      assert.ok(job, 'a job was made');
      const upstream = await shop.sandbox.job(job.id);
      assert.equal(upstream.mode, 'person_to_person');
      assert.deepEqual(problems, []);
    });
  });

  test('video: after the image, "Make a video" gives a playable twirl', async (t) => {
    await withPage(shop, t.name, async (page, problems) => {
      const start = await shop.sandbox.workspace();
      await openProduct(page, shop, 'sherwani-ivory');
      const dialog = await tryOn(page);
      await resultImage(dialog, 'Ivory Brocade Sherwani');
      await dialog.getByRole('button', { name: 'Make a video' }).click();

      const video = dialog.locator('video').first();
      await video.waitFor({ state: 'visible' });
      assert.equal(
        (await video.getAttribute('aria-label')) ?? (await video.getAttribute('title')),
        'Video of you wearing Ivory Brocade Sherwani',
      );
      const duration = await videoDuration(video);
      assert.ok(Math.abs(duration - 5) < 0.5, `a 5 s video, got ${duration}`);

      const end = await shop.sandbox.workspace();
      const jobs = newJobs(start.jobs, end.jobs);
      // Each try-on, the video too, has a still first look beside it: a draft image.
      assert.deepEqual(
        jobs
          .filter((job) => job.tier !== 'draft')
          .map((job) => job.type)
          .sort(),
        ['image', 'video'],
      );
      assert.deepEqual(
        jobs.filter((job) => job.tier === 'draft').map((job) => job.type),
        ['image', 'image'],
      );
      assert.deepEqual(problems, []);
    });
  });

  test('the themed page: own label and accent, event log, and an add-to-cart offer after the result', async (t) => {
    await withPage(shop, t.name, async (page, problems) => {
      await openProduct(page, shop, 'dress-aline-indigo');
      const button = page.getByRole('button', { name: 'See it on you', exact: true });
      const colour = await button.evaluate((element) => getComputedStyle(element).backgroundColor);
      assert.equal(colour, 'rgb(40, 61, 143)', "the shop's --tryon-accent reaches the button");

      const offer = page.getByRole('button', { name: 'Add this look to cart' });
      assert.equal(await offer.isVisible(), false, 'no offer before a result');
      const dialog = await tryOn(page, 'See it on you');
      await resultImage(dialog, 'Indigo Block-Print A-line Dress');
      await offer.waitFor({ state: 'visible' });

      await dialog.getByRole('button', { name: 'Close' }).first().click();
      await dialog.waitFor({ state: 'hidden' });
      const log = page.getByRole('log', { name: 'Event log' });
      await log.locator('[data-event="tryon-close"]').waitFor();
      const events = await log
        .locator('[data-event]')
        .evaluateAll((items) => items.map((item) => (item as HTMLElement).dataset.event));
      const order = ['tryon-open', 'tryon-submit', 'tryon-result', 'tryon-close'];
      const positions = order.map((name) => events.indexOf(name));
      assert.ok(
        positions.every((position) => position >= 0),
        `every event logged: ${events.join(', ')}`,
      );
      assert.deepEqual(
        [...positions].sort((a, b) => a - b),
        positions,
        `in order: ${events.join(', ')}`,
      );
      const progress = events.indexOf('tryon-progress', positions[1]);
      assert.ok(
        progress > (positions[1] ?? 0) && progress < (positions[2] ?? 0),
        `progress between submit and result: ${events.join(', ')}`,
      );

      await offer.click();
      await page.getByRole('button', { name: 'Added to cart' }).waitFor();
      assert.equal(await page.locator('[data-cart-count]').textContent(), '1');
      assert.deepEqual(problems, []);
    });
  });
});
