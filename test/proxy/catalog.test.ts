import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CatalogError, parseCatalog, productFinder, type ProductEntry } from '../../proxy/catalog/catalog.js';

function catalogProblems(input: unknown): string[] {
  try {
    parseCatalog(input);
  } catch (error) {
    assert.ok(error instanceof CatalogError);
    return error.problems;
  }
  assert.fail('catalog was accepted');
}

describe('catalog', () => {
  it('fills in defaults (file defaults first, then built-in ones)', () => {
    const products = parseCatalog({
      defaults: { tier: 'premium', background: 'haveli_warm' },
      products: {
        'dress-a': {
          mode: 'garment_to_person',
          garmentImage: 'g.png',
          garment: { category: 'dress', subtype: 'a-line' },
        },
      },
    });
    const dress = products.get('dress-a')!;
    assert.equal(dress.tier, 'premium');
    assert.equal(dress.background, 'haveli_warm');
    assert.deepEqual(dress.views, ['front']);
    assert.equal(dress.provider, 'auto');
    assert.equal(dress.video, undefined);
  });

  it('names the product and the field of every problem', () => {
    const found = catalogProblems({
      products: {
        'saree-red': { mode: 'garment_to_person', garment: { category: 'saree' }, views: ['front', 'top'] },
        'lehenga-green': { mode: 'person_to_person', garment: { category: 'lehenga' }, tier: 'gold' },
        'suit-blue': { mode: 'painting', garmentImage: 'x.png', garment: {} },
      },
    });
    const text = found.join('\n');
    assert.match(text, /product "saree-red": field garmentImage/);
    assert.match(text, /product "saree-red": field views\.1/);
    assert.match(text, /product "lehenga-green": field referencePersonImage/);
    assert.match(text, /product "lehenga-green": field tier/);
    assert.match(text, /product "suit-blue": field mode/);
    assert.match(text, /product "suit-blue": field garment\.category/);
  });

  it('refuses video on a person_to_person product and unknown fields', () => {
    const found = catalogProblems({
      products: {
        p: {
          mode: 'person_to_person',
          referencePersonImage: 'r.jpg',
          garment: { category: 'lehenga' },
          video: true,
          colour: 'red',
        },
      },
    });
    assert.ok(found.some((p) => p.includes('field video')));
    assert.ok(found.some((p) => p.includes('colour')));
  });

  it('accepts a lookup function and checks what it returns', async () => {
    const find = productFinder(async (id): Promise<ProductEntry | undefined> =>
      id === 'ok'
        ? {
            id,
            mode: 'garment_to_person',
            garmentImage: 'g.png',
            garment: { category: 'dress' },
            views: ['front', 'back'],
            tier: 'draft',
            background: 'studio_white',
            provider: 'auto',
          }
        : id === 'broken'
          ? ({ id, mode: 'garment_to_person', garment: { category: 'dress' } } as unknown as ProductEntry)
          : undefined,
    );
    assert.deepEqual((await find('ok'))?.views, ['front', 'back']);
    assert.equal(await find('missing'), undefined);
    assert.equal(await find('../etc'), undefined);
    await assert.rejects(
      find('broken'),
      (error: unknown) => error instanceof CatalogError && /garmentImage/.test(error.message),
    );
  });
});

describe('catalog prices', () => {
  it('reads a price table from the defaults, and refuses a malformed one naming the field', async () => {
    const { catalogPrices, parseCatalog, CatalogError } = await import('../../proxy/catalog/catalog.js');
    const products = {
      p: { mode: 'garment_to_person', garmentImage: 'g.png', garment: { category: 'dress' } },
    } as const;
    assert.deepEqual(catalogPrices({ defaults: { prices: { image: { premium: 6 } } }, products }), {
      image: { premium: 6 },
    });
    assert.equal(catalogPrices({ products }), undefined);
    assert.equal(
      catalogPrices(() => undefined),
      undefined,
    );
    assert.throws(
      () => parseCatalog({ defaults: { prices: { image: { premium: -1 } } }, products }),
      (error: unknown) =>
        error instanceof CatalogError && error.problems.some((p) => p.includes('defaults.prices.image.premium')),
    );
  });
});

describe('catalog variants', () => {
  const saree = (variants: unknown, mode = 'garment_to_person') => ({
    products: {
      saree:
        mode === 'garment_to_person'
          ? { mode, garmentImage: 'ivory.png', garment: { category: 'saree', subtype: 'bengali' }, variants }
          : { mode, referencePersonImage: 'model.jpg', garment: { category: 'lehenga' }, variants },
    },
  });

  it("overrides the product's picture per variant and merges its garment over the product's", async () => {
    const { productAsVariant, variantList } = await import('../../proxy/catalog/catalog.js');
    const product = parseCatalog(
      saree({ red: { name: 'Red', garmentImage: 'red.png' }, nivi: { name: 'Nivi', garment: { subtype: 'nivi' } } }),
    ).get('saree')!;
    assert.deepEqual(variantList(product), [
      { id: 'red', name: 'Red' },
      { id: 'nivi', name: 'Nivi' },
    ]);
    const red = productAsVariant(product, 'red')!;
    assert.equal(red.garmentImage, 'red.png');
    assert.equal(red.variant, 'red');
    assert.deepEqual(red.garment, { category: 'saree', subtype: 'bengali' });
    const nivi = productAsVariant(product, 'nivi')!;
    assert.equal(nivi.garmentImage, 'ivory.png');
    assert.deepEqual(nivi.garment, { category: 'saree', subtype: 'nivi' });
    assert.equal(productAsVariant(product, undefined), product);
    for (const unknown of ['green', 'toString', '__proto__', '../red', ''])
      assert.equal(productAsVariant(product, unknown), undefined, unknown);
    // The catalog's entry is not changed by a variant's try-on.
    assert.equal(product.garmentImage, 'ivory.png');
    assert.deepEqual(product.garment, { category: 'saree', subtype: 'bengali' });
  });

  it('names the product, the variant and the field of every variant problem', () => {
    const found = catalogProblems(
      saree({
        'sindoor red': { name: 'Sindoor red' },
        ['x'.repeat(65)]: { name: 'Long' },
        nameless: { garmentImage: 'n.png' },
        coloured: { name: 'Coloured', colour: '#c0392b' },
        model: { name: 'Model', referencePersonImage: 'm.jpg' },
        empty: { name: 'Empty', garment: { subtype: '' } },
      }),
    ).join('\n');
    assert.match(found, /product "saree": variant "sindoor red": id: variant ids use letters, digits, - and _/);
    assert.match(found, /product "saree": variant "x{65}": id: variant ids/);
    assert.match(found, /product "saree": variant "nameless": field name/);
    assert.match(found, /product "saree": variant "coloured": .*colour/);
    assert.match(found, /product "saree": variant "model": field referencePersonImage: is for mode person_to_person/);
    assert.match(found, /product "saree": variant "empty": field garment\.subtype/);
    const person = catalogProblems(saree({ red: { name: 'Red', garmentImage: 'red.png' } }, 'person_to_person')).join(
      '\n',
    );
    assert.match(person, /product "saree": variant "red": field garmentImage: is for mode garment_to_person/);
  });

  it('checks the variants a lookup function returns', async () => {
    const find = productFinder(async (id): Promise<ProductEntry | undefined> => ({
      id,
      mode: 'garment_to_person',
      garmentImage: 'g.png',
      garment: { category: 'dress' },
      views: ['front'],
      tier: 'draft',
      background: 'studio_white',
      provider: 'auto',
      variants: { 'bad id': { name: 'Bad' } },
    }));
    await assert.rejects(
      find('dress'),
      (error: unknown) => error instanceof CatalogError && /product "dress": variant "bad id": id/.test(error.message),
    );
  });

  it("reports a variant's missing picture at start, naming product and variant", async () => {
    const { mkdtemp, writeFile, rm } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { missingCatalogImages } = await import('../../proxy/node.js');
    const dir = await mkdtemp(join(tmpdir(), 'tryon-catalog-'));
    try {
      await writeFile(join(dir, 'ivory.png'), 'x');
      await writeFile(join(dir, 'red.png'), 'x');
      const missing = await missingCatalogImages(
        saree({
          red: { name: 'Red', garmentImage: 'red.png' },
          green: { name: 'Green', garmentImage: 'green.png' },
          nivi: { name: 'Nivi' },
        }),
        dir,
      );
      assert.deepEqual(missing, [
        `product "saree": variant "green": garmentImage ${join(dir, 'green.png')} does not exist`,
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('catalog: first look and colour previews', () => {
  const dress = (over: Record<string, unknown> = {}) => ({
    mode: 'garment_to_person',
    garmentImage: 'g.png',
    garment: { category: 'dress' },
    ...over,
  });

  it('has a first look above the draft tier by default; the product wins over the defaults', () => {
    const products = parseCatalog({
      defaults: { tier: 'standard' },
      products: {
        standard: dress(),
        premium: dress({ tier: 'premium' }),
        draft: dress({ tier: 'draft' }),
        off: dress({ preview: 'off' }),
        draftOn: dress({ tier: 'draft', preview: 'draft' }),
      },
    });
    assert.deepEqual(
      ['standard', 'premium', 'draft', 'off', 'draftOn'].map((id) => products.get(id)!.preview),
      ['draft', 'draft', 'off', 'off', 'draft'],
    );
    const offByDefault = parseCatalog({
      defaults: { preview: 'off' },
      products: { a: dress(), b: dress({ preview: 'draft' }) },
    });
    assert.deepEqual([offByDefault.get('a')!.preview, offByDefault.get('b')!.preview], ['off', 'draft']);
  });

  it('counts colour previews per photo: true is 6, {max} its number, off by default; the product wins', () => {
    const products = parseCatalog({
      defaults: { colourPreviews: true },
      products: { a: dress(), b: dress({ colourPreviews: { max: 3 } }), c: dress({ colourPreviews: false }) },
    });
    assert.deepEqual(
      ['a', 'b', 'c'].map((id) => products.get(id)!.colourPreviews),
      [6, 3, 0],
    );
    assert.equal(parseCatalog({ products: { a: dress() } }).get('a')!.colourPreviews, 0);
  });

  it('refuses a bad preview or colourPreviews, naming product and field', () => {
    const problems = catalogProblems({ products: { a: dress({ preview: 'fast', colourPreviews: { max: 13 } }) } });
    assert.ok(
      problems.some((p) => p.startsWith('product "a": field preview')),
      problems.join('\n'),
    );
    assert.ok(
      problems.some((p) => p.startsWith('product "a": field colourPreviews')),
      problems.join('\n'),
    );
    assert.ok(
      catalogProblems({ defaults: { colourPreviews: { max: 0 } }, products: { a: dress() } }).some((p) =>
        p.startsWith('defaults.colourPreviews'),
      ),
    );
  });

  it('takes a lookup function’s colour previews as a number', async () => {
    const find = productFinder(async (id): Promise<ProductEntry | undefined> => ({
      id,
      mode: 'garment_to_person',
      garmentImage: 'g.png',
      garment: { category: 'dress' },
      views: ['front'],
      tier: 'premium',
      background: 'studio_white',
      provider: 'auto',
      colourPreviews: id === 'none' ? 0 : 4,
    }));
    assert.equal((await find('four'))!.colourPreviews, 4);
    assert.equal((await find('four'))!.preview, 'draft');
    assert.equal((await find('none'))!.colourPreviews, 0);
  });
});

describe('catalog: fidelity', () => {
  const dress = (over: Record<string, unknown> = {}) => ({
    mode: 'garment_to_person',
    garmentImage: 'g.png',
    garment: { category: 'dress' },
    ...over,
  });

  it('checks every result and labels a differing one by default; the product’s fields win over the defaults’', () => {
    const products = parseCatalog({
      defaults: { fidelity: { onDiffers: 'rerender', rerenderProvider: 'catvton' } },
      products: {
        plain: dress(),
        off: dress({ fidelity: { check: false } }),
        label: dress({ fidelity: { onDiffers: 'label' } }),
      },
    });
    assert.deepEqual(products.get('plain')!.fidelity, {
      check: true,
      onDiffers: 'rerender',
      rerenderProvider: 'catvton',
    });
    assert.deepEqual(products.get('off')!.fidelity, {
      check: false,
      onDiffers: 'rerender',
      rerenderProvider: 'catvton',
    });
    assert.equal(products.get('label')!.fidelity!.onDiffers, 'label');
    assert.deepEqual(parseCatalog({ products: { a: dress() } }).get('a')!.fidelity, {
      check: true,
      onDiffers: 'label',
    });
  });

  it('refuses a bad fidelity value, naming product and field', () => {
    const problems = catalogProblems({
      products: {
        a: dress({ fidelity: { check: 'yes' } }),
        b: dress({ fidelity: { onDiffers: 'retry' } }),
        c: dress({ fidelity: { checks: true } }),
      },
    });
    assert.ok(
      problems.some((p) => p === 'product "a": field fidelity.check: must be true or false'),
      problems.join('\n'),
    );
    assert.ok(
      problems.some((p) => p === 'product "b": field fidelity.onDiffers: must be "label" or "rerender"'),
      problems.join('\n'),
    );
    assert.ok(
      problems.some((p) => p.startsWith('product "c": field fidelity')),
      problems.join('\n'),
    );
    assert.ok(
      catalogProblems({ defaults: { fidelity: { rerenderProvider: '' } }, products: { a: dress() } }).some((p) =>
        p.startsWith('defaults.fidelity.rerenderProvider'),
      ),
    );
  });

  it('takes a lookup function’s fidelity, and fills in a missing one', async () => {
    const find = productFinder(async (id): Promise<ProductEntry | undefined> => ({
      id,
      mode: 'garment_to_person',
      garmentImage: 'g.png',
      garment: { category: 'dress' },
      views: ['front'],
      tier: 'standard',
      background: 'studio_white',
      provider: 'auto',
      ...(id === 'off' ? { fidelity: { check: false, onDiffers: 'label' as const } } : {}),
    }));
    assert.equal((await find('off'))!.fidelity!.check, false);
    assert.deepEqual((await find('plain'))!.fidelity, { check: true, onDiffers: 'label' });
  });
});
