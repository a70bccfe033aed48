// 4. Proxy overhead. The sandbox and the proxy each run in a process of their own; autocannon,
// here, reads one finished try-on's status through the proxy (GET /tryons/{h}) and the same
// status straight from the sandbox (GET /v1/jobs/{id}), back to back in one run, at 50 and 200
// connections; the figures are proxy ÷ direct ratios. Then 50 shoppers upload an 8 MB photo at
// once through a fresh proxy process whose resident memory is sampled every 10 ms.
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BenchContext, Benchmark } from './harness.js';
import { json, until } from './harness.js';
import { garmentPng, jpegOfSize, shopperJpeg } from './photos.js';
import {
  BENCH_KEY,
  BENCH_KEYS,
  UNLIMITED,
  allJobs,
  benchCatalog,
  loadProxyApp,
  loadSandbox,
  sandboxState,
  upstreamTotal,
} from './project.js';
import type { Figure } from './report.js';
import { figure, mb, ms, ratio } from './report.js';
import { pairedLoad, type Load } from './paired-load.js';
import type { ServerProcess } from './server-process.js';
import { spawnServer } from './server-process.js';

/** A status read through the proxy costs at most 1.5× the sandbox's own read, at p50 and p99. */
export const RATIO_GOAL = 1.5;
/** The proxy's GET /health within 10 % of a bare Hono app's (req/s). */
export const HEALTH_FLOOR_GOAL = 0.9;
const UPLOAD_SIZE = 8 * 1024 * 1024;

/** CPU time per answer (µs) of a load whose target counted its process's CPU. */
const cpuPerAnswer = (load: Load) => load.counted.cpu! / load.requests;
const cpuEach = (load: Load) => `${Math.round(cpuPerAnswer(load))} µs`;
const cpuRatio = (load: Load, floor: Load) => ratio(cpuPerAnswer(load) / cpuPerAnswer(floor));

/** Writes the garment image and returns the proxy options every proxy bench shares. */
export async function proxySettings(ctx: BenchContext, baseUrl: string, extra: Record<string, unknown> = {}) {
  const assetsDir = ctx.scratch('assets');
  writeFileSync(join(assetsDir, 'garment.png'), await garmentPng());
  return {
    apiKey: BENCH_KEY,
    baseUrl,
    secret: randomBytes(32).toString('hex'),
    allowedOrigins: [],
    catalog: benchCatalog('garment.png'),
    assetsDir,
    // Dropped when the settings travel to a child process as JSON; the child adds its own.
    readAsset: async (path: string) => new Uint8Array(await readFile(path)),
    limits: { ...UNLIMITED, ...(extra.limits as Record<string, number> | undefined) },
    ...Object.fromEntries(Object.entries(extra).filter(([key]) => key !== 'limits')),
  };
}

export async function uploadPhoto(proxyUrl: string, photo: Uint8Array): Promise<Response> {
  const form = new FormData();
  form.append('photo', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), 'photo.jpg');
  return fetch(`${proxyUrl}/photos`, { method: 'POST', body: form });
}

/** Uploads a shopper photo and starts a try-on of the bench product; returns the try-on handle. */
export async function startTryon(proxyUrl: string, photo: Uint8Array, requestId: string): Promise<string> {
  const uploaded = await json<{ photo: string }>(await uploadPhoto(proxyUrl, photo), 'POST /photos');
  const started = await json<{ tryon: string }>(
    await fetch(`${proxyUrl}/tryons`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ product: 'bench-saree', photo: uploaded.photo, consent: true, requestId }),
    }),
    'POST /tryons',
  );
  return started.tryon;
}

export async function tryonStatus(proxyUrl: string, handle: string): Promise<string> {
  return (await json<{ status: string }>(await fetch(`${proxyUrl}/tryons/${handle}`), 'GET /tryons/{h}')).status;
}

export const proxyOverhead: Benchmark = {
  id: 'proxy-overhead',
  title: '4. Proxy overhead (autocannon, proxy ÷ sandbox in the same run) and streamed uploads',
  limitSeconds: 180,
  async run(ctx) {
    const stalledOnly = Number(process.env.BENCH_STALLED_RUNS);
    if (Number.isInteger(stalledOnly) && stalledOnly > 0) return stalledRuns(ctx, stalledOnly);
    await Promise.all([loadSandbox(), loadProxyApp()]);
    const seconds = ctx.quick ? 2 : 8;
    const levels = ctx.quick ? [5, 20] : [50, 200];
    const uploads = ctx.quick ? 5 : 50;

    const sandbox = await spawnServer({ kind: 'sandbox', keys: BENCH_KEYS, speed: 0 });
    ctx.defer(() => sandbox.stop());
    const proxy = await spawnServer({ kind: 'proxy', options: await proxySettings(ctx, sandbox.url) });
    ctx.defer(() => proxy.stop());
    const bare = await spawnServer({ kind: 'bare-hono' });
    ctx.defer(() => bare.stop());
    const sameHead = await spawnServer({ kind: 'bare-hono-same-head' });
    ctx.defer(() => sameHead.stop());

    const handle = await startTryon(proxy.url, await shopperJpeg(), 'bench-overhead-0001');
    await until(
      'the try-on to succeed',
      async () => (await tryonStatus(proxy.url, handle)) === 'succeeded',
      30_000,
      100,
    );
    const job = allJobs(await sandboxState(sandbox.url)).find((j) => j.parent === null);
    if (!job) throw new Error('the sandbox shows no job for the try-on');

    const figures: Figure[] = [];
    const notes: string[] = [];
    for (const connections of levels) {
      const [through, direct] = await pairedLoad(
        {
          url: `${proxy.url}/tryons/${handle}`,
          counters: {
            cpu: () => proxy.cpuMicros(),
            upstream: async () => upstreamTotal(await sandboxState(sandbox.url)),
          },
        },
        {
          url: `${sandbox.url}/v1/jobs/${job.id}`,
          headers: { authorization: `Bearer ${BENCH_KEY}` },
          counters: { cpu: () => sandbox.cpuMicros() },
        },
        connections,
        seconds,
      );
      // Counted around the proxy's slices only: the direct reads in between are /v1 requests too.
      const upstream = through.counted.upstream!;
      ctx.log(
        `${connections} connections: proxy p50 ${through.p50} p99 ${through.p99} ${Math.round(through.rps)} req/s; direct p50 ${direct.p50} p99 ${direct.p99} ${Math.round(direct.rps)} req/s`,
      );
      // Exact times (paired-load.ts), so no whole-millisecond floor is needed.
      const p50 = through.p50 / direct.p50;
      const p99 = through.p99 / direct.p99;
      const lat = (value: number) => (value < 10 ? `${value.toFixed(2)} ms` : ms(value));
      const clean = through.non2xx + through.errors + direct.non2xx + direct.errors === 0;
      figures.push(
        figure(
          `${connections} conn: p50 ratio (${lat(through.p50)} ÷ ${lat(direct.p50)})`,
          ratio(p50),
          `≤ ${RATIO_GOAL}`,
          clean && p50 <= RATIO_GOAL,
        ),
        figure(
          `${connections} conn: p99 ratio (${lat(through.p99)} ÷ ${lat(direct.p99)})`,
          ratio(p99),
          `≤ ${RATIO_GOAL}`,
          clean && p99 <= RATIO_GOAL,
        ),
        figure(
          `${connections} conn: req/s through proxy ÷ direct`,
          `${Math.round(through.rps)} ÷ ${Math.round(direct.rps)}`,
        ),
        figure(
          `${connections} conn: CPU per status read, proxy ÷ sandbox (${cpuEach(through)} ÷ ${cpuEach(direct)})`,
          cpuRatio(through, direct),
        ),
      );
      notes.push(
        `${connections} connections: ${through.requests} status reads through the proxy cost ${upstream} upstream requests` +
          (clean
            ? ''
            : `; errors: proxy ${through.non2xx} non-2xx/${through.errors} failed, direct ${direct.non2xx}/${direct.errors}`),
      );
      if (connections === levels[0]) {
        // What every proxy answer pays before any route runs (middleware, Node server): splits
        // the overhead between the stack and the status route itself.
        // Beside it the framework's floor: a bare Hono app on @hono/node-server, in its own process.
        const cpu = { cpu: () => proxy.cpuMicros() };
        const [health, floorHealth] = await pairedLoad(
          { url: `${proxy.url}/health`, counters: cpu },
          { url: `${bare.url}/health`, counters: { cpu: () => bare.cpuMicros() } },
          connections,
          seconds,
        );
        // The bare app sends one header; the proxy sends twelve security headers and a request id,
        // which Node validates and writes one by one. The same app sending that head from its route
        // (the cheapest way Hono can) is the framework's floor for the proxy's answer.
        const [healthAgain, sameHeadHealth] = await pairedLoad(
          { url: `${proxy.url}/health`, counters: cpu },
          { url: `${sameHead.url}/health`, counters: { cpu: () => sameHead.cpuMicros() } },
          connections,
          seconds,
        );
        // And the head's own cost: the same app with and without it, the ceiling for any app that
        // must send it (every proxy answer carries the security headers and a request id).
        const [sameHeadAgain, bareAgain] = await pairedLoad(
          { url: `${sameHead.url}/health` },
          { url: `${bare.url}/health` },
          connections,
          seconds,
        );
        const share = health.rps / floorHealth.rps;
        const sameHeadShare = healthAgain.rps / sameHeadHealth.rps;
        const headShare = sameHeadAgain.rps / bareAgain.rps;
        const clean = (...loads: Load[]) => loads.every((each) => each.non2xx + each.errors === 0);
        figures.push(
          figure(
            `${connections} conn: proxy GET /health ÷ bare Hono app, req/s (${Math.round(health.rps)} ÷ ${Math.round(floorHealth.rps)})`,
            ratio(share),
            `≥ ${HEALTH_FLOOR_GOAL}× (within 10 %)`,
            clean(health, floorHealth) && share >= HEALTH_FLOOR_GOAL,
          ),
          figure(
            `${connections} conn: CPU per GET /health, proxy ÷ bare Hono app (${cpuEach(health)} ÷ ${cpuEach(floorHealth)})`,
            cpuRatio(health, floorHealth),
          ),
          figure(
            `${connections} conn: proxy GET /health ÷ bare Hono app sending the same head, req/s (${Math.round(healthAgain.rps)} ÷ ${Math.round(sameHeadHealth.rps)})`,
            ratio(sameHeadShare),
            `≥ ${HEALTH_FLOOR_GOAL}× (ours: the product's 10 %, against the floor for the proxy's head)`,
            clean(healthAgain, sameHeadHealth) && sameHeadShare >= HEALTH_FLOOR_GOAL,
          ),
          figure(
            `${connections} conn: CPU per GET /health, proxy ÷ bare Hono app sending the same head (${cpuEach(healthAgain)} ÷ ${cpuEach(sameHeadHealth)})`,
            cpuRatio(healthAgain, sameHeadHealth),
          ),
          figure(
            `${connections} conn: the head alone: bare Hono app sending the proxy's head ÷ the same app sending one header, req/s (${Math.round(sameHeadAgain.rps)} ÷ ${Math.round(bareAgain.rps)})`,
            ratio(headShare),
          ),
        );
      }
    }
    notes.push(
      `${seconds} s per measurement; sandbox, proxy and autocannon are three processes on the same 2 shared cores, so ratios, not absolute times, carry the meaning`,
    );

    const memory = await uploadMemory(ctx, sandbox.url, uploads);
    figures.push(...memory.figures);
    notes.push(...memory.notes);
    return { figures, notes };
  },
};

async function uploadMemory(
  ctx: BenchContext,
  sandboxUrl: string,
  count: number,
): Promise<{ figures: Figure[]; notes: string[] }> {
  const photo = await jpegOfSize(UPLOAD_SIZE);
  // A fresh proxy, so that its baseline is not what the load test left on its heap.
  const burst = await freshServer(ctx, sandboxUrl);
  const baseline = await burst.memory();
  const answers = await uploadAll(burst.url, photo, count);
  const after = await burst.memory();
  await burst.stop();
  const created = answers.filter((status) => status === 201).length;
  const growth = after.peakRss - baseline.rss;
  const naive = count * UPLOAD_SIZE;
  // "Far below" buffering every upload: under a quarter of what holding them all would take.
  const goal = naive / 4;
  ctx.log(`uploads: ${created}/${count} created; rss ${baseline.rss} → peak ${after.peakRss} (maxRSS ${after.maxRss})`);

  // The sharper test: the upstream accepts the connection but reads nothing for a while. A
  // streamed upload then waits with only the bytes in flight; a buffered one is read whole into
  // the proxy's memory (ArrayBuffers) meanwhile.
  const stalledCount = Math.min(count, STALLED_UPLOADS);
  const { held, answers: stalledAnswers } = await stalledUploads(ctx, sandboxUrl, photo, stalledCount, 'proxy');

  return {
    figures: [
      figure(
        `${count} concurrent 8 MB uploads accepted`,
        `${created}/${count}`,
        `${count}/${count}`,
        created === count,
      ),
      figure('proxy peak resident memory during them', mb(after.peakRss)),
      figure(
        `proxy memory growth over its ${mb(baseline.rss)} baseline`,
        mb(growth),
        `< ${mb(goal)} (¼ of ${count} × 8 MB)`,
        created === count && growth < goal,
      ),
      figure(
        `bytes the proxy holds per 8 MB upload while upstream stalls (${stalledCount} uploads)`,
        mb(held),
        `≤ ${mb(HELD_GOAL)} (bytes in flight)`,
        stalledAnswers.every((status) => status === 201) && held <= HELD_GOAL,
      ),
    ],
    notes: [
      `kernel maxRSS of the proxy process: ${mb(after.maxRss)}; answers: ${summarize(answers)}; with upstream stalled 3 s: ${summarize(stalledAnswers)}`,
      'held bytes = the most ArrayBuffer memory the proxy kept after garbage collection (looked at every ~100 ms) over its quiet level, per upload, while the sandbox delays reading /v1/files by 3 s',
    ],
  };
}

/**
 * `count` uploads of `photo` at once, each answer read to its end: their statuses. A connection that
 * fails (a reset under load) is counted as status 0, never an unhandled rejection.
 */
function uploadAll(url: string, photo: Uint8Array, count: number): Promise<number[]> {
  return Promise.all(
    Array.from({ length: count }, () =>
      uploadPhoto(url, photo).then(
        async (answer) => {
          await answer.arrayBuffer();
          return answer.status;
        },
        () => 0,
      ),
    ),
  );
}

/** What the proxy holds per stalled 8 MB upload, at most. */
const HELD_GOAL = 2 * 1024 * 1024;
const STALLED_UPLOADS = 10;

/**
 * Uploads `count` photos at once through a fresh `kind` process while the sandbox delays reading
 * POST /v1/files by 3 s; gives the most ArrayBuffer memory held over the quiet level, per upload.
 */
async function stalledUploads(
  ctx: BenchContext,
  sandboxUrl: string,
  photo: Uint8Array,
  count: number,
  kind: 'proxy' | 'forwarder',
): Promise<{ held: number; answers: number[] }> {
  const server = await freshServer(ctx, sandboxUrl, kind);
  const fault = await fetch(`${sandboxUrl}/sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ match: 'POST /v1/files', delayMs: 3000, times: count }),
  });
  if (fault.status !== 201) throw new Error(`POST /sandbox/faults: HTTP ${fault.status}`);
  const quiet = await server.memory({ collect: true });
  let settled = false;
  const uploads = uploadAll(server.url, photo, count).finally(() => {
    settled = true;
  });
  // Garbage (copies already passed on) is collected before each look: what is left is held.
  let live = 0;
  while (!settled) {
    live = Math.max(live, (await server.memory({ collect: true })).arrayBuffers);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const answers = await uploads;
  await server.stop();
  return { held: Math.max(0, live - quiet.arrayBuffers) / count, answers };
}

/**
 * BENCH_STALLED_RUNS=n: only the stalled-upload figure, n times for the proxy and n times for the
 * plain forwarder (the control), alternating, each in a fresh process; every run is reported.
 */
export async function stalledRuns(ctx: BenchContext, runs: number): Promise<{ figures: Figure[]; notes: string[] }> {
  await Promise.all([loadSandbox(), loadProxyApp()]);
  const sandbox = await spawnServer({ kind: 'sandbox', keys: BENCH_KEYS, speed: 0 });
  ctx.defer(() => sandbox.stop());
  const photo = await jpegOfSize(UPLOAD_SIZE);
  // Finer than mb(): the runs differ by tens of kilobytes, and a 64 KB chunk is the unit that matters.
  const kb = (bytes: number) => `${Math.round(bytes / 1024)} KB`;
  const held: Record<'proxy' | 'forwarder', number[]> = { proxy: [], forwarder: [] };
  const answers: Record<'proxy' | 'forwarder', number[]> = { proxy: [], forwarder: [] };
  for (let run = 0; run < runs; run++) {
    for (const kind of ['proxy', 'forwarder'] as const) {
      const result = await stalledUploads(ctx, sandbox.url, photo, STALLED_UPLOADS, kind);
      held[kind].push(result.held);
      answers[kind].push(...result.answers);
      ctx.log(`run ${run + 1}: ${kind} held ${kb(result.held)} per upload; answers ${summarize(result.answers)}`);
    }
  }
  const accepted = answers.proxy.every((status) => status === 201);
  return {
    figures: [
      figure(
        `proxy: bytes held per stalled 8 MB upload, each of ${runs} runs (${STALLED_UPLOADS} uploads each)`,
        held.proxy.map(kb).join(', '),
        `≤ ${mb(HELD_GOAL)} every run`,
        accepted && held.proxy.every((each) => each <= HELD_GOAL),
      ),
      figure('control, plain Node forwarder, same method', held.forwarder.map(kb).join(', ')),
    ],
    notes: [
      `proxy answers: ${summarize(answers.proxy)}; forwarder answers (its multipart is not what /v1/files wants, so a 4xx is expected): ${summarize(answers.forwarder)}`,
    ],
  };
}

async function freshServer(
  ctx: BenchContext,
  sandboxUrl: string,
  kind: 'proxy' | 'forwarder' = 'proxy',
): Promise<ServerProcess> {
  const proxy =
    kind === 'proxy'
      ? await spawnServer({ kind: 'proxy', options: await proxySettings(ctx, sandboxUrl) })
      : await spawnServer({ kind: 'forwarder', upstream: sandboxUrl, apiKey: BENCH_KEY });
  ctx.defer(() => proxy.stop());
  // One small upload first: the garment upload and lazy module loading are not what is measured.
  const warm = await uploadPhoto(proxy.url, await shopperJpeg());
  if (kind === 'proxy' && warm.status !== 201)
    throw new Error(`warm-up upload: HTTP ${warm.status} ${await warm.text()}`);
  await warm.arrayBuffer();
  await proxy.resetPeak();
  return proxy;
}

function summarize(statuses: number[]): string {
  const counts = new Map<number, number>();
  for (const status of statuses) counts.set(status, (counts.get(status) ?? 0) + 1);
  return [...counts].map(([status, n]) => `${n} × ${status}`).join(', ');
}
