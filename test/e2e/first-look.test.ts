// The first look and "See all colours" in the demo shop, against the real proxy and sandbox, in
// Chromium: the shopper sees the quick draft while the full render is held, the full render then
// replaces it, the compare slider works on both; "See all colours" makes one draft per other colour
// (counted in /sandbox/state) and "Make this one in full quality" one full render of that colour.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Locator } from 'playwright-core';
import { openProduct, openShop, resultName, topJobs, tryOn, until, withPage } from './shop.js';
import type { SandboxJob, Shop } from './shop.js';

let shop: Shop;

before(async () => {
  shop = await openShop();
});
after(async () => {
  await shop?.close();
});

const PRODUCT = 'saree-nivi-ruby';
const NAME = 'Ruby Banarasi Silk Saree';

function newJobs(beforeJobs: SandboxJob[], afterJobs: SandboxJob[]): SandboxJob[] {
  const seen = new Set(beforeJobs.map((job) => job.id));
  return topJobs(afterJobs).filter((job) => !seen.has(job.id));
}

/** Waits for an image to be visible and decoded; returns its source. */
async function decoded(image: Locator): Promise<string> {
  await image.waitFor({ state: 'visible' });
  return image.evaluate(async (element) => {
    const img = element as HTMLImageElement;
    if (!(img.complete && img.naturalWidth > 0)) await img.decode();
    return img.currentSrc || img.src;
  });
}

/**
 * Asks for the comparison ("Before and after": the picture shows whole until then), moves its
 * slider with a real key press and returns its value before and after.
 */
async function slide(dialog: Locator, key: 'ArrowLeft' | 'ArrowRight'): Promise<[string | null, string | null]> {
  const slider = dialog.getByRole('slider', { name: 'Before and after' });
  assert.equal(await slider.count(), 0, 'the picture whole until the comparison is asked for');
  await dialog.getByRole('button', { name: 'Before and after', pressed: false }).click();
  const was = await slider.getAttribute('aria-valuenow');
  await slider.focus();
  await slider.press(key);
  await until(
    'the divide to move',
    () => slider.getAttribute('aria-valuenow'),
    (now) => now !== was,
  );
  return [was, await slider.getAttribute('aria-valuenow')];
}

describe('first look in the demo shop', () => {
  test('the preview shows, the full render replaces it; See all colours makes one draft per colour and one full render', async (t) => {
    await withPage(shop, t.name, async (page, problems) => {
      const start = await shop.sandbox.workspace();
      // The try-on is submitted before its first look: the full render is held, the draft is not.
      await shop.sandbox.fault({ jobOutcome: 'hold', times: 1 });
      await openProduct(page, shop, PRODUCT);
      const dialog = await tryOn(page);

      const look = dialog.getByRole('img', { name: `A quick preview of you wearing ${NAME}` });
      const lookSrc = await decoded(look);
      assert.ok(lookSrc.startsWith(`${shop.url}/tryon/files/`), `the first look through the proxy, got ${lookSrc}`);
      await dialog.getByText('Quick preview', { exact: true }).first().waitFor();
      await dialog.getByText(/so far; usually about/).waitFor();
      assert.equal(await dialog.getByRole('button', { name: 'Download' }).count(), 0, 'no Download for the first look');
      assert.equal(await dialog.getByRole('button', { name: 'Share' }).count(), 0, 'no Share for the first look');
      const [was, now] = await slide(dialog, 'ArrowRight');
      assert.equal(was, '50');
      assert.equal(now, '55');

      const held = await until(
        'the held full render and a succeeded draft',
        () => shop.sandbox.workspace(),
        (ws) => {
          const jobs = newJobs(start.jobs, ws.jobs);
          return (
            jobs.some((job) => job.tier === 'standard') &&
            jobs.some((job) => job.tier === 'draft' && job.status === 'succeeded')
          );
        },
      );
      const main = newJobs(start.jobs, held.jobs).find((job) => job.tier === 'standard')!;
      assert.notEqual(main.status, 'succeeded', 'the full render is still held while the first look shows');
      await shop.sandbox.release(main.id);

      // From the name's start: the first look's name ("A quick preview of you wearing …") holds the full render's.
      const full = { src: await decoded(dialog.getByRole('img', { name: resultName(NAME) })) };
      assert.notEqual(full.src, lookSrc, 'the full render replaced the first look');
      await look.waitFor({ state: 'detached' });
      await dialog.getByRole('button', { name: 'Download' }).waitFor();
      await slide(dialog, 'ArrowLeft');
      const afterFirst = newJobs(start.jobs, (await shop.sandbox.workspace()).jobs);
      assert.deepEqual(
        afterFirst.map((job) => job.tier).sort(),
        ['draft', 'standard'],
        'one full render and one first look',
      );

      await dialog.getByRole('button', { name: 'See all colours' }).click();
      await dialog.getByRole('heading', { name: `All colours of ${NAME}` }).waitFor();
      await decoded(dialog.getByRole('img', { name: 'A quick preview of you wearing Zari gold' }));
      const withColours = newJobs(start.jobs, (await shop.sandbox.workspace()).jobs);
      const drafts = withColours.filter((job) => job.tier === 'draft');
      assert.equal(drafts.length, 2, 'the first look and one draft for the one other colour');
      assert.ok(drafts.every((job) => job.views.length === 1 && job.views[0] === 'front'));

      await dialog.getByRole('button', { name: 'Make this one in full quality Zari gold' }).click();
      const upgraded = dialog.getByRole('img', { name: resultName(NAME) });
      await until(
        "the colour's full render shown",
        () => decoded(upgraded),
        (src) => src !== full.src,
      );
      const end = await until(
        "the colour's full render",
        () => shop.sandbox.workspace(),
        (ws) =>
          newJobs(start.jobs, ws.jobs).filter((job) => job.tier === 'standard' && job.status === 'succeeded').length ===
          2,
      );
      const jobs = newJobs(start.jobs, end.jobs);
      assert.equal(jobs.filter((job) => job.tier === 'standard').length, 2, 'one full render for the chosen colour');
      assert.equal(
        jobs.filter((job) => job.tier === 'draft').length,
        2,
        'no first look for a colour whose draft is shown',
      );
      assert.deepEqual(problems, []);
    });
  });
});
