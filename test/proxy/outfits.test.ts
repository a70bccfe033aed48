// Outfits ("Complete the look") against the real sandbox over loopback: a catalog's `pairsWith`
// (checked at load), GET /products' `pairs`, POST /tryons with `over` rendering a piece on a
// finished try-on's result (its pieces in the status, its result uploaded upstream as a person
// file once), every refusal with its own code and words, a retry that starts and charges nothing
// new, "forget my photo" reaching every layer, and the outfit counts of GET /usage with the cart
// report. One stack for the file; the two-instance retry is in outfits-cluster.test.ts.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import sharp from 'sharp';
import {
  CATALOG,
  absolute,
  newRequestId,
  photoHandle,
  startStack,
  startTryon,
  waitForStatus,
  type Stack,
  type StatusAnswer,
  type TryonAnswer,
} from './stack.js';
import { CatalogError, parseCatalog, type CatalogFile } from '../../proxy/catalog/catalog.js';
import { HandleSigner } from '../../proxy/security/handles.js';
import type { UsageAnswer } from '../../proxy/admin.js';
import { OUTFIT_CATALOG, writePieces } from './outfit-catalog.js';

const TOKEN = 'outfits-admin-token-0123456789';

const errorOf = async (response: Response) =>
  ((await response.json()) as { error: { code: string; message: string } }).error;

const succeeded = (stack: Stack, tryon: string) =>
  waitForStatus(stack, tryon, (s) => s.status === 'succeeded' || s.status === 'failed');

async function usageOf(stack: Stack): Promise<UsageAnswer> {
  const response = await fetch(`${stack.adminUrl}/usage`, { headers: { authorization: `Bearer ${TOKEN}` } });
  assert.equal(response.status, 200);
  return (await response.json()) as UsageAnswer;
}

describe('the catalog: pairsWith', () => {
  it('names products of the same catalog; an unknown one, or the product itself, is refused at load', () => {
    assert.deepEqual(parseCatalog(OUTFIT_CATALOG).get('lehenga-emerald')!.pairsWith, ['dupatta-gota', 'stole-zari']);
    const bad: CatalogFile = {
      ...OUTFIT_CATALOG,
      products: {
        ...OUTFIT_CATALOG.products,
        'dress-aline-indigo': {
          ...CATALOG.products['dress-aline-indigo']!,
          pairsWith: ['shawl-missing', 'dress-aline-indigo'],
        },
      },
    };
    assert.throws(
      () => parseCatalog(bad),
      (error: unknown) =>
        error instanceof CatalogError &&
        error.problems.includes(
          'product "dress-aline-indigo": field pairsWith: product "shawl-missing" is not in the catalog\'s products',
        ) &&
        error.problems.includes('product "dress-aline-indigo": field pairsWith: a product cannot pair with itself'),
    );
  });
});

describe('outfits: a piece over a finished try-on', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack({ proxy: { catalog: OUTFIT_CATALOG, adminToken: TOKEN } });
    await writePieces(stack.assetsDir);
  });
  after(async () => {
    await stack.close();
  });

  /** A photo and a finished try-on of the lehenga on it. */
  async function lehengaOn(): Promise<{ photo: string; base: string; status: StatusAnswer }> {
    const photo = await photoHandle(stack);
    const started = await startTryon(stack, { product: 'lehenga-emerald', photo });
    assert.equal(started.status, 202);
    const base = ((await started.json()) as TryonAnswer).tryon;
    const status = await succeeded(stack, base);
    assert.equal(status.status, 'succeeded');
    return { photo, base, status };
  }

  it('GET /products lists the available pairs, shaped like the product’s own variants, with a picture', async () => {
    const lehenga = (await (await fetch(`${stack.url}/products/lehenga-emerald`)).json()) as {
      pairs: {
        product: string;
        name: string;
        image: string;
        variants: { id: string; name: string; swatch: string }[];
      }[];
    };
    assert.deepEqual(
      lehenga.pairs.map((p) => [p.product, p.name, p.variants]),
      [
        [
          'dupatta-gota',
          'Rose gota dupatta',
          [
            { id: 'rose', name: 'Rose', swatch: '/products/dupatta-gota/image?variant=rose' },
            { id: 'saffron', name: 'Saffron', swatch: '/products/dupatta-gota/image?variant=saffron' },
          ],
        ],
        ['stole-zari', 'stole-zari', []],
      ],
    );
    const picture = await fetch(absolute(stack, lehenga.pairs[0]!.image));
    assert.equal(picture.status, 200);
    assert.equal(picture.headers.get('content-type'), 'image/png');
    const { dominant } = await sharp(Buffer.from(await picture.arrayBuffer())).stats();
    assert.ok(dominant.r > 180 && dominant.g < 120, `the dupatta's own picture, rose: ${JSON.stringify(dominant)}`);
    // A colour's swatch is that colour's own picture.
    const saffron = await fetch(absolute(stack, lehenga.pairs[0]!.variants[1]!.swatch));
    const saffronColour = (await sharp(Buffer.from(await saffron.arrayBuffer())).stats()).dominant;
    assert.ok(saffronColour.g > dominant.g + 30, `saffron, not rose: ${JSON.stringify(saffronColour)}`);
    // A switched-off piece is not offered; a product without pieces lists none.
    const dress = (await (await fetch(`${stack.url}/products/dress-aline-indigo`)).json()) as { pairs: unknown[] };
    assert.deepEqual(dress.pairs, []);
    const suit = (await (await fetch(`${stack.url}/products/sherwani-none`)).json()) as { error?: unknown };
    assert.ok(suit.error, 'an unknown product has no pairs to list');
  });

  it('renders a dupatta, then a stole, over a lehenga: pieces base first, the result a person file once', async () => {
    const { photo, base } = await lehengaOn();
    const uploadsBefore = stack.upstreamCalls.filter((c) => c === 'POST /v1/files').length;
    const requestId = newRequestId();
    const answer = await startTryon(stack, { product: 'dupatta-gota', variant: 'rose', over: base, requestId });
    assert.equal(answer.status, 202, JSON.stringify(await answer.clone().json()));
    const layered = (await answer.json()) as TryonAnswer & { pieces: unknown };
    assert.deepEqual(layered.pieces, [{ product: 'lehenga-emerald' }, { product: 'dupatta-gota', variant: 'rose' }]);
    // The lehenga's result went upstream as a person file, and the dupatta's picture as a garment: two uploads.
    assert.equal(stack.upstreamCalls.filter((c) => c === 'POST /v1/files').length - uploadsBefore, 2);
    const status = (await succeeded(stack, layered.tryon)) as StatusAnswer & {
      pieces: unknown;
      preview?: { status: string; outputs: unknown[] };
    };
    assert.equal(status.status, 'succeeded');
    // Its first look, a draft over the same result, started beside it.
    assert.ok(status.preview, 'a first look beside the piece');
    assert.ok(['queued', 'processing', 'succeeded'].includes(status.preview.status), status.preview.status);
    assert.deepEqual(status.pieces, layered.pieces);
    // The result shows the lehenga too: nothing is claimed of its colours, never "true".
    assert.deepEqual((status as { fidelity?: unknown }).fidelity, { verdict: 'unchecked', views: [] });
    const file = await fetch(absolute(stack, status.outputs[0]!.url));
    assert.equal(file.status, 200);

    // A retry (the same requestId) is the same try-on: the same handle, no new upload, nothing charged.
    const spentBefore = (await usageOf(stack)).days[0]!;
    const calls = stack.upstreamCalls.length;
    const again = await startTryon(stack, { product: 'dupatta-gota', variant: 'rose', over: base, requestId });
    assert.equal(again.status, 202);
    assert.equal(((await again.json()) as TryonAnswer).tryon, layered.tryon);
    assert.deepEqual(
      stack.upstreamCalls.slice(calls).filter((c) => c === 'POST /v1/files'),
      [],
      'the result is not uploaded again',
    );
    const spentAfter = (await usageOf(stack)).days[0]!;
    assert.equal(spentAfter.credits, spentBefore.credits);
    assert.equal(spentAfter.tryons, spentBefore.tryons);
    assert.equal(spentAfter.outfits, spentBefore.outfits);

    // A third piece over the outfit: listed by the outfit's first product.
    const third = await startTryon(stack, { product: 'stole-zari', over: layered.tryon });
    assert.equal(third.status, 202, JSON.stringify(await third.clone().json()));
    const outfit = (await third.json()) as TryonAnswer & { pieces: unknown };
    assert.deepEqual(outfit.pieces, [
      { product: 'lehenga-emerald' },
      { product: 'dupatta-gota', variant: 'rose' },
      { product: 'stole-zari' },
    ]);
    assert.equal((await succeeded(stack, outfit.tryon)).status, 'succeeded');

    // The compliance line of a piece says it follows the photo's consent.
    const consent = stack.logs.filter((l) => l.event === 'consent' && l.product === 'stole-zari').at(-1);
    assert.equal(consent?.source, 'outfit');

    // The cart report: the outfit's own pieces only.
    const report = (pieces: unknown) =>
      fetch(`${stack.url}/tryons/${outfit.tryon}/cart`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ pieces }),
      });
    const stranger = await report([{ product: 'saree-banarasi-red' }]);
    assert.equal(stranger.status, 422);
    assert.match((await errorOf(stranger)).message, /saree-banarasi-red is not in this try-on's outfit/);
    const cartBefore = (await usageOf(stack)).days[0]!;
    assert.equal(
      (
        await report([
          { product: 'lehenga-emerald' },
          { product: 'dupatta-gota', variant: 'rose' },
          { product: 'stole-zari' },
        ])
      ).status,
      204,
    );
    const day = (await usageOf(stack)).days[0]!;
    assert.equal(day.outfitsAddedToCart - cartBefore.outfitsAddedToCart, 1);
    assert.equal(day.piecesAddedToCart - cartBefore.piecesAddedToCart, 3);
    assert.ok(day.outfits >= 1);
    assert.equal(day.piecesPerOutfit, Math.round((day.outfitPieces / day.outfits) * 100) / 100);

    // Forgetting the photo forgets every layer: their status and their files answer 404.
    assert.equal((await fetch(`${stack.url}/photos/${photo}`, { method: 'DELETE' })).status, 204);
    for (const tryon of [base, layered.tryon, outfit.tryon]) {
      const gone = await fetch(`${stack.url}/tryons/${tryon}`);
      assert.equal(gone.status, 404);
      assert.equal((await errorOf(gone)).code, 'invalid_handle');
    }
    assert.equal((await fetch(absolute(stack, status.outputs[0]!.url))).status, 404);
    // And no new piece can be put on it.
    const after = await startTryon(stack, { product: 'dupatta-gota', over: base });
    assert.equal(after.status, 404);
  });

  it('a piece follows the base’s views, front first, or the front alone where the catalog says', async () => {
    const photo = await photoHandle(stack);
    const saree = (await (await startTryon(stack, { product: 'saree-banarasi-red', photo })).json()) as TryonAnswer;
    assert.deepEqual(saree.views, ['front', 'three_quarter_left', 'side', 'back']);
    assert.equal((await succeeded(stack, saree.tryon)).status, 'succeeded');
    const dupatta = await startTryon(stack, { product: 'dupatta-gota', over: saree.tryon });
    assert.equal(dupatta.status, 202);
    const draped = (await dupatta.json()) as TryonAnswer;
    assert.deepEqual(draped.views, ['front', 'three_quarter_left', 'side', 'back']);
    const done = await succeeded(stack, draped.tryon);
    assert.deepEqual(
      done.outputs.map((o) => o.view),
      ['front', 'three_quarter_left', 'side', 'back'],
    );
    const stole = await startTryon(stack, { product: 'stole-zari', over: saree.tryon });
    assert.equal(stole.status, 202);
    assert.deepEqual(((await stole.json()) as TryonAnswer).views, ['front'], 'layering: "front"');
    // The browser may narrow a piece's views, never widen them.
    const narrowed = await startTryon(stack, { product: 'dupatta-gota', over: saree.tryon, views: ['side'] });
    assert.deepEqual(((await narrowed.json()) as TryonAnswer).views, ['side']);
    const widened = await startTryon(stack, { product: 'stole-zari', over: saree.tryon, views: ['back'] });
    assert.equal(widened.status, 422);
    assert.equal((await errorOf(widened)).code, 'view_not_offered');
  });

  it('a base result upstream has forgotten as a person file is sent again, not refused as an expired photo', async () => {
    const { base } = await lehengaOn();
    const first = await startTryon(stack, { product: 'dupatta-gota', over: base });
    assert.equal(first.status, 202);
    const sent = () => stack.logs.filter((entry) => entry.event === 'output_uploaded_as_person').length;
    const before = sent();
    // Upstream loses every person file, as by a restart; the base's result (an output) it keeps.
    const forget = await fetch(`${stack.sandboxUrl}/sandbox/files/forget`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ kind: 'person' }),
    });
    assert.equal(forget.status, 200);
    const again = await startTryon(stack, { product: 'dupatta-gota', variant: 'saffron', over: base });
    assert.equal(again.status, 202, JSON.stringify(await again.clone().json()));
    assert.equal(sent() - before, 1, 'the result uploaded once more');
    assert.equal((await succeeded(stack, ((await again.json()) as TryonAnswer).tryon)).status, 'succeeded');
  });

  it('refuses, each with its own code and words', async (t) => {
    const { base } = await lehengaOn();
    await t.test('a try-on handle this proxy did not mint: 404', async () => {
      const foreign = await new HandleSigner('another-shop-secret-0123456789abcdef').mint(
        'tryon',
        { jobId: 'job_x', product: 'lehenga-emerald', views: ['front'], output: 'image', photoId: 'p' },
        3600,
      );
      const refused = await startTryon(stack, { product: 'dupatta-gota', over: foreign.handle });
      assert.equal(refused.status, 404);
      assert.equal((await errorOf(refused)).code, 'invalid_handle');
    });
    await t.test('a piece the product does not list: 422 not_a_pair', async () => {
      const refused = await startTryon(stack, { product: 'dress-aline-indigo', over: base });
      assert.equal(refused.status, 422);
      const error = await errorOf(refused);
      assert.equal(error.code, 'not_a_pair');
      assert.match(error.message, /does not list it/);
    });
    await t.test('over with photo or model: 400 invalid_request', async () => {
      const photo = await photoHandle(stack);
      const refused = await startTryon(stack, { product: 'dupatta-gota', over: base, photo });
      assert.equal(refused.status, 400);
      const error = await errorOf(refused);
      assert.equal(error.code, 'invalid_request');
      assert.match(error.message, /exactly one of photo .* model .* and over/);
      const withModel = await startTryon(stack, { product: 'dupatta-gota', over: base, model: 'asha' });
      assert.equal(withModel.status, 400);
      assert.equal((await errorOf(withModel)).code, 'invalid_request');
      // Neither of the three stays what it was before `over` (as photo with model does).
      const neither = await startTryon(stack, { product: 'dupatta-gota' });
      assert.equal(neither.status, 422);
      assert.match((await errorOf(neither)).message, /send exactly one of the three/);
    });
    await t.test('an unfinished try-on: 409 base_not_ready', async () => {
      const photo = await photoHandle(stack);
      await stack.fault({ jobOutcome: 'hold', times: 1 });
      const held = (await (await startTryon(stack, { product: 'lehenga-emerald', photo })).json()) as TryonAnswer;
      const refused = await startTryon(stack, { product: 'dupatta-gota', over: held.tryon });
      assert.equal(refused.status, 409);
      const error = await errorOf(refused);
      assert.equal(error.code, 'base_not_ready');
      assert.match(error.message, /has not finished/);
      await stack.clearFaults();
    });
    await t.test('more pieces than the outfit may hold: 422 outfit_too_long', async () => {
      const small = await startStack({ proxy: { catalog: OUTFIT_CATALOG, limits: { outfitPieces: 2 } } });
      try {
        await writePieces(small.assetsDir);
        const photo = await photoHandle(small);
        const first = (await (await startTryon(small, { product: 'lehenga-emerald', photo })).json()) as TryonAnswer;
        await succeeded(small, first.tryon);
        const second = await startTryon(small, { product: 'stole-zari', over: first.tryon });
        assert.equal(second.status, 202);
        const two = (await second.json()) as TryonAnswer;
        await succeeded(small, two.tryon);
        const refused = await startTryon(small, { product: 'dupatta-gota', over: two.tryon });
        assert.equal(refused.status, 422);
        const error = await errorOf(refused);
        assert.equal(error.code, 'outfit_too_long');
        assert.match(error.message, /at most 2 pieces/);
      } finally {
        await small.close();
      }
    });
  });
});
