// The labelled set the fidelity check is measured on: renders the sandbox makes of the demo's
// products (every variant's garment image, as the proxy sends it upstream) on two shoppers (the
// demo's drawn shopper and its sample photo), faithful ones in every view and each drawn failure
// (sandbox/jobs/misdrawn.ts, the faults' own drawing) at several strengths, each labelled with
// what it is. Rendered in-process through the sandbox's own render functions rather than over HTTP:
// the same pixels, without the jobs' clocks. Shared by the labelled-set test and the bench.
//
// Size: the shoppers' photos are 384 × 512, so the renders are too (a render keeps the photo's
// frame). The check reads every output averaged down to 160 px on its long side, so a 1024-px
// output and a 384-px one reach it alike; the render itself is ~7× cheaper.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { shopperPhotoSvg } from '../../demo/shop/drawings.js';
import { drawShopImages } from '../../demo/shop/images.js';
import { loadShopCatalog } from '../../demo/shop/tryon-catalog.js';
import { parseCatalog, productAsVariant } from '../../proxy/catalog/catalog.js';
import { WORN_OVER } from '../../proxy/fidelity/check.js';
import { renderFront, renderView } from '../../sandbox/drawing/render.js';
import { misdrawnFront } from '../../sandbox/jobs/misdrawn.js';
import type { Misdraw } from '../../sandbox/jobs/misdrawn.js';
import type { Front } from '../../sandbox/drawing/picture.js';
import { views as allViews, type View } from '../../sandbox/api/tryon-request.js';

export const DRIFTS = [4, 7, 10, 15, 25] as const;

export interface LabelledRender {
  product: string;
  variant: string;
  category: string;
  /** 'faithful', or the fault drawn into it. */
  label: 'faithful' | Misdraw['kind'];
  deltaE?: number;
  view: View;
  bytes: Uint8Array;
}

export interface LabelledGarment {
  product: string;
  variant: string;
  category: string;
  garment: { bytes: Uint8Array; contentType: string };
  renders: LabelledRender[];
}

/** The shoppers' photos at the labelled set's size. */
async function shoppers(): Promise<Buffer[]> {
  const size = { width: 384, height: 512, fit: 'inside' as const };
  return Promise.all([
    sharp(Buffer.from(shopperPhotoSvg())).resize(size).jpeg({ quality: 90 }).toBuffer(),
    sharp(await readFile(new URL('../../demo/shop/sample-person.jpg', import.meta.url)))
      .resize(size)
      .jpeg({ quality: 90 })
      .toBuffer(),
  ]);
}

/**
 * Every variant of every demo product, rendered faithfully in all four views and with each failure
 * in one or two views (a different one from garment to garment, so every view carries every failure).
 */
export async function labelledSet(): Promise<LabelledGarment[]> {
  const dir = await mkdtemp(join(tmpdir(), 'fidelity-set-'));
  try {
    await drawShopImages(dir);
    const catalog = parseCatalog(await loadShopCatalog());
    const people = await shoppers();
    const garments: LabelledGarment[] = [];
    let turn = 0;
    for (const product of catalog.values()) {
      // A piece worn over another garment is never checked (WORN_OVER): not part of what the check is judged on.
      if (WORN_OVER.includes(product.garment.category)) continue;
      for (const variantId of Object.keys(product.variants ?? {})) {
        const entry = productAsVariant(product, variantId)!;
        const fromPerson = entry.mode === 'person_to_person';
        const path = fromPerson ? entry.referencePersonImage! : entry.garmentImage!;
        const bytes = new Uint8Array(await readFile(join(dir, path)));
        const person = people[turn % people.length]!;
        const front = await renderFront({
          person,
          garment: bytes,
          garmentFromPerson: fromPerson,
          background: entry.background,
          category: entry.garment.category,
          subtype: entry.garment.subtype,
          tier: 'standard',
        });
        const render = async (view: View, drawn: Front = front) => {
          const out = await renderView(drawn, {
            category: entry.garment.category,
            subtype: entry.garment.subtype,
            view,
            background: entry.background,
            tier: 'standard',
            provider: 'general_a',
          });
          return new Uint8Array(out.bytes);
        };
        // Each failure is drawn once and its views rendered from it, as the runner does.
        const misdrawn = (misdraw: Misdraw) => misdrawnFront(front, misdraw);
        const base = { product: product.id, variant: variantId, category: entry.garment.category };
        const renders: LabelledRender[] = [];
        for (const view of allViews) renders.push({ ...base, label: 'faithful', view, bytes: await render(view) });
        const viewAt = (k: number) => allViews[(turn + k) % allViews.length]!;
        let k = 0;
        for (const deltaE of DRIFTS) {
          const drifted = await misdrawn({ kind: 'colour_drift', deltaE });
          for (const view of [viewAt(k), viewAt(k + 2)])
            renders.push({ ...base, label: 'colour_drift', deltaE, view, bytes: await render(view, drifted) });
          k++;
        }
        for (const kind of ['wrong_variant', 'garment_missing', 'half_drawn'] as const) {
          const view = viewAt(k++);
          renders.push({ ...base, label: kind, view, bytes: await render(view, await misdrawn({ kind })) });
        }
        garments.push({
          ...base,
          garment: { bytes, contentType: fromPerson ? 'image/jpeg' : 'image/png' },
          renders,
        });
        turn++;
      }
    }
    return garments;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
