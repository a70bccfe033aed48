// Whether a product needs the whole body in the shopper's photo (catalog `fullBody`, else by the
// garment's category), and GET /products telling the widget, through the real proxy and sandbox.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CatalogError, parseCatalog, productFinder, type CatalogFile } from '../../proxy/catalog/catalog.js';
import { CATALOG, startStack, type Stack } from './stack.js';

const catalog: CatalogFile = {
  ...CATALOG,
  products: {
    ...CATALOG.products,
    // A saree the merchant shoots from the waist up: no whole body asked.
    'saree-blouse-only': {
      mode: 'garment_to_person',
      garmentImage: 'garments/banarasi-red.png',
      garment: { category: 'saree' },
      fullBody: false,
    },
    'kurta-cotton': {
      mode: 'garment_to_person',
      garmentImage: 'garments/dress-indigo.png',
      garment: { category: 'kurta' },
    },
    'kurta-long': {
      mode: 'garment_to_person',
      garmentImage: 'garments/dress-indigo.png',
      garment: { category: 'kurta' },
      fullBody: true,
    },
  },
};

describe('catalog fullBody', () => {
  it('defaults by category: sarees, lehengas, sherwanis and dresses need the whole body', () => {
    const products = parseCatalog(catalog);
    const needs = (id: string) => products.get(id)!.fullBody;
    assert.equal(needs('saree-banarasi-red'), true);
    assert.equal(needs('lehenga-emerald'), true);
    assert.equal(needs('dress-aline-indigo'), true);
    assert.equal(needs('kurta-cotton'), false);
  });

  it('the product wins over the category, the defaults over the category', () => {
    assert.equal(parseCatalog(catalog).get('saree-blouse-only')!.fullBody, false);
    assert.equal(parseCatalog(catalog).get('kurta-long')!.fullBody, true);
    const withDefaults = parseCatalog({
      defaults: { fullBody: true },
      products: { k: { mode: 'garment_to_person', garmentImage: 'g.png', garment: { category: 'kurta' } } },
    });
    assert.equal(withDefaults.get('k')!.fullBody, true);
    const sherwani = parseCatalog({
      defaults: { fullBody: false },
      products: { s: { mode: 'garment_to_person', garmentImage: 'g.png', garment: { category: 'Sherwani' } } },
    });
    assert.equal(sherwani.get('s')!.fullBody, false);
  });

  it('refuses a fullBody that is not true or false, naming the product', () => {
    assert.throws(
      () =>
        parseCatalog({
          products: {
            s: { mode: 'garment_to_person', garmentImage: 'g.png', garment: { category: 'saree' }, fullBody: 'yes' },
          },
        }),
      (error: unknown) => error instanceof CatalogError && /product "s": field fullBody/.test(error.message),
    );
  });

  it("a shop's lookup function gets the category's default when it says nothing", async () => {
    const find = productFinder(async (id) => ({
      id,
      mode: 'garment_to_person',
      garmentImage: 'g.png',
      garment: { category: id },
      views: ['front'],
      tier: 'draft',
      background: 'studio_white',
      provider: 'auto',
    }));
    assert.equal((await find('sherwani'))!.fullBody, true);
    assert.equal((await find('kurta'))!.fullBody, false);
  });
});

describe('GET /products/{id} fullBody', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack({ proxy: { catalog } });
  });
  after(() => stack.close());

  for (const [id, expected] of [
    ['saree-banarasi-red', true],
    ['saree-blouse-only', false],
    ['kurta-cotton', false],
    ['kurta-long', true],
  ] as const) {
    it(`${id}: ${expected}`, async () => {
      const response = await fetch(`${stack.url}/products/${id}`, { headers: { origin: 'https://shop.example' } });
      assert.equal(response.status, 200);
      assert.equal(((await response.json()) as { fullBody: unknown }).fullBody, expected);
    });
  }
});
