// "See it on a model": the catalog's models, served and listed by GET /products, tried on by
// POST /tryons with `model` instead of `photo` (no consent: the picture is the shop's), each
// model's picture uploaded upstream once (once for the cluster on a shared store), and the
// compliance line saying it was a model. Real proxy, real sandbox, real stores.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import {
  CATALOG,
  personPhoto,
  photoHandle,
  startStack,
  startTryon,
  waitForStatus,
  type Stack,
  type TryonAnswer,
  useStack,
} from './stack.js';
import { SHARED_STORE_KINDS, sharedStores } from './stores.js';
import { parseCatalog, type CatalogFile } from '../../proxy/catalog/catalog.js';

const WITH_MODELS: CatalogFile = {
  ...CATALOG,
  models: {
    asha: { name: 'Asha', image: 'models/asha.jpg' },
    ravi: { name: 'Ravi', image: 'models/ravi.png' },
  },
  products: {
    ...CATALOG.products,
    // Narrowed to one model; the other products offer every model.
    'lehenga-emerald': { ...CATALOG.products['lehenga-emerald']!, models: ['asha'] },
  },
};

async function writeModels(dir: string): Promise<void> {
  await writeFile(join(dir, 'models/asha.jpg'), await personPhoto(400, 640));
  await writeFile(join(dir, 'models/ravi.png'), await personPhoto(420, 640, 'png'));
}

const uploads = (stack: Stack) => stack.upstreamCalls.filter((call) => call === 'POST /v1/files').length;
const codeOf = async (response: Response) => ((await response.json()) as { error: { code: string } }).error.code;

describe('see it on a model', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack({ proxy: { catalog: WITH_MODELS } });
    await writeModels(stack.assetsDir);
  });
  after(async () => {
    await stack.close();
  });

  it('GET /products lists the product’s models with a picture the proxy serves; [] when none', async () => {
    const dress = (await (await fetch(`${stack.url}/products/dress-aline-indigo`)).json()) as {
      models: { id: string; name: string; image: string }[];
    };
    assert.deepEqual(
      dress.models.map((m) => [m.id, m.name]),
      [
        ['asha', 'Asha'],
        ['ravi', 'Ravi'],
      ],
    );
    assert.equal(dress.models[0]!.image, '/products/dress-aline-indigo/models/asha');
    const picture = await fetch(new URL(dress.models[1]!.image, stack.url));
    assert.equal(picture.status, 200);
    assert.equal(picture.headers.get('content-type'), 'image/png');
    assert.equal((await sharp(Buffer.from(await picture.arrayBuffer())).metadata()).width, 420);
    const lehenga = (await (await fetch(`${stack.url}/products/lehenga-emerald`)).json()) as {
      models: { id: string }[];
    };
    assert.deepEqual(
      lehenga.models.map((m) => m.id),
      ['asha'],
    );
    // A model the product does not list is not served for it.
    const narrowed = await fetch(`${stack.url}/products/lehenga-emerald/models/ravi`);
    assert.equal(narrowed.status, 404);
    assert.equal(await codeOf(narrowed), 'unknown_model');
  });

  it('a model try-on needs no consent, uploads the model once, and is recorded as a model try-on', async () => {
    const before = uploads(stack);
    const first = await fetch(`${stack.url}/tryons`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ product: 'dress-aline-indigo', model: 'asha', requestId: 'model-try-0001' }),
    });
    assert.equal(first.status, 202, await first.clone().text());
    const started = (await first.json()) as TryonAnswer;
    const done = await waitForStatus(stack, started.tryon, (s) => s.status === 'succeeded');
    assert.equal(done.outputs.length, 1);
    // The garment and the model: two uploads; a second model try-on uploads nothing more.
    const second = await startTryon(stack, { product: 'dress-aline-indigo', model: 'asha', consent: undefined });
    assert.equal(second.status, 202);
    assert.equal(uploads(stack) - before, 2);
    const line = stack.logs.filter((entry) => entry.event === 'consent').at(-1)!;
    assert.equal(line.source, 'model');
    assert.equal(line.model, 'asha');
    assert.equal(line.consentVersion, null);
  });

  it('an unknown or unlisted model is 422 unknown_model; photo and model together, or neither, are refused', async () => {
    const unlisted = await startTryon(stack, { product: 'lehenga-emerald', model: 'ravi' });
    assert.equal(unlisted.status, 422);
    assert.equal(await codeOf(unlisted), 'unknown_model');
    const madeUp = await startTryon(stack, { product: 'dress-aline-indigo', model: 'nobody' });
    assert.equal(await codeOf(madeUp), 'unknown_model');
    const both = await startTryon(stack, {
      product: 'dress-aline-indigo',
      model: 'asha',
      photo: await photoHandle(stack),
    });
    assert.equal(both.status, 422);
    assert.equal(await codeOf(both), 'validation_failed');
    const neither = await startTryon(stack, { product: 'dress-aline-indigo' });
    assert.equal(await codeOf(neither), 'validation_failed');
    // A photo try-on still asks for consent.
    const noConsent = await startTryon(stack, {
      product: 'dress-aline-indigo',
      photo: await photoHandle(stack),
      consent: false,
    });
    assert.equal(await codeOf(noConsent), 'consent_required');
  });

  it('a catalog naming a model it does not have is refused at start, naming product and model', async () => {
    assert.throws(
      () =>
        parseCatalog({
          ...WITH_MODELS,
          products: { x: { ...CATALOG.products['dress-aline-indigo']!, models: ['zara'] } },
        }),
      /product "x": field models: model "zara" is not in the catalog's models/,
    );
  });
});

for (const kind of SHARED_STORE_KINDS) {
  describe(`a model's picture is uploaded once for the cluster (${kind})`, () => {
    it('two instances racing first model try-ons upload it once', async (t) => {
      const [storeA, storeB] = await sharedStores(kind, 2);
      const a = await useStack(t, { proxy: { catalog: WITH_MODELS, store: storeA! } });
      const b = await useStack(t, {
        proxy: { catalog: WITH_MODELS, store: storeB!, baseUrl: a.sandboxUrl, assetsDir: a.assetsDir },
      });
      await writeModels(a.assetsDir);
      const answers = await Promise.all(
        [a, b, a, b].map((stack) => startTryon(stack, { product: 'dress-aline-indigo', model: 'ravi' })),
      );
      assert.deepEqual(
        answers.map((r) => r.status),
        [202, 202, 202, 202],
      );
      const modelUploads = [...a.logs, ...b.logs].filter(
        (entry) => entry.event === 'catalog_image_uploaded' && entry.path === 'models/ravi.png',
      );
      assert.equal(modelUploads.length, 1);
    });
  });
}
