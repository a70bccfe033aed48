// The photo check runs in the demo shop as the shop serves it: its worker, WebAssembly and model
// weights come from the shop's /widget/ folder with the types docs/integrations/script-tag.md lists,
// and the verdict event says `pass` for a real photo of one person and `fail` (no_person) for a
// scene without one. An "unavailable" verdict fails here: before the shop knew the `.wasm` and
// `.bin` types, every photo went unchecked and only "Try it on" showed, which no test told apart.
// Chromium only (see tryon-variants.test.ts); the check's own verdicts run in all three engines in
// test/widget/photo-check.test.ts.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { SAMPLE_PHOTO } from '../../demo/shop/images.js';
import { opencvDataPresent, peoplePhoto } from '../photos/people.js';
import { giveConsent, openProduct, openShop, root, startTryon, withPage } from './shop.js';
import type { Shop } from './shop.js';

let shop: Shop;

before(async () => {
  shop = await openShop();
});
after(async () => {
  await shop?.close();
});

interface Verdict {
  result: string;
  reasons: string[];
  mode: string;
}

/** A whole-body product: the strictest rule the check applies. */
const SAREE = 'saree-nivi-ruby';

/** Opens the try-on, chooses `photo` and returns the first `tryon-photo-check` verdict. */
async function verdictFor(page: Page, photo: { name: string; buffer: Buffer }): Promise<Verdict> {
  await openProduct(page, shop, SAREE);
  const verdict = page.evaluate(
    () =>
      new Promise<Verdict>((resolve) => {
        document
          .querySelector('tryon-button')!
          .addEventListener('tryon-photo-check', (event) => resolve((event as CustomEvent<Verdict>).detail), {
            once: true,
          });
      }),
  );
  const dialog = await startTryon(page);
  await giveConsent(dialog);
  await dialog.getByLabel('Your photo', { exact: true }).setInputFiles({ ...photo, mimeType: 'image/jpeg' });
  return verdict;
}

/** Records the shop's answers for the check's own files (worker, wasm, weights, model graphs). */
function checkFiles(page: Page): Map<string, { status: number; type: string }> {
  const files = new Map<string, { status: number; type: string }>();
  page.on('response', (response) => {
    const name = new URL(response.url()).pathname.split('/').pop() ?? '';
    if (name.startsWith('photo-check-'))
      files.set(name, { status: response.status(), type: response.headers()['content-type'] ?? '' });
  });
  return files;
}

describe('the photo check in the demo shop', () => {
  test("passes the demo's own sample photo, with its files served in their types", async () => {
    const buffer = await readFile(join(root, 'demo/shop', SAMPLE_PHOTO));
    await withPage(shop, 'photo check passes the sample photo', async (page, problems) => {
      const files = checkFiles(page);
      const verdict = await verdictFor(page, { name: 'me.jpg', buffer });
      assert.deepEqual(
        { result: verdict.result, reasons: verdict.reasons },
        { result: 'pass', reasons: [] },
        'the check ran and passed',
      );
      assert.equal(verdict.mode, 'warn');
      const expected: Record<string, string> = {
        'photo-check-worker.js': 'text/javascript',
        'photo-check-tfjs-simd.wasm': 'application/wasm',
        'photo-check-selfie.json': 'application/json',
        'photo-check-selfie.bin': 'application/octet-stream',
        'photo-check-blazeface.json': 'application/json',
        'photo-check-blazeface.bin': 'application/octet-stream',
      };
      for (const [name, type] of Object.entries(expected)) {
        const answer = files.get(name);
        assert.ok(answer, `${name} was fetched`);
        assert.equal(answer.status, 200, `${name} answered 200`);
        assert.equal(answer.type.split(';')[0], type, `${name} came as ${type}`);
      }
      assert.deepEqual(problems, []);
    });
  });

  test('refuses a scene with no person in it', { skip: !opencvDataPresent() && 'no opencv-doc photos' }, async () => {
    const buffer = await peoplePhoto('none');
    await withPage(shop, 'photo check refuses a scene without a person', async (page) => {
      const verdict = await verdictFor(page, { name: 'fruit.jpg', buffer });
      assert.equal(verdict.result, 'fail', 'the check ran and refused');
      assert.equal(verdict.reasons[0], 'no_person');
      const dialog = page.getByRole('dialog', { name: 'Virtual try-on' });
      await dialog.getByRole('button', { name: 'Use it anyway', exact: true }).waitFor({ state: 'visible' });
    });
  });
});
