// 11. The sandbox's render: how long loading the person models takes (once per process), and how
// long a try-on render takes per 1024-px photo (finding the person, dressing them, the backdrop,
// the captioned JPEG), against the goal of ≤ 1 s. The photos: the demo's sample, and, with
// Debian's opencv-doc, the footballer in a crowd and the man in an office, each enlarged to
// 1024 px on its long side; the demo's drawn shopper is 768 × 1024 already. On a shared machine
// the wall time measures the other tenants as much as the render: the CPU time the process spent
// (all its threads: sharp's too) is shown beside it, and the goal is judged on it, as a render on
// an otherwise idle core would take at most that long.
import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import type { Benchmark } from './harness.js';
import { figure, median, ms } from './report.js';
import { shopperPhotoSvg } from '../../demo/shop/drawings.js';
import { garmentSvg } from '../../demo/shop/drawings.js';
import { products } from '../../demo/shop/products.js';
import { personModels } from '../../sandbox/drawing/person-models.js';
import { findPerson } from '../../sandbox/drawing/person.js';
import { renderFront, renderView } from '../../sandbox/drawing/render.js';
import { OPENCV_DATA, opencvDataPresent, peoplePhoto } from '../photos/people.js';

const at1024 = (bytes: Buffer | string) =>
  sharp(bytes).resize({ width: 1024, height: 1024, fit: 'inside' }).jpeg({ quality: 90 }).toBuffer();

export const sandboxRender: Benchmark = {
  id: 'sandbox-render',
  title: "11. The sandbox's render (person models' load, time per 1024-px photo)",
  limitSeconds: 240,
  async run(ctx) {
    const started = performance.now();
    const models = await personModels();
    const loaded = performance.now() - started;
    const saree = products.find((p) => p.drawing.kind === 'saree')!;
    const garment = await sharp(Buffer.from(garmentSvg(saree.drawing, saree.colours[0]!.palette)))
      .png()
      .toBuffer();
    const photos: [string, Buffer][] = [
      ['sample photo', await at1024(await readFile(new URL('../../demo/shop/sample-person.jpg', import.meta.url)))],
      ['drawn shopper', await sharp(Buffer.from(shopperPhotoSvg())).jpeg({ quality: 90 }).toBuffer()],
    ];
    if (opencvDataPresent()) {
      photos.push(['footballer in a crowd', await at1024(await peoplePhoto('full'))]);
      photos.push(['man in an office', await at1024(`${OPENCV_DATA}/basketball1.png`)]);
    } else ctx.log('no opencv-doc photos: the sample photo and the drawn shopper only');

    const runs = ctx.quick ? 2 : 5;
    const rows: { name: string; render: number; cpu: number; find: number }[] = [];
    const cpuMs = () => {
      const { user, system } = process.cpuUsage();
      return (user + system) / 1000;
    };
    for (const [name, person] of photos) {
      const renders: number[] = [];
      const cpus: number[] = [];
      const finds: number[] = [];
      const { data, info } = await sharp(person)
        .resize({ width: 512, height: 512, fit: 'inside' })
        .removeAlpha()
        .raw()
        .toBuffer({ resolveWithObject: true });
      for (let i = 0; i < runs; i++) {
        const t0 = performance.now();
        const c0 = cpuMs();
        const front = await renderFront({
          person,
          garment,
          garmentFromPerson: false,
          background: 'haveli_warm',
          category: 'saree',
          subtype: 'nivi',
          tier: 'standard',
        });
        await renderView(front, {
          category: 'saree',
          subtype: 'nivi',
          view: 'front',
          background: 'haveli_warm',
          tier: 'standard',
          provider: 'general_a',
        });
        renders.push(performance.now() - t0);
        cpus.push(cpuMs() - c0);
        if (!front.personFound) throw new Error(`no person found in the ${name}`);
        const t1 = performance.now();
        await findPerson({ data, width: info.width, height: info.height, channels: 3 });
        finds.push(performance.now() - t1);
      }
      rows.push({ name, render: median(renders), cpu: median(cpus), find: median(finds) });
    }
    const slowest = Math.max(...rows.map((r) => r.cpu));
    const load = (await import('node:os')).loadavg()[0]!;
    return {
      figures: [
        figure(
          'person models loaded (TensorFlow.js wasm backend, MoveNet, selfie segmentation), once per process',
          ms(models.loadMs),
        ),
        figure('first personModels() call in this process', ms(loaded)),
        ...rows.map((r) =>
          figure(
            `render, ${r.name} (median of ${runs}: front + captioned JPEG), CPU time (wall time)`,
            `${ms(r.cpu)} (${ms(r.render)}; finding the person ${ms(r.find)} wall)`,
            '≤ 1 s',
            r.cpu <= 1000,
          ),
        ),
        figure(
          `slowest photo, CPU time (load average ${load.toFixed(1)} on this machine)`,
          ms(slowest),
          '≤ 1 s',
          slowest <= 1000,
        ),
      ],
      notes: [
        'Each render draws anew (no kept front); the backdrop picture is drawn once per size and kept, as in the sandbox.',
      ],
    };
  },
};
