// The catalog the outfit tests share: the stack's catalog with a lehenga and a four-view saree that
// list a dupatta and a stole (put on the front view only), a stole that lists the dupatta, and a dress whose only piece is switched off; and the
// pieces' pictures, one colour each.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { CATALOG } from './stack.js';
import type { CatalogFile } from '../../proxy/catalog/catalog.js';

export const OUTFIT_CATALOG: CatalogFile = {
  ...CATALOG,
  products: {
    ...CATALOG.products,
    'lehenga-emerald': { ...CATALOG.products['lehenga-emerald']!, pairsWith: ['dupatta-gota', 'stole-zari'] },
    // Four views: a dupatta follows them, the stole (front only) does not.
    'saree-banarasi-red': { ...CATALOG.products['saree-banarasi-red']!, pairsWith: ['dupatta-gota', 'stole-zari'] },
    'dress-aline-indigo': { ...CATALOG.products['dress-aline-indigo']!, pairsWith: ['jacket-off'] },
    'dupatta-gota': {
      mode: 'garment_to_person',
      garmentImage: 'garments/dupatta-rose.png',
      garment: { category: 'dupatta' },
      name: 'Rose gota dupatta',
      // Above the draft tier: each piece of it gets a first look beside it.
      tier: 'standard',
      variants: {
        rose: { name: 'Rose' },
        saffron: { name: 'Saffron', garmentImage: 'garments/dupatta-saffron.png' },
      },
    },
    'stole-zari': {
      mode: 'garment_to_person',
      garmentImage: 'garments/stole-maroon.png',
      garment: { category: 'stole' },
      pairsWith: ['dupatta-gota'],
      layering: 'front',
    },
    // Switched off: never listed among the dress's pairs.
    'jacket-off': {
      mode: 'garment_to_person',
      garmentImage: 'garments/stole-maroon.png',
      garment: { category: 'jacket' },
      enabled: false,
    },
  },
};

const cloth = (r: number, g: number, b: number) =>
  sharp({ create: { width: 300, height: 400, channels: 4, background: { r, g, b, alpha: 1 } } })
    .png()
    .toBuffer();

export async function writePieces(dir: string): Promise<void> {
  await writeFile(join(dir, 'garments/dupatta-rose.png'), await cloth(220, 70, 130));
  await writeFile(join(dir, 'garments/dupatta-saffron.png'), await cloth(232, 137, 28));
  await writeFile(join(dir, 'garments/stole-maroon.png'), await cloth(122, 31, 43));
}
