// 12. The fidelity check (docs/fidelity.md): CPU time per output view at 1024 px, against the goal of
// ≤ 60 ms, on the sandbox's renders of the demo's ruby saree (every view) on the drawn shopper
// (768 × 1024) and on the sample photo enlarged to 1024 px; with what decoding the JPEG alone takes,
// and what reading a garment image takes the first time (its palette is kept after). CPU time of
// the process, as the sandbox-render bench judges, so other tenants of the machine do not count.
import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import type { Benchmark } from './harness.js';
import { figure, median, ms } from './report.js';
import { garmentSvg, shopperPhotoSvg } from '../../demo/shop/drawings.js';
import { products } from '../../demo/shop/products.js';
import { renderFront, renderView } from '../../sandbox/drawing/render.js';
import { views } from '../../sandbox/api/tryon-request.js';
import { checkFidelity } from '../../proxy/fidelity/check.js';
import { garmentPalette } from '../../proxy/fidelity/palette.js';
import { readPicture } from '../../proxy/fidelity/picture.js';

const GOAL_MS = 60;

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

export const fidelityCheck: Benchmark = {
  id: 'fidelity-check',
  title: '12. The fidelity check (CPU per output view at 1024 px)',
  limitSeconds: 240,
  async run(ctx) {
    const saree = products.find((p) => p.id === 'saree-nivi-ruby')!;
    const garment = new Uint8Array(
      await sharp(Buffer.from(garmentSvg(saree.drawing, saree.colours[0].palette)))
        .png({ compressionLevel: 9, palette: true, quality: 90 })
        .toBuffer(),
    );
    const people: [string, Buffer][] = [
      ['drawn shopper, 768 × 1024', await sharp(Buffer.from(shopperPhotoSvg())).jpeg({ quality: 90 }).toBuffer()],
      [
        'sample photo, 1024 px',
        await sharp(await readFile(new URL('../../demo/shop/sample-person.jpg', import.meta.url)))
          .resize({ width: 1024, height: 1024, fit: 'inside' })
          .jpeg({ quality: 90 })
          .toBuffer(),
      ],
    ];
    const runs = ctx.quick ? 3 : 10;
    const rows: { name: string; view: number; decode: number; size: string }[] = [];
    for (const [name, person] of people) {
      const front = await renderFront({
        person,
        garment,
        garmentFromPerson: false,
        background: 'studio_white',
        category: 'saree',
        subtype: 'nivi',
        tier: 'standard',
      });
      const outputs = await Promise.all(
        views.map(async (view) => {
          const out = await renderView(front, {
            category: 'saree',
            subtype: 'nivi',
            view,
            background: 'studio_white',
            tier: 'standard',
            provider: 'general_a',
          });
          return { view, bytes: new Uint8Array(out.bytes), contentType: 'image/jpeg' };
        }),
      );
      const input = { garment: { bytes: garment, contentType: 'image/png' }, category: 'saree', views: outputs };
      // Once to warm up (and keep the garment's palette, as a shop's second try-on of it finds it).
      const warm = await checkFidelity({ ...input, expectedViews: [...views] });
      if (warm.verdict !== 'true') throw new Error(`a faithful render reads ${warm.verdict}: ${warm.reason}`);
      const perView: number[] = [];
      const decodes: number[] = [];
      for (let i = 0; i < runs; i++) {
        const c0 = cpuMs();
        await checkFidelity({ ...input, expectedViews: [...views] });
        perView.push((cpuMs() - c0) / outputs.length);
        const c1 = cpuMs();
        for (const output of outputs) readPicture(output.bytes);
        decodes.push((cpuMs() - c1) / outputs.length);
      }
      const size = `${front.width} × ${front.height}`;
      rows.push({ name, view: median(perView), decode: median(decodes), size });
    }
    const garmentRuns: number[] = [];
    for (let i = 0; i < runs; i++) {
      const c0 = cpuMs();
      garmentPalette(readPicture(garment));
      garmentRuns.push(cpuMs() - c0);
    }
    const slowest = Math.max(...rows.map((r) => r.view));
    return {
      figures: [
        ...rows.map((r) =>
          figure(
            `check per view, ${r.name} (${r.size} JPEG, 4 views, median of ${runs}), CPU time`,
            `${ms(r.view)} (decoding the JPEG alone ${ms(r.decode)})`,
            `≤ ${GOAL_MS} ms`,
            r.view <= GOAL_MS,
          ),
        ),
        figure('reading a 600 × 800 garment PNG into its palette, first time (kept after)', ms(median(garmentRuns))),
        figure('slowest, CPU time per view', ms(slowest), `≤ ${GOAL_MS} ms`, slowest <= GOAL_MS),
      ],
      notes: [
        'CPU time of the process: the check is synchronous JavaScript (jpeg-js, fast-png and the analysis), one thread.',
      ],
    };
  },
};
