// Product variants end to end: the real proxy against the real sandbox over loopback. What is
// checked is what reaches upstream (the garment file id in the try-on body, read back from the
// sandbox as bytes), what the shopper gets back (the output's colour in the garment region), and
// what it costs (idempotency per variant on a charged key), on both stores.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import type { CatalogFile, ProductEntry } from '../../proxy/catalog/catalog.js';
import { HandleSigner } from '../../proxy/security/handles.js';
import {
  CATALOG,
  SECRET,
  absolute,
  newRequestId,
  personPhoto,
  photoHandle,
  startTryon,
  waitForStatus,
  type Stack,
  type StatusAnswer,
  type TryonAnswer,
} from './stack.js';
import { STORE_KINDS, stackOn } from './stores.js';
import { colourDistance, torsoColour as torsoColourOf, type Colour } from './garment-colour.js';

const IVORY = { r: 244, g: 236, b: 216 };
const SINDOOR = { r: 192, g: 57, b: 43 };
const EMERALD = { r: 11, g: 107, b: 58 };

const VARIANT_CATALOG: CatalogFile = {
  defaults: { tier: 'draft', views: ['front'] },
  products: {
    ...CATALOG.products,
    'saree-bengali': {
      mode: 'garment_to_person',
      garmentImage: 'garments/bengali-ivory.png',
      garment: { category: 'saree', subtype: 'bengali' },
      name: 'Garad silk saree',
      variants: {
        'sindoor-red': { name: 'Sindoor red', garmentImage: 'garments/bengali-sindoor.png' },
        // A Shopify-style numeric id; same picture as the product, another drape.
        '44871234567890': { name: 'Ivory, nivi drape', garment: { subtype: 'nivi' } },
      },
    },
    'lehenga-bridal': {
      mode: 'person_to_person',
      referencePersonImage: 'models/lehenga-emerald.jpg',
      garment: { category: 'lehenga' },
      variants: { 'emerald-green': { name: 'Emerald', referencePersonImage: 'models/lehenga-green-model.png' } },
    },
  },
};

const solid = (color: { r: number; g: number; b: number }) =>
  sharp({ create: { width: 300, height: 400, channels: 4, background: { ...color, alpha: 1 } } })
    .png()
    .toBuffer();

/** A stack on the variant catalog, recording every try-on body the proxy sends upstream. */
async function variantStack(
  kind: (typeof STORE_KINDS)[number],
  options: { apiKey?: string; catalog?: CatalogFile | ((id: string) => ProductEntry | undefined) } = {},
) {
  const submitted: Record<string, unknown>[] = [];
  const fileUploads: string[] = [];
  const recording: typeof fetch = async (input, init) => {
    const path = new URL(String(input)).pathname;
    if (init?.method === 'POST' && path.endsWith('/tryon') && typeof init.body === 'string')
      submitted.push(JSON.parse(init.body) as Record<string, unknown>);
    const response = await fetch(input, init);
    if (init?.method === 'POST' && path === '/v1/files' && response.ok)
      fileUploads.push(((await response.clone().json()) as { id: string }).id);
    return response;
  };
  const stack = await stackOn(kind, {
    ...(options.apiKey ? { apiKey: options.apiKey } : {}),
    proxy: { catalog: options.catalog ?? VARIANT_CATALOG, fetch: recording },
  });
  // Catalog images are read on first use, so the variants' pictures can join the stack's folder now.
  await writeFile(join(stack.assetsDir, 'garments/bengali-ivory.png'), await solid(IVORY));
  await writeFile(join(stack.assetsDir, 'garments/bengali-sindoor.png'), await solid(SINDOOR));
  await writeFile(join(stack.assetsDir, 'models/lehenga-green-model.png'), await solid(EMERALD));
  return { stack, submitted, fileUploads };
}

/** The bytes of an upstream file, read back from the sandbox with the key the proxy used. */
async function upstreamFile(stack: Stack, fileId: string, apiKey = 'sk_test_a'): Promise<Buffer> {
  const response = await fetch(`${stack.sandboxUrl}/v1/files/${fileId}/content`, {
    headers: { authorization: `Bearer ${apiKey}` },
  });
  assert.equal(response.status, 200, `sandbox has file ${fileId}`);
  return Buffer.from(await response.arrayBuffer());
}

/** Mean torso colour of a try-on's front output. */
async function torsoColour(stack: Stack, status: StatusAnswer): Promise<Colour> {
  const output = status.outputs.find((o) => o.view === 'front');
  assert.ok(output, 'a front output');
  return torsoColourOf(new Uint8Array(await (await fetch(absolute(stack, output.url))).arrayBuffer()));
}

async function tryonOf(stack: Stack, body: Record<string, unknown>): Promise<TryonAnswer> {
  const response = await startTryon(stack, body);
  assert.equal(response.status, 202, await response.clone().text());
  return (await response.json()) as TryonAnswer;
}

const jobOf = async (answer: TryonAnswer) => (await new HandleSigner(SECRET).open('tryon', answer.tryon)).jobId;

describe('variants in GET /products', () => {
  let stack: Stack;
  before(async () => {
    ({ stack } = await variantStack('memory'));
  });
  after(async () => {
    await stack.close();
  });

  it("lists a product's variants as [{id, name, swatch}] in catalog order, and [] for a product without", async () => {
    const saree = (await (await fetch(`${stack.url}/products/saree-bengali`)).json()) as {
      variants: unknown;
      garment: unknown;
      swatch: string;
    };
    assert.deepEqual(saree.variants, [
      { id: 'sindoor-red', name: 'Sindoor red', swatch: '/products/saree-bengali/image?variant=sindoor-red' },
      {
        id: '44871234567890',
        name: 'Ivory, nivi drape',
        swatch: '/products/saree-bengali/image?variant=44871234567890',
      },
    ]);
    assert.equal(saree.swatch, '/products/saree-bengali/image');
    // Each swatch is that variant's own garment image (a variant without one shows the product's).
    const swatch = async (path: string) => Buffer.from(await (await fetch(new URL(path, stack.url))).arrayBuffer());
    const assets = (file: string) => readFile(join(stack.assetsDir, file));
    assert.ok((await swatch(saree.swatch)).equals(await assets('garments/bengali-ivory.png')));
    assert.ok(
      (await swatch('/products/saree-bengali/image?variant=sindoor-red')).equals(
        await assets('garments/bengali-sindoor.png'),
      ),
    );
    const unknown = await fetch(new URL('/products/saree-bengali/image?variant=emerald', stack.url));
    assert.equal(unknown.status, 404);
    assert.equal(((await unknown.json()) as { error: { code: string } }).error.code, 'unknown_variant');
    // The product's own garment, not a variant's.
    assert.deepEqual(saree.garment, { category: 'saree', subtype: 'bengali' });
    const dress = (await (await fetch(`${stack.url}/products/dress-aline-indigo`)).json()) as { variants: unknown };
    assert.deepEqual(dress.variants, []);
  });
});

for (const kind of STORE_KINDS)
  describe(`variants in POST /tryons (${kind} store)`, () => {
    let stack: Stack;
    let submitted: Record<string, unknown>[];
    let fileUploads: string[];
    before(async () => {
      ({ stack, submitted, fileUploads } = await variantStack(kind));
    });
    after(async () => {
      await stack.close();
    });

    it("sends the variant's garment upstream, the product's own without one, and uploads each picture once", async () => {
      const photo = await photoHandle(stack);
      const submit = async (variant?: string) => {
        const before = submitted.length;
        await tryonOf(stack, { product: 'saree-bengali', photo, ...(variant === undefined ? {} : { variant }) });
        assert.equal(submitted.length, before + 1, 'one try-on sent upstream');
        return submitted.at(-1)!;
      };
      const red = await submit('sindoor-red');
      const own = await submit();
      const nivi = await submit('44871234567890');
      const redAgain = await submit('sindoor-red');

      const redFile = await upstreamFile(stack, String(red.garment_image));
      const ownFile = await upstreamFile(stack, String(own.garment_image));
      assert.ok(
        redFile.equals(await readFile(join(stack.assetsDir, 'garments/bengali-sindoor.png'))),
        "the red variant's picture went upstream",
      );
      assert.ok(
        ownFile.equals(await readFile(join(stack.assetsDir, 'garments/bengali-ivory.png'))),
        "no variant: the product's own picture",
      );
      assert.deepEqual(red.garment, { category: 'saree', subtype: 'bengali' });
      // A variant that only changes the garment keeps the product's picture and merges its garment.
      assert.equal(nivi.garment_image, own.garment_image);
      assert.deepEqual(nivi.garment, { category: 'saree', subtype: 'nivi' });
      // Each picture is uploaded once and remembered under its own path.
      assert.equal(redAgain.garment_image, red.garment_image);
      const garmentUploads = fileUploads.filter((id) => id === red.garment_image || id === own.garment_image);
      assert.deepEqual(garmentUploads.sort(), [String(red.garment_image), String(own.garment_image)].sort());
    });

    it("uses a person_to_person variant's reference person", async () => {
      await tryonOf(stack, { product: 'lehenga-bridal', photo: await photoHandle(stack), variant: 'emerald-green' });
      const body = submitted.at(-1)!;
      assert.equal(body.mode, 'person_to_person');
      const file = await upstreamFile(stack, String(body.reference_person_image));
      assert.ok(file.equals(await readFile(join(stack.assetsDir, 'models/lehenga-green-model.png'))));
    });

    it('refuses a variant the product does not have with 422 unknown_variant, before anything is sent or spent', async () => {
      const photo = await photoHandle(stack);
      const before = submitted.length;
      const requestsBefore = (await stack.state()).requests['POST /v1/images/tryon'] ?? 0;
      for (const [product, variant] of [
        ['saree-bengali', 'emerald'],
        ['saree-bengali', '../sindoor-red'],
        ['saree-bengali', 'Sindoor-Red'],
        ['dress-aline-indigo', 'sindoor-red'],
      ] as const) {
        const response = await startTryon(stack, { product, photo, variant });
        assert.equal(response.status, 422, `${product} / ${variant}`);
        const body = (await response.json()) as { error: { code: string; message: string; retryable: boolean } };
        assert.equal(body.error.code, 'unknown_variant');
        assert.equal(body.error.retryable, false);
        assert.ok(body.error.message.length > 0);
        assert.deepEqual(Object.keys(body.error).sort(), ['code', 'message', 'retryable']);
      }
      // Not a string, or longer than any variant id: the request itself is malformed.
      for (const variant of [44871234567890, 'x'.repeat(65)]) {
        const response = await startTryon(stack, { product: 'saree-bengali', photo, variant });
        assert.equal(response.status, 422);
        const body = (await response.json()) as { error: { code: string; message: string } };
        assert.equal(body.error.code, 'validation_failed');
        assert.match(body.error.message, /variant/);
      }
      assert.equal(submitted.length, before);
      assert.equal((await stack.state()).requests['POST /v1/images/tryon'] ?? 0, requestsBefore);
    });

    it('gives two variants outputs of their own colours in the garment region', async () => {
      const photo = await photoHandle(stack, await personPhoto());
      const red = await tryonOf(stack, { product: 'saree-bengali', photo, variant: 'sindoor-red' });
      const ivory = await tryonOf(stack, { product: 'saree-bengali', photo });
      const done = (s: StatusAnswer) => s.status === 'succeeded' || s.status === 'failed';
      const [redStatus, ivoryStatus] = await Promise.all([
        waitForStatus(stack, red.tryon, done),
        waitForStatus(stack, ivory.tryon, done),
      ]);
      assert.equal(redStatus.status, 'succeeded');
      assert.equal(ivoryStatus.status, 'succeeded');
      const redColour = await torsoColour(stack, redStatus);
      const ivoryColour = await torsoColour(stack, ivoryStatus);
      assert.ok(
        colourDistance(redColour, SINDOOR) < colourDistance(redColour, IVORY),
        `red try-on is nearer red: ${JSON.stringify(redColour)}`,
      );
      assert.ok(
        colourDistance(ivoryColour, IVORY) < colourDistance(ivoryColour, SINDOOR),
        `ivory try-on is nearer ivory: ${JSON.stringify(ivoryColour)}`,
      );
      assert.ok(
        colourDistance(redColour, ivoryColour) > 80,
        `the two differ plainly: ${JSON.stringify({ redColour, ivoryColour })}`,
      );
    });
  });

for (const kind of STORE_KINDS)
  describe(`idempotency per variant (${kind} store, charged key)`, () => {
    let stack: Stack;
    before(async () => {
      ({ stack } = await variantStack(kind, { apiKey: 'sk_live_b' }));
    });
    after(async () => {
      await stack.close();
    });

    it('the same requestId and variant is the same try-on; another variant or none is a new one', async () => {
      const photo = await photoHandle(stack);
      const requestId = newRequestId();
      const credits = async () => (await stack.state()).workspaces.ws_1!.credits;
      const jobs = async () => (await stack.state()).workspaces.ws_1!.jobs.length;

      const first = await tryonOf(stack, { product: 'saree-bengali', photo, requestId, variant: 'sindoor-red' });
      const charged = await credits();
      const jobCount = await jobs();
      const retry = await tryonOf(stack, { product: 'saree-bengali', photo, requestId, variant: 'sindoor-red' });
      assert.equal(await jobOf(retry), await jobOf(first), 'a retry reaches the same upstream job');
      assert.equal(await credits(), charged, 'and costs nothing');
      assert.equal(await jobs(), jobCount);

      const other = await tryonOf(stack, { product: 'saree-bengali', photo, requestId, variant: '44871234567890' });
      assert.notEqual(await jobOf(other), await jobOf(first), 'another variant is another try-on');
      assert.ok((await credits()) < charged, 'and is charged');
      const afterOther = await credits();

      const none = await tryonOf(stack, { product: 'saree-bengali', photo, requestId });
      assert.notEqual(await jobOf(none), await jobOf(first));
      assert.notEqual(await jobOf(none), await jobOf(other));
      assert.ok((await credits()) < afterOther, 'no variant is yet another try-on');
      // "" is no variant: the same try-on as leaving it out.
      const empty = await tryonOf(stack, { product: 'saree-bengali', photo, requestId, variant: '' });
      assert.equal(await jobOf(empty), await jobOf(none));
    });
  });

describe("variants from a shop's own lookup function", () => {
  let stack: Stack;
  let submitted: Record<string, unknown>[];
  const lookup = (id: string): ProductEntry | undefined =>
    id === 'kurta-cotton'
      ? {
          id,
          mode: 'garment_to_person',
          garmentImage: 'garments/bengali-ivory.png',
          garment: { category: 'dress' },
          views: ['front'],
          tier: 'draft',
          background: 'studio_white',
          provider: 'auto',
          variants: { '7001': { name: 'Sindoor', garmentImage: 'garments/bengali-sindoor.png' } },
        }
      : undefined;
  before(async () => {
    ({ stack, submitted } = await variantStack('memory', { catalog: lookup }));
  });
  after(async () => {
    await stack.close();
  });

  it('lists and uses the variants it returns', async () => {
    const product = (await (await fetch(`${stack.url}/products/kurta-cotton`)).json()) as { variants: unknown };
    assert.deepEqual(product.variants, [
      { id: '7001', name: 'Sindoor', swatch: '/products/kurta-cotton/image?variant=7001' },
    ]);
    await tryonOf(stack, { product: 'kurta-cotton', photo: await photoHandle(stack), variant: '7001' });
    const file = await upstreamFile(stack, String(submitted.at(-1)!.garment_image));
    assert.ok(file.equals(await readFile(join(stack.assetsDir, 'garments/bengali-sindoor.png'))));
    const unknown = await startTryon(stack, {
      product: 'kurta-cotton',
      photo: await photoHandle(stack),
      variant: '7002',
    });
    assert.equal(unknown.status, 422);
    assert.equal(((await unknown.json()) as { error: { code: string } }).error.code, 'unknown_variant');
  });
});
