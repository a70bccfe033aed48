// The demo shop's try-on catalog as the proxy gets it: catalog.json (each colour a variant, with
// its own picture) with each product's and variant's display name filled in from the shop's own data, and its garment and model pictures drawn into a cache
// folder (they are drawn, not checked in). Used by `npm start` (demo/start.ts) and demo/proxy.ts.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CatalogFile } from '../../proxy/catalog/catalog.js';
import { drawShopImages } from './images.js';
import { products } from './products.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Where the shop's pictures are drawn; the catalog's image paths are relative to it. */
export const SHOP_IMAGES_DIR = join(root, '.cache/demo-shop/images');

export async function loadShopCatalog(): Promise<CatalogFile> {
  const catalog = JSON.parse(await readFile(join(root, 'demo/shop/catalog.json'), 'utf8')) as CatalogFile;
  for (const product of products) {
    const entry = catalog.products[product.id];
    if (!entry) continue;
    entry.name ??= product.name;
    for (const colour of product.colours) {
      const variant = entry.variants?.[colour.id];
      if (variant) variant.name ||= colour.name;
    }
  }
  return catalog;
}

/** Draws the pictures (skipped when unchanged since the last run) and reads the catalog. */
export async function prepareShopCatalog(): Promise<{ catalog: CatalogFile; imagesDir: string }> {
  const [, catalog] = await Promise.all([drawShopImages(SHOP_IMAGES_DIR), loadShopCatalog()]);
  return { catalog, imagesDir: SHOP_IMAGES_DIR };
}
