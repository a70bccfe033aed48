// 10. The photo check on the device: the size of what it fetches (the worker with TensorFlow.js,
// the two quantized models, the wasm) and how long a check takes in Chromium, on the desktop and
// with the CPU slowed 4× (CDP Emulation.setCPUThrottlingRate, as Lighthouse's mobile profile),
// against the goals of ≤ 300 ms and ≤ 1.5 s. CDP throttles a page but refuses a worker target,
// and the page's throttle does not reliably reach its worker: the 4× goal is judged on 4 × the
// desktop time, the page-throttled time shown beside it. The first check of a page includes loading the
// models; later ones do not: both are reported. Each photo's verdict is printed beside it.
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import type { Benchmark } from './harness.js';
import { launchChromium, openPage } from './browser.js';
import { serveFiles, type FixedFile } from './loopback.js';
import { figure, kb, median, ms } from './report.js';
import { Unavailable } from './report.js';
import { buildPhotoCheck, PHOTO_CHECK_MODELS, PHOTO_CHECK_WORKER } from '../../scripts/photo-check-build.js';
import { opencvDataPresent, PEOPLE_PHOTOS, peoplePhoto } from '../photos/people.js';
import { reasonsFor, type PhotoMeasures } from '../../widget/photo/check/verdict.js';
import { BUDGETS, buildCdn, checkBudgets, listFiles } from '../../scripts/build.js';
import { gzipSync } from 'node:zlib';

export interface CheckRun {
  name: string;
  ms: number;
  measures?: PhotoMeasures;
  error?: string;
  longestTask?: number;
}

/** Serves a built photo check and the test photos, with a page that runs the worker on demand. */
export async function servePhotoCheck(outDir: string) {
  const files: Record<string, FixedFile> = {
    '/': { type: 'text/html', body: '<!doctype html><title>photo check</title>' },
  };
  for (const path of await listFiles(outDir)) {
    const name = path.slice(outDir.length);
    const type = name.endsWith('.js')
      ? 'text/javascript'
      : name.endsWith('.json')
        ? 'application/json'
        : name.endsWith('.wasm')
          ? 'application/wasm'
          : 'application/octet-stream';
    files[name] = { type, body: await readFile(path) };
  }
  for (const name of PEOPLE_PHOTOS)
    files[`/photos/${name}.jpg`] = { type: 'image/jpeg', body: await peoplePhoto(name) };
  return serveFiles(files);
}

/** Runs the worker on each named photo in turn, in one worker (the first run loads the models). */
export async function checkInPage(page: Page, names: readonly string[]): Promise<CheckRun[]> {
  return page.evaluate(
    async (list: string[]) => {
      const worker = new Worker('/photo-check-worker.js', { type: 'module' });
      // Main-thread tasks of 50 ms or more while the worker checks: the page must not stall.
      const tasks: PerformanceEntry[] = [];
      new PerformanceObserver((list) => tasks.push(...list.getEntries())).observe({ type: 'longtask', buffered: true });
      const out: { name: string; ms: number; measures?: unknown; error?: string; longestTask?: number }[] = [];
      let id = 0;
      for (const name of list) {
        const photo = await (await fetch(`/photos/${name}.jpg`)).blob();
        const started = performance.now();
        const answer = await new Promise<{ measures?: unknown; error?: string }>((resolve) => {
          worker.onmessage = (event) => resolve(event.data as { measures?: unknown; error?: string });
          worker.onerror = (event) => resolve({ error: event.message });
          worker.postMessage({ id: ++id, photo });
        });
        const ended = performance.now();
        await new Promise((resolve) => setTimeout(resolve, 50));
        const during = tasks.filter((t) => t.startTime + t.duration >= started && t.startTime <= ended);
        out.push({ name, ms: ended - started, ...answer, longestTask: Math.max(0, ...during.map((t) => t.duration)) });
      }
      worker.terminate();
      return out;
    },
    [...names],
  ) as Promise<CheckRun[]>;
}

export const photoCheck: Benchmark = {
  id: 'photo-check',
  title: '10. The photo check on the device (size, time on desktop and 4× slower CPU)',
  limitSeconds: 180,
  async run(ctx) {
    if (!opencvDataPresent())
      throw new Unavailable('no opencv-doc photos (apt install opencv-doc, or set OPENCV_DATA_PATH)');
    const outDir = ctx.scratch('photo-check');
    await buildPhotoCheck(outDir);
    const sizes = await Promise.all(
      (await listFiles(outDir)).map(async (path) => {
        const bytes = await readFile(path);
        return { file: path.slice(outDir.length + 1), bytes: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
      }),
    );
    const total = sizes.reduce((sum, f) => sum + f.bytes, 0);
    const totalGzip = sizes.reduce((sum, f) => sum + f.gzip, 0);
    const worker = sizes.find((f) => f.file === PHOTO_CHECK_WORKER)!;
    // The page's cost with the check in the build: the first script and the panel within their budgets.
    const budgets = checkBudgets(await buildCdn({ outDir: ctx.scratch('photo-check-cdn'), quiet: true }));
    const site = await servePhotoCheck(outDir);
    ctx.defer(() => site.close());
    const browser = await launchChromium();
    ctx.defer(() => browser.close());

    const runs = ctx.quick ? 2 : 5;
    const timed = async (rate: number) => {
      const page = await openPage(browser);
      await page.goto(site.url);
      if (rate > 1) await (await page.context().newCDPSession(page)).send('Emulation.setCPUThrottlingRate', { rate });
      const results = await checkInPage(page, [
        'full',
        ...Array.from({ length: runs }, () => 'full'),
        ...PEOPLE_PHOTOS.filter((n) => n !== 'full'),
      ]);
      await page.close();
      const failed = results.find((r) => r.error);
      if (failed) throw new Error(`the check failed on ${failed.name}: ${failed.error}`);
      return { first: results[0]!.ms, warm: median(results.slice(1, runs + 1).map((r) => r.ms)), results };
    };
    const desktop = await timed(1);
    const slow = await timed(4);
    const each = (results: CheckRun[]) => [results[0]!, ...results.slice(runs + 1)];
    const verdict = (r: CheckRun) =>
      `${reasonsFor(r.measures!, true).join(', ') || 'pass'}` +
      (r.name === 'half' || r.name === 'padded'
        ? ` (without the whole-body need: ${reasonsFor(r.measures!, false).join(', ') || 'pass'})`
        : '');
    const verdicts = each(desktop.results).map((r) => `${r.name}: ${verdict(r)}`);
    ctx.log(verdicts.join('; '));
    for (const r of each(desktop.results)) ctx.log(`${r.name}: ${JSON.stringify(r.measures)}`);

    // What quantizing cost: the same photos through the package's own (float) weights.
    const floatDir = ctx.scratch('photo-check-float');
    await buildPhotoCheck(floatDir, { quantize: false });
    const floatSite = await servePhotoCheck(floatDir);
    ctx.defer(() => floatSite.close());
    const floatPage = await openPage(browser);
    await floatPage.goto(floatSite.url);
    const floats = await checkInPage(floatPage, PEOPLE_PHOTOS);
    const quantized = new Map(each(desktop.results).map((r) => [r.name, r]));
    const decision = (r: CheckRun, full: boolean) => reasonsFor(r.measures!, full).length === 0;
    const same = floats.filter((r) =>
      [true, false].every((full) => decision(r, full) === decision(quantized.get(r.name)!, full)),
    ).length;
    const differing = floats
      .filter((r) => verdict(r) !== verdict(quantized.get(r.name)!))
      .map((r) => `${r.name}: ${verdict(r)}`);
    return {
      figures: [
        figure(
          'first script (gzip), the check in the build',
          kb(budgets.button),
          `≤ ${kb(BUDGETS.button)}; 9,375 B before the check`,
          budgets.button <= BUDGETS.button,
        ),
        figure(
          'button + panel (gzip), the check outside it',
          kb(budgets.buttonAndPanel),
          `≤ ${kb(BUDGETS.buttonAndPanel)}`,
          budgets.buttonAndPanel <= BUDGETS.buttonAndPanel,
        ),
        figure(
          'worker (TensorFlow.js core, converter, wasm backend, our check)',
          `${kb(worker.bytes)} (${kb(worker.gzip)} gzipped)`,
        ),
        figure(
          `everything fetched for a check (worker, ${PHOTO_CHECK_MODELS.join(' + ')}, wasm)`,
          `${kb(total)} (${kb(totalGzip)} gzipped)`,
          '≤ 2 MB on disk',
          total <= 2 * 1024 * 1024,
        ),
        figure(
          `check time, desktop (median of ${runs}, models loaded)`,
          ms(desktop.warm),
          '≤ 300 ms',
          desktop.warm <= 300,
        ),
        figure('first check, desktop (loading the models included)', ms(desktop.first)),
        figure(
          `check time, page CPU 4× slower (median of ${runs}; CDP throttles the page, not reliably its worker)`,
          ms(slow.warm),
        ),
        figure('first check, page CPU 4× slower (loading included)', ms(slow.first)),
        // CDP refuses Emulation.setCPUThrottlingRate on a worker target ("only supported for pages"):
        // the goal is judged on 4 × the desktop time, what a 4× slower CPU would take at most.
        figure(
          'check time, CPU 4× slower (4 × the desktop median)',
          ms(4 * desktop.warm),
          '≤ 1.5 s',
          4 * desktop.warm <= 1500,
        ),
        figure(
          'longest main-thread task during the checks (desktop)',
          (() => {
            const longest = Math.max(0, ...desktop.results.map((r) => r.longestTask ?? 0));
            return longest > 0 ? ms(longest) : 'none ≥ 50 ms';
          })(),
          'no long task',
          desktop.results.every((r) => (r.longestTask ?? 0) === 0),
        ),
        figure(
          'photos accepted or refused as with the unquantized models',
          `${same} of ${floats.length}`,
          'all',
          same === floats.length,
        ),
      ],
      notes: [
        `files: ${sizes.map((f) => `${f.file} ${kb(f.bytes)}`).join(', ')}`,
        `verdicts (the saree's whole-body need on): ${verdicts.join('; ')}`,
        `unquantized models, where their reasons differ: ${differing.join('; ') || 'none'}`,
      ],
    };
  },
};
