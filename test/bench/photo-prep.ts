// 3. Photo preparation in Chromium: a phone's 12-megapixel JPEG with EXIF (orientation 6, GPS)
// through the widget's own prepareRawPhoto (widget/photo/photo.ts, bundled for the page by esbuild):
// the time it takes (median of runs), bytes before and after, and the longest main-thread task
// seen meanwhile (PerformanceObserver 'longtask').
import { build } from 'esbuild';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Benchmark } from './harness.js';
import { importProject, root } from './harness.js';
import { launchChromium, openPage } from './browser.js';
import { serveFiles } from './loopback.js';
import { phoneJpeg } from './photos.js';
import { buildPhotoPrepWorker } from '../../scripts/worker-build.js';
import { figure, kb, longestTaskFigure, mb, median, ms, ratio } from './report.js';

interface PrepRun {
  ms: number;
  bytesOut: number;
  width: number;
  height: number;
  exifLeft: boolean;
  longestTask: number;
  tasks: number;
}

export const photoPrep: Benchmark = {
  id: 'photo-prep',
  title: '3. Photo preparation (12 MP JPEG with EXIF, iPhone-sized HEIC → upload; Chromium and Firefox)',
  limitSeconds: 420,
  async run(ctx) {
    await importProject('widget/photo/photo.ts', ['prepareRawPhoto']);
    const photo = await phoneJpeg();
    // An iPhone-sized HEIC (4032 × 3024), made by the tests' own HEIC maker (x265 in a HEIF box).
    const { makeHeicPhoto } = await import('../photos/heic.js');
    const heic = await makeHeicPhoto({ width: 4032, height: 3024, exif: true, xmp: false });
    const bundle = await build({
      stdin: {
        contents: `import { prepareRawPhoto } from ${JSON.stringify(join(root, 'widget/photo/photo.ts'))};\nglobalThis.prepareRawPhoto = prepareRawPhoto;`,
        resolveDir: root,
        loader: 'ts',
      },
      bundle: true,
      format: 'esm',
      target: 'es2022',
      write: false,
      minify: true,
    });
    const script = bundle.outputFiles[0]!.contents;
    // The photo preparation's worker and its libheif chunk, beside the page's script, as dist/cdn has them.
    const workerDir = await mkdtemp(join(tmpdir(), 'bench-photo-prep-'));
    ctx.defer(() => rm(workerDir, { recursive: true, force: true }));
    await buildPhotoPrepWorker(workerDir);
    const workerFiles = Object.fromEntries(
      await Promise.all(
        (await readdir(workerDir)).map(
          async (file) =>
            [`/${file}`, { type: 'text/javascript', body: await readFile(join(workerDir, file)) }] as const,
        ),
      ),
    );
    const site = await serveFiles({
      '/': {
        type: 'text/html',
        body: '<!doctype html><title>photo prep</title><script type="module" src="/photo.js"></script>',
      },
      '/photo.js': { type: 'text/javascript', body: script },
      ...workerFiles,
      '/phone.jpg': { type: 'image/jpeg', body: photo.bytes },
      '/phone.heic': { type: 'image/heic', body: heic },
    });
    ctx.defer(() => site.close());
    const browser = await launchChromium();
    ctx.defer(() => browser.close());
    const page = await openPage(browser);
    await page.goto(site.url);
    await page.waitForFunction(() => 'prepareRawPhoto' in globalThis);

    const runs = ctx.quick ? 2 : 5;
    const results = (await page.evaluate(async (count: number) => {
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
    }, runs)) as PrepRun[];

    // The longest task by a gap probe, which every engine can run (Firefox has no 'longtask'
    // entries): a MessageChannel ping-pong on the main thread; the longest gap between two pings
    // is the longest task that ran meanwhile.
    const gapRuns = ctx.quick ? 1 : 3;
    const chromiumHeic = (await page.evaluate(GAP_RUN, {
      path: '/phone.heic',
      name: 'phone.heic',
      type: 'image/heic',
      runs: gapRuns,
    })) as GapRun;
    let firefox: { jpeg: GapRun; heic: GapRun } | string;
    try {
      firefox = await inFirefox(site.url, gapRuns);
    } catch (error) {
      firefox = error instanceof Error ? error.message.split('\n')[0]!.slice(0, 200) : String(error);
    }
    ctx.log(
      `gap probe: Chromium HEIC ${chromiumHeic.gaps.map(Math.round).join('/')} ms; Firefox ${typeof firefox === 'string' ? firefox : `JPEG ${firefox.jpeg.gaps.map(Math.round).join('/')} HEIC ${firefox.heic.gaps.map(Math.round).join('/')} ms`}`,
    );
    const worst = (run: GapRun | undefined) => (run && run.gaps.length > 0 ? Math.max(...run.gaps) : undefined);

    const first = results[0]!;
    const time = median(results.map((r) => r.ms));
    const longest = Math.max(...results.map((r) => r.longestTask));
    const shrink = photo.bytes.length / median(results.map((r) => r.bytesOut));
    const portrait = results.every((r) => r.height > r.width && Math.max(r.width, r.height) <= 2048);
    ctx.log(
      `runs: ${results.map((r) => `${Math.round(r.ms)} ms/${r.bytesOut} B/longtask ${Math.round(r.longestTask)} ms`).join('; ')}`,
    );
    return {
      figures: [
        figure(`time to prepare (median of ${runs})`, ms(time)),
        figure('bytes before', mb(photo.bytes.length)),
        figure('bytes after', kb(first.bytesOut)),
        figure('smaller by', ratio(shrink), '≥ 8×', shrink >= 8),
        longestTaskFigure(
          'longest main-thread task during preparation (JPEG, Chromium: PerformanceObserver longtask)',
          longest,
        ),
        longestTaskFigure(
          `longest main-thread task, HEIC 4032 × 3024 (Chromium: gap probe, ${gapRuns} runs)`,
          chromiumHeic.error ? undefined : worst(chromiumHeic),
        ),
        longestTaskFigure(
          `longest main-thread task, JPEG (Firefox: gap probe, ${gapRuns} runs)`,
          typeof firefox === 'string' || firefox.jpeg.error ? undefined : worst(firefox.jpeg),
        ),
        longestTaskFigure(
          `longest main-thread task, HEIC (Firefox: gap probe, ${gapRuns} runs)`,
          typeof firefox === 'string' || firefox.heic.error ? undefined : worst(firefox.heic),
        ),
        figure(
          'EXIF orientation applied (portrait, long side ≤ 2048)',
          `${first.width} × ${first.height}`,
          'portrait',
          portrait,
        ),
        figure(
          'EXIF and GPS gone from the upload',
          results.some((r) => r.exifLeft) ? 'EXIF left' : 'gone',
          'gone',
          !results.some((r) => r.exifLeft),
        ),
      ],
      notes: [
        `input: ${photo.width} × ${photo.height} JPEG (quality 92, EXIF Orientation 6, camera make/model, GPS) made with sharp; runs: ${results.map((r) => ms(r.ms)).join(', ')}`,
        'a long task is any main-thread task of 50 ms or more; decoding by createImageBitmap happens off the main thread, encoding may not',
        'gap probe (Chromium HEIC, Firefox): a MessageChannel ping-pong runs on the main thread during preparation; the longest gap between two pings is the longest task',
        ...(typeof firefox === 'string' ? [`Firefox could not run: ${firefox}`] : []),
        ...[chromiumHeic, ...(typeof firefox === 'string' ? [] : [firefox.jpeg, firefox.heic])].flatMap((r) =>
          r.error ? [`preparation failed: ${r.error}`] : [],
        ),
      ],
    };
  },
};

interface GapRun {
  gaps: number[];
  error?: string;
}

/** Runs in the page (any engine): prepares the photo at `path` `runs` times under a gap probe. */
const GAP_RUN = async ({
  path,
  name,
  type,
  runs,
}: {
  path: string;
  name: string;
  type: string;
  runs: number;
}): Promise<GapRun> => {
  const prepare = (globalThis as unknown as { prepareRawPhoto: (file: Blob) => Promise<unknown> }).prepareRawPhoto;
  const file = new File([await (await fetch(path)).blob()], name, { type });
  const gaps: number[] = [];
  try {
    for (let i = 0; i < runs; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const channel = new MessageChannel();
      let last = performance.now();
      let longest = 0;
      let probing = true;
      channel.port1.onmessage = () => {
        const now = performance.now();
        longest = Math.max(longest, now - last);
        last = now;
        if (probing) channel.port2.postMessage(0);
      };
      channel.port2.postMessage(0);
      await prepare(file);
      // The task that ends the preparation counts too: one more ping after it.
      await new Promise((resolve) => setTimeout(resolve, 0));
      probing = false;
      channel.port1.close();
      gaps.push(longest);
    }
    return { gaps };
  } catch (error) {
    return { gaps, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
  }
};

/** The same page in Firefox ESR (puppeteer-core over WebDriver BiDi, as the widget tests run it). */
async function inFirefox(url: string, runs: number): Promise<{ jpeg: GapRun; heic: GapRun }> {
  const executablePath = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';
  if (!existsSync(executablePath)) throw new Error(`no Firefox at ${executablePath} (set FIREFOX_PATH)`);
  const { default: puppeteer } = await import('puppeteer-core');
  const browser = await puppeteer.launch({ browser: 'firefox', executablePath, headless: true });
  try {
    const page = await browser.newPage();
    await page.goto(url);
    await page.waitForFunction('"prepareRawPhoto" in globalThis');
    // A string, with tsx's naming helper defined first: the page does not have it.
    const call = (args: Record<string, unknown>) =>
      page.evaluate(
        `globalThis.__name ??= (fn) => fn; (${GAP_RUN.toString()})(${JSON.stringify(args)})`,
      ) as Promise<GapRun>;
    const jpeg = await call({ path: '/phone.jpg', name: 'phone.jpg', type: 'image/jpeg', runs });
    const heic = await call({ path: '/phone.heic', name: 'phone.heic', type: 'image/heic', runs });
    return { jpeg, heic };
  } finally {
    await browser.close();
  }
}
