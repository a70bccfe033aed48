// Renders the shop's drawings to the PNG and JPEG files the pages show and the proxy uploads as
// garment and reference photos. Done at start into a cache folder (never committed); skipped
// when the drawings have not changed since the last run.
import { createHash } from 'node:crypto';
import { copyFile, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import sharp from 'sharp';
import { garmentSvg, modelPhotoSvg, shopModelSvg, shopperPhotoSvg, type ShopModel } from './drawings.js';
import { FAVICON, faviconSvg, icoOf } from './favicon.js';
import { colourImage, products, type Colour, type Product } from './products.js';

/** Where the sample shopper photo lands, relative to the images folder. */
export const SHOPPER_PHOTO = 'shopper.jpg';

/**
 * The sample photo the pages offer shoppers: a real photo of one person, head to feet, facing the
 * camera on a plain ground, which the widget's photo check accepts for every product (a drawn
 * figure cannot pass a real check). Made by scripts/sample-photo.ts from OpenCV's sample
 * basketball1.png (Debian's opencv-doc; its copyright file puts OpenCV's samples/data under
 * Apache-2.0 AND BSD-3-Clause: docs/widget.md, "The photo check"). Committed beside this file and
 * copied into the images folder at start. The drawn shopper.jpg stays for the tests that upload it.
 */
export const SAMPLE_PHOTO = 'sample-person.jpg';

const FAVICON_SIZE = 32;

/**
 * The shop's models for "See it on a model": different builds and skin tones, drawn like the
 * shopper. Their pictures land at models/shop-<id>.jpg, which catalog.json's `models` names.
 */
export const SHOP_MODELS: ShopModel[] = [
  {
    id: 'asha',
    name: 'Asha',
    look: { skin: '#c68863', shade: '#a96d4c', hair: '#2b1d16' },
    build: 1,
    hair: 'long',
    top: '#8d99ae',
    bottom: '#3d5a80',
  },
  {
    id: 'meera',
    name: 'Meera',
    look: { skin: '#8d5524', shade: '#6e3f17', hair: '#1a120d' },
    build: 1.22,
    hair: 'long',
    top: '#b56576',
    bottom: '#355070',
  },
  {
    id: 'kavya',
    name: 'Kavya',
    look: { skin: '#e0ac69', shade: '#c58c4f', hair: '#3b2417' },
    build: 0.9,
    hair: 'short',
    top: '#6d9773',
    bottom: '#24343b',
  },
  {
    id: 'zoya',
    name: 'Zoya',
    look: { skin: '#f1c27d', shade: '#d9a35e', hair: '#5a3825' },
    build: 1.38,
    hair: 'long',
    top: '#e09f3e',
    bottom: '#540b0e',
  },
  {
    id: 'nila',
    name: 'Nila',
    look: { skin: '#5c3a1e', shade: '#442a14', hair: '#0f0a07' },
    build: 1.1,
    hair: 'short',
    top: '#9e2a2b',
    bottom: '#1d3557',
  },
];

export const shopModelPicture = (model: ShopModel): string => `models/shop-${model.id}.jpg`;

interface Picture {
  path: string;
  svg: string;
  format: 'png' | 'jpeg' | 'ico';
}

/** The garment drawing of one colour, under garments/ (the catalog's garmentImage for it). */
export function garmentPicturePath(product: Product, colour: Colour): string {
  return colour.id === product.colours[0].id
    ? `garments/${product.id}.png`
    : `garments/${product.id}--${colour.id}.png`;
}

function pictures(): Picture[] {
  const list: Picture[] = [];
  for (const product of products) {
    // Every colour is drawn: the shop shows the chosen one and the proxy uploads it for that variant.
    for (const colour of product.colours) {
      list.push({
        path: garmentPicturePath(product, colour),
        svg: garmentSvg(product.drawing, colour.palette),
        format: 'png',
      });
      if (product.image.startsWith('models/')) {
        list.push({
          path: colourImage(product, colour),
          svg: modelPhotoSvg(product.drawing, colour.palette),
          format: 'jpeg',
        });
      }
    }
  }
  list.push({ path: SHOPPER_PHOTO, svg: shopperPhotoSvg(), format: 'jpeg' });
  for (const model of SHOP_MODELS)
    list.push({ path: shopModelPicture(model), svg: shopModelSvg(model), format: 'jpeg' });
  list.push({ path: FAVICON, svg: faviconSvg(FAVICON_SIZE), format: 'ico' });
  return list;
}

async function render(picture: Picture, dir: string): Promise<void> {
  const image = sharp(Buffer.from(picture.svg));
  const bytes =
    picture.format === 'png'
      ? await image.png({ compressionLevel: 9, palette: true, quality: 90 }).toBuffer()
      : picture.format === 'ico'
        ? icoOf(await image.png().toBuffer(), FAVICON_SIZE)
        : await image.flatten({ background: '#ffffff' }).jpeg({ quality: 88, mozjpeg: true }).toBuffer();
  const target = join(dir, picture.path);
  await mkdir(dirname(target), { recursive: true });
  // Several demos may start at once (the e2e files run in parallel): write aside, then rename.
  const aside = `${target}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  await writeFile(aside, bytes);
  await rename(aside, target);
}

/** Draws every shop image into `dir` unless the same drawings are already there. */
export async function drawShopImages(dir: string): Promise<{ drawn: number }> {
  const list = pictures();
  const stamp = createHash('sha256').update(JSON.stringify(list)).digest('hex');
  const stampFile = join(dir, '.stamp');
  const previous = await readFile(stampFile, 'utf8').catch(() => '');
  await mkdir(dir, { recursive: true });
  // Copied aside, then renamed, like every picture (render): another demo starting at the same
  // time may be serving this file, and copyFile truncates it first.
  const sample = join(dir, SAMPLE_PHOTO);
  const aside = `${sample}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  await copyFile(fileURLToPath(new URL(`./${SAMPLE_PHOTO}`, import.meta.url)), aside);
  await rename(aside, sample);
  if (previous === stamp) return { drawn: 0 };
  await mkdir(dir, { recursive: true });
  await Promise.all(list.map((picture) => render(picture, dir)));
  await writeFile(stampFile, stamp);
  return { drawn: list.length };
}
