// 2. Page impact: Lighthouse (the npm package's CLI, on the system's Chromium) on a demo product
// page with and without the widget. Both variants pass through one small forwarder of ours in
// front of the demo (demo/start.ts startDemo): `?widget=off` serves a copy of the same page with
// the widget's script tag and its <tryon-button> element removed, i.e. the page as the shop had it
// before adding the tag. Runs alternate between the variants; medians are compared as deltas.
import { join } from 'node:path';
import { CHROMIUM_ARGS, findChromium } from '../../scripts/chromium.js';
import type { Benchmark } from './harness.js';
import { execute, root } from './harness.js';
import { serveFetch } from './loopback.js';
import { loadDemo } from './project.js';
import { launchChromium } from './browser.js';
import { Unavailable, figure, lcpDeltaFigure, median, ms } from './report.js';

/** The widget's script tag; its src is the first group. */
const WIDGET_SCRIPT = /<script\b[^>]*\bsrc="([^"]*tryon-button[^"]*\.js)"[^>]*>\s*<\/script>\s*/gi;
const WIDGET_ELEMENT = /<tryon-button\b[^>]*>[\s\S]*?<\/tryon-button>\s*/gi;

/** The page as it was before the shop added the widget. */
export function withoutWidget(html: string): string {
  return html.replace(WIDGET_SCRIPT, '').replace(WIDGET_ELEMENT, '');
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'content-encoding']);

interface Audit {
  score: number;
  tbt: number;
  cls: number;
  lcp: number;
  shifts: string[];
  /** Lighthouse's long tasks (50 ms or more at its 4× slower CPU): where each ran, and for how long. */
  longTasks: { url: string; ms: number }[];
}

async function lighthouse(url: string, chromePath: string): Promise<Audit> {
  const { stdout } = await execute(
    process.execPath,
    [
      join(root, 'node_modules/lighthouse/cli/index.js'),
      url,
      '--output=json',
      '--output-path=stdout',
      '--only-categories=performance',
      '--quiet',
      `--chrome-flags=${CHROMIUM_ARGS.join(' ')}`,
    ],
    { env: { CHROME_PATH: chromePath }, timeoutMs: 90_000 },
  );
  const report = JSON.parse(stdout) as {
    runtimeError?: { message: string };
    categories: { performance: { score: number | null } };
    audits: Record<
      string,
      {
        numericValue?: number;
        details?: {
          items?: { node?: { snippet?: string; selector?: string }; score?: number; url?: string; duration?: number }[];
        };
      }
    >;
  };
  if (report.runtimeError) throw new Error(`Lighthouse: ${report.runtimeError.message}`);
  const value = (id: string) => report.audits[id]?.numericValue ?? Number.NaN;
  const shifts = (report.audits['layout-shifts']?.details?.items ?? []).map(
    (item) => `${item.node?.selector ?? item.node?.snippet ?? 'unknown'} (${(item.score ?? 0).toFixed(3)})`,
  );
  return {
    score: Math.round((report.categories.performance.score ?? Number.NaN) * 100),
    tbt: value('total-blocking-time'),
    cls: value('cumulative-layout-shift'),
    lcp: value('largest-contentful-paint'),
    shifts,
    longTasks: (report.audits['long-tasks']?.details?.items ?? []).map((item) => ({
      url: item.url ?? 'unknown',
      ms: item.duration ?? 0,
    })),
  };
}

/**
 * Lighthouse's mobile profile applied for real rather than simulated: Chromium's own network and CPU
 * throttling over CDP (150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up, CPU 4× slower), a
 * 412 × 823 phone viewport, no cache. LCP is the last `largest-contentful-paint` entry once the page
 * has loaded and gone quiet, counted from the document's first byte (responseStart).
 */
export const REAL_THROTTLING = {
  latency: 150,
  downloadThroughput: (1.6 * 1024 * 1024) / 8,
  uploadThroughput: (750 * 1024) / 8,
  cpuSlowdown: 4,
};

async function throttledLcp(browser: Awaited<ReturnType<typeof launchChromium>>, url: string): Promise<number> {
  const context = await browser.newContext({
    viewport: { width: 412, height: 823 },
    deviceScaleFactor: 1.75,
    isMobile: true,
    hasTouch: true,
  });
  try {
    await context.addInitScript(`globalThis.__lcp = 0; new PerformanceObserver((list) => { for (const e of list.getEntries()) globalThis.__lcp = e.startTime; })
      .observe({ type: 'largest-contentful-paint', buffered: true });`);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: REAL_THROTTLING.latency,
      downloadThroughput: REAL_THROTTLING.downloadThroughput,
      uploadThroughput: REAL_THROTTLING.uploadThroughput,
    });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: REAL_THROTTLING.cpuSlowdown });
    await page.goto(url, { waitUntil: 'load', timeout: 60_000 });
    // Quiet: no request for a while, so a late paint (an image the widget's work delayed) is counted.
    await page.waitForLoadState('networkidle', { timeout: 30_000 }).catch(() => undefined);
    // From the document's first byte: the HTML is the same but for the widget's two tags, so the
    // server's time to answer (which swings by a second on a loaded machine) is not the widget's.
    return await page.evaluate(
      () =>
        (globalThis as unknown as { __lcp: number }).__lcp -
        (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).responseStart,
    );
  } finally {
    await context.close();
  }
}

export const pageImpact: Benchmark = {
  id: 'page-impact',
  title: '2. Page impact (Lighthouse, demo product page with and without the widget)',
  limitSeconds: 600,
  async run(ctx) {
    const chromePath = findChromium();
    if (!chromePath) throw new Unavailable('no Chromium found (install chromium or set CHROME_PATH)');
    const { startDemo } = await loadDemo();
    const demo = await startDemo({ port: 0, sandboxPort: 0, speed: 0, quiet: true });
    ctx.defer(() => demo.close());

    const front = await serveFetch(async (request) => {
      const url = new URL(request.url);
      const off = url.searchParams.get('widget') === 'off';
      url.searchParams.delete('widget');
      const upstream = await fetch(`${demo.url}${url.pathname}${url.search}`, {
        method: request.method,
        headers: { accept: request.headers.get('accept') ?? '*/*' },
      });
      const headers = new Headers([...upstream.headers].filter(([name]) => !HOP_BY_HOP.has(name)));
      if (!off || !(upstream.headers.get('content-type') ?? '').includes('text/html')) {
        return new Response(upstream.body, { status: upstream.status, headers });
      }
      return new Response(withoutWidget(await upstream.text()), { status: upstream.status, headers });
    });
    ctx.defer(() => front.close());

    // The first product page that carries the widget.
    const home = await (await fetch(`${front.url}/`)).text();
    const paths = [...new Set([...home.matchAll(/href="(\/products\/[^"?#]+)"/g)].map((m) => m[1]!))];
    let path: string | undefined;
    let page = '';
    for (const candidate of paths) {
      page = await (await fetch(`${front.url}${candidate}`)).text();
      if (page.includes('<tryon-button')) {
        path = candidate;
        break;
      }
    }
    if (!path) throw new Error('no demo product page carries <tryon-button>');
    const bare = await (await fetch(`${front.url}${path}?widget=off`)).text();
    if (bare.includes('<tryon-button') || bare.includes('tryon-button.js'))
      throw new Error('the copy without the widget still has it');
    const widgetSrc = [...page.matchAll(WIDGET_SCRIPT)][0]?.[1];
    if (!widgetSrc) throw new Error(`${path} has no widget <script src>`);

    const runs = ctx.quick ? 1 : 3;
    const withWidget: Audit[] = [];
    const without: Audit[] = [];
    for (let i = 0; i < runs; i += 1) {
      without.push(await lighthouse(`${front.url}${path}?widget=off`, chromePath));
      withWidget.push(await lighthouse(`${front.url}${path}`, chromePath));
      ctx.log(
        `run ${i + 1}: without score ${without.at(-1)!.score} TBT ${without.at(-1)!.tbt} CLS ${without.at(-1)!.cls.toFixed(3)}; ` +
          `with score ${withWidget.at(-1)!.score} TBT ${withWidget.at(-1)!.tbt} CLS ${withWidget.at(-1)!.cls.toFixed(3)}; ` +
          `long tasks with: ${
            withWidget
              .at(-1)!
              .longTasks.map((task) => `${task.url.replace(front.url, '')} ${Math.round(task.ms)} ms`)
              .join(', ') || 'none'
          }`,
      );
    }
    // The same pages with real throttling in Chromium, alternating too.
    const browser = await launchChromium();
    ctx.defer(() => browser.close());
    const realRuns = ctx.quick ? 1 : 5;
    const realWith: number[] = [];
    const realWithout: number[] = [];
    for (let i = 0; i < realRuns; i += 1) {
      realWithout.push(await throttledLcp(browser, `${front.url}${path}?widget=off`));
      realWith.push(await throttledLcp(browser, `${front.url}${path}`));
    }
    ctx.log(
      `real throttling LCP: without ${realWithout.map((v) => Math.round(v)).join(', ')}; with ${realWith.map((v) => Math.round(v)).join(', ')}`,
    );

    const m = (audits: Audit[], pick: (a: Audit) => number) => median(audits.map(pick));
    const score = [m(without, (a) => a.score), m(withWidget, (a) => a.score)] as const;
    const tbt = [m(without, (a) => a.tbt), m(withWidget, (a) => a.tbt)] as const;
    const cls = [m(without, (a) => a.cls), m(withWidget, (a) => a.cls)] as const;
    const lcp = [m(without, (a) => a.lcp), m(withWidget, (a) => a.lcp)] as const;
    // Tasks Lighthouse attributes to a script served beside the widget's entry (its chunks): each
    // run's longest (0 when none reached 50 ms), and their median, since a task's wall-clock time on
    // a shared machine includes any time the renderer was preempted.
    const widgetFolder = new URL('.', new URL(widgetSrc, `${front.url}${path}`)).href;
    const widgetLongest = withWidget.map((a) =>
      Math.max(0, ...a.longTasks.filter((task) => task.url.startsWith(widgetFolder)).map((task) => task.ms)),
    );
    const widgetTask = median(widgetLongest);
    const signed = (value: number, text: string) => `${value > 0 ? '+' : ''}${text}`;
    // "No measurable change": within Lighthouse's own run-to-run noise on simulated throttling.
    const figures = [
      figure(
        `performance score delta (${score[1]} with, ${score[0]} without)`,
        signed(score[1] - score[0], String(score[1] - score[0])),
        '≥ −2 points',
        score[1] - score[0] >= -2,
      ),
      figure(
        `total blocking time delta (${ms(tbt[1])} with)`,
        signed(tbt[1] - tbt[0], ms(tbt[1] - tbt[0])),
        '0',
        tbt[1] - tbt[0] <= 0,
      ),
      figure(
        `the widget's longest task, median of the runs (Lighthouse long-tasks, 4× CPU; each run: ${widgetLongest.map((task) => (task > 0 ? ms(task) : 'none ≥ 50 ms')).join(', ')})`,
        widgetTask > 0 ? ms(widgetTask) : 'none ≥ 50 ms',
        '< 50 ms',
        widgetTask < 50,
      ),
      figure('layout shift with the widget (CLS)', cls[1].toFixed(3), '0', cls[1] <= 0.001),
      figure(
        `layout shift delta (${cls[0].toFixed(3)} without)`,
        signed(cls[1] - cls[0], (cls[1] - cls[0]).toFixed(3)),
        '0',
        Math.abs(cls[1] - cls[0]) <= 0.001,
      ),
      lcpDeltaFigure('largest contentful paint delta, simulated throttling (Lighthouse)', lcp[1], lcp[0]),
      lcpDeltaFigure(
        `largest contentful paint delta, real throttling (Chromium CDP, median of ${realRuns})`,
        median(realWith),
        median(realWithout),
      ),
    ];
    const shifts = [...new Set(withWidget.flatMap((a) => a.shifts))];
    const ownShifts = [...new Set(without.flatMap((a) => a.shifts))];
    return {
      figures,
      notes: [
        `page ${path}; ${runs} Lighthouse run(s) per variant, alternating; mobile emulation with simulated throttling (Lighthouse defaults); medians compared`,
        `real throttling: CDP Network.emulateNetworkConditions (${REAL_THROTTLING.latency} ms RTT, 1.6 Mbit/s down, 750 kbit/s up) and Emulation.setCPUThrottlingRate ${REAL_THROTTLING.cpuSlowdown}×, 412 × 823 mobile viewport, cache off; LCP read from PerformanceObserver after network idle, counted from the document's first byte (the server's answer time is not the widget's)`,
        '"without" is the same page served with the widget\'s <script> and <tryon-button> removed by the bench\'s forwarder (?widget=off)',
        ...(shifts.length > 0 ? [`elements that shifted with the widget: ${shifts.slice(0, 4).join('; ')}`] : []),
        ...(cls[0] > 0.001
          ? [
              `the page shifts by ${cls[0].toFixed(3)} without the widget too (${ownShifts.slice(0, 4).join('; ')}): that shift is the demo page's own, not the widget's`,
            ]
          : []),
      ],
    };
  },
};
