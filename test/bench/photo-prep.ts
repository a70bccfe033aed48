// 3. Photo preparation in Chromium: a phone's 12-megapixel JPEG with EXIF (orientation 6, GPS)
// through the widget's own prepareRawPhoto (widget/photo.ts, bundled for the page by esbuild):
// the time it takes (median of runs), bytes before and after, and the longest main-thread task
// seen meanwhile (PerformanceObserver 'longtask').
import { build } from 'esbuild';
import { join } from 'node:path';
import type { Benchmark } from './harness.js';
import { importProject, root } from './harness.js';
import { launchChromium, openPage } from './browser.js';
import { serveFiles } from './loopback.js';
import { phoneJpeg } from './photos.js';
import { figure, kb, longestTaskFigure, mb, median, ms, ratio } from './report.js';

interface PrepRun { ms: number; bytesOut: number; width: number; height: number; exifLeft: boolean; longestTask: number; tasks: number }

export const photoPrep: Benchmark = {
  id: 'photo-prep',
  title: '3. Photo preparation in Chromium (12 MP JPEG with EXIF → upload)',
  limitSeconds: 150,
  async run(ctx) {
    await importProject('widget/photo.ts', ['prepareRawPhoto']);
    const photo = await phoneJpeg();
    const bundle = await build({
      stdin: {
        contents: `import { prepareRawPhoto } from ${JSON.stringify(join(root, 'widget/photo.ts'))};\nglobalThis.prepareRawPhoto = prepareRawPhoto;`,
        resolveDir: root,
        loader: 'ts',
      },
      bundle: true, format: 'esm', target: 'es2022', write: false, minify: true,
    });
    const script = bundle.outputFiles[0]!.contents;
    const site = await serveFiles({
      '/': { type: 'text/html', body: '<!doctype html><title>photo prep</title><script type="module" src="/photo.js"></script>' },
      '/photo.js': { type: 'text/javascript', body: script },
      '/phone.jpg': { type: 'image/jpeg', body: photo.bytes },
    });
    ctx.defer(() => site.close());
    const browser = await launchChromium();
    ctx.defer(() => browser.close());
    const page = await openPage(browser);
    await page.goto(site.url);
    await page.waitForFunction(() => 'prepareRawPhoto' in globalThis);

    const runs = ctx.quick ? 2 : 5;
    const results = await page.evaluate(async (count: number) => {
      type Prepare = (file: Blob) => Promise<{ blob: Blob; width: number; height: number }>;
      const prepare = (globalThis as unknown as { prepareRawPhoto: Prepare }).prepareRawPhoto;
      const tasks: PerformanceEntry[] = [];
      new PerformanceObserver((list) => tasks.push(...list.getEntries())).observe({ type: 'longtask', buffered: true });
      const file = new File([await (await fetch('/phone.jpg')).blob()], 'phone.jpg', { type: 'image/jpeg' });
      const exifMark = new TextEncoder().encode('Exif\0\0');
      const hasExif = (bytes: Uint8Array) => bytes.some((_, i) => exifMark.every((b, j) => bytes[i + j] === b));
      const out = [];
      for (let i = 0; i < count; i += 1) {
        // A task ends after its own callback: let the previous run's long tasks be reported first.
        await new Promise((resolve) => setTimeout(resolve, 100));
        const before = tasks.length;
        const start = performance.now();
        const prepared = await prepare(file);
        const end = performance.now();
        await new Promise((resolve) => setTimeout(resolve, 100));
        const during = tasks.slice(before).filter((t) => t.startTime + t.duration >= start && t.startTime <= end);
        out.push({
          ms: end - start,
          bytesOut: prepared.blob.size,
          width: prepared.width,
          height: prepared.height,
          exifLeft: hasExif(new Uint8Array(await prepared.blob.arrayBuffer())),
          longestTask: Math.max(0, ...during.map((t) => t.duration)),
          tasks: during.length,
        });
      }
      return out;
    }, runs) as PrepRun[];

    const first = results[0]!;
    const time = median(results.map((r) => r.ms));
    const longest = Math.max(...results.map((r) => r.longestTask));
    const shrink = photo.bytes.length / median(results.map((r) => r.bytesOut));
    const portrait = results.every((r) => r.height > r.width && Math.max(r.width, r.height) <= 2048);
    ctx.log(`runs: ${results.map((r) => `${Math.round(r.ms)} ms/${r.bytesOut} B/longtask ${Math.round(r.longestTask)} ms`).join('; ')}`);
    return {
      figures: [
        figure(`time to prepare (median of ${runs})`, ms(time)),
        figure('bytes before', mb(photo.bytes.length)),
        figure('bytes after', kb(first.bytesOut)),
        figure('smaller by', ratio(shrink), '≥ 8×', shrink >= 8),
        longestTaskFigure('longest main-thread task during preparation (JPEG, Chromium: PerformanceObserver longtask)', longest),
        figure('EXIF orientation applied (portrait, long side ≤ 2048)', `${first.width} × ${first.height}`, 'portrait', portrait),
        figure('EXIF and GPS gone from the upload', results.some((r) => r.exifLeft) ? 'EXIF left' : 'gone', 'gone', !results.some((r) => r.exifLeft)),
      ],
      notes: [
        `input: ${photo.width} × ${photo.height} JPEG (quality 92, EXIF Orientation 6, camera make/model, GPS) made with sharp; runs: ${results.map((r) => ms(r.ms)).join(', ')}`,
        'a long task is any main-thread task of 50 ms or more; decoding by createImageBitmap happens off the main thread, encoding may not',
      ],
    };
  },
};
