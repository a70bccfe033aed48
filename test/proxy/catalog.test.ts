import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CatalogError, parseCatalog, productFinder, type ProductEntry } from '../../proxy/catalog.js';

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
      products: { 'dress-a': { mode: 'garment_to_person', garmentImage: 'g.png', garment: { category: 'dress', subtype: 'a-line' } } },
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
    const found = catalogProblems({ products: { p: { mode: 'person_to_person', referencePersonImage: 'r.jpg', garment: { category: 'lehenga' }, video: true, colour: 'red' } } });
    assert.ok(found.some((p) => p.includes('field video')));
    assert.ok(found.some((p) => p.includes('colour')));
  });

  it('accepts a lookup function and checks what it returns', async () => {
    const find = productFinder(async (id): Promise<ProductEntry | undefined> => id === 'ok'
      ? { id, mode: 'garment_to_person', garmentImage: 'g.png', garment: { category: 'dress' }, views: ['front', 'back'], tier: 'draft', background: 'studio_white', provider: 'auto' }
      : id === 'broken' ? { id, mode: 'garment_to_person', garment: { category: 'dress' } } as unknown as ProductEntry : undefined);
    assert.deepEqual((await find('ok'))?.views, ['front', 'back']);
    assert.equal(await find('missing'), undefined);
    assert.equal(await find('../etc'), undefined);
    await assert.rejects(find('broken'), (error: unknown) => error instanceof CatalogError && /garmentImage/.test(error.message));
  });
});

describe('catalog prices', () => {
  it('reads a price table from the defaults, and refuses a malformed one naming the field', async () => {
    const { catalogPrices, parseCatalog, CatalogError } = await import('../../proxy/catalog.js');
    const products = { p: { mode: 'garment_to_person', garmentImage: 'g.png', garment: { category: 'dress' } } } as const;
    assert.deepEqual(catalogPrices({ defaults: { prices: { image: { premium: 6 } } }, products }), { image: { premium: 6 } });
    assert.equal(catalogPrices({ products }), undefined);
    assert.equal(catalogPrices(() => undefined), undefined);
    assert.throws(() => parseCatalog({ defaults: { prices: { image: { premium: -1 } } }, products }),
      (error: unknown) => error instanceof CatalogError && error.problems.some((p) => p.includes('defaults.prices.image.premium')));
  });
});
