// The proxy in workerd beside the proxy on Node, in the same run against the same sandbox: a
// status read and the time to first byte of a result file through each, workerd both with one
// isolate's memory store and with the Durable Objects store (what a shared store costs there),
// and the Worker bundle's size against Workers' limits (3 MB gzip free, 10 MB paid).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import type { Benchmark } from './harness.js';
import { figure, kb, median, ms, ratio } from './report.js';
import { startSandbox } from '../../sandbox/server.js';
import { startProxy } from '../../proxy/node.js';
import { buildWorker, serveWorker } from '../../scripts/worker.js';
import {
  CATALOG,
  KEYS,
  SECRET,
  photoHandle,
  startTryon,
  waitForStatus,
  writeAssets,
  type TryonAnswer,
} from '../proxy/stack.js';

const FREE_PLAN_GZIP = 3 * 1024 * 1024;

/** Milliseconds until the first byte of the body, then the body drained. */
async function firstByte(url: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(url);
  const reader = response.body!.getReader();
  await reader.read();
  const elapsed = performance.now() - started;
  while (!(await reader.read()).done) {
    /* drain */
  }
  return elapsed;
}

async function timed(url: string): Promise<number> {
  const started = performance.now();
  await (await fetch(url)).arrayBuffer();
  return performance.now() - started;
}

export const workersRuntime: Benchmark = {
  id: 'workers',
  title: '8. The proxy in workerd beside Node',
  limitSeconds: 180,
  async run(ctx) {
    const dir = mkdtempSync(join(tmpdir(), 'tryon-bench-workers-'));
    ctx.defer(() => rmSync(dir, { recursive: true, force: true }));
    await writeAssets(dir);
    writeFileSync(join(dir, 'catalog.json'), JSON.stringify(CATALOG));
    const bundle = await buildWorker({ catalogPath: join(dir, 'catalog.json'), outFile: join(dir, 'worker.js') });
    const plain = await buildWorker({ outFile: join(dir, 'plain.js') });
    const sandbox = await startSandbox({
      port: 0,
      hostname: '127.0.0.1',
      speed: 0,
      keys: { ...KEYS },
      log: () => undefined,
    });
    ctx.defer(() => sandbox.close());
    const config = {
      TRYON_API_KEY: 'sk_test_a',
      TRYON_BASE_URL: sandbox.url,
      TRYON_PROXY_SECRET: SECRET,
      TRYON_ALLOWED_ORIGINS: 'https://shop.example',
      TRYON_READS_PER_MINUTE: 100_000,
    };
    // Without Durable Objects a Worker serves only in development (production refuses it).
    const worker = await serveWorker(
      bundle,
      { ...config, NODE_ENV: 'development' },
      0,
      { onLine: () => undefined },
      { durable: false },
    );
    ctx.defer(() => worker.close());
    const durable = await serveWorker(bundle, config, 0, { onLine: () => undefined }, { durable: true });
    ctx.defer(() => durable.close());
    const node = await startProxy({
      apiKey: 'sk_test_a',
      baseUrl: sandbox.url,
      secret: SECRET,
      allowedOrigins: ['https://shop.example'],
      catalog: CATALOG,
      assetsDir: dir,
      log: () => undefined,
      limits: { readsPerMinute: 100_000 },
    });
    ctx.defer(() => node.close());
    // One client reading sequentially. Every variant is warmed up first (the isolates' and the
    // object's code compiled, the finished try-on cached), then the rounds alternate: each round
    // reads once from every variant, in an order that rotates, so load on the shared 2 cores falls
    // on all three alike and each median has the same number of reads.
    const rounds = ctx.quick ? 30 : 400;
    const warmup = ctx.quick ? 10 : 100;
    const variants = [
      ['Node', node.url],
      ['workerd', worker.url],
      ['workerd + Durable Objects', durable.url],
    ] as const;
    const targets: { name: string; statusUrl: string; fileUrl: string; reads: number[]; bytes: number[] }[] = [];
    for (const [name, url] of variants) {
      const started = (await (
        await startTryon({ url }, { product: 'dress-aline-indigo', photo: await photoHandle({ url }) })
      ).json()) as TryonAnswer;
      const done = await waitForStatus({ url }, started.tryon, (s) => s.status === 'succeeded');
      targets.push({
        name,
        statusUrl: `${url}/tryons/${started.tryon}`,
        fileUrl: new URL(done.outputs[0]!.url, url).href,
        reads: [],
        bytes: [],
      });
    }
    for (const target of targets) {
      for (let i = 0; i < warmup; i++) await timed(target.statusUrl);
      for (let i = 0; i < warmup / 5; i++) await firstByte(target.fileUrl);
    }
    const interleaved = async (measure: (target: (typeof targets)[number]) => Promise<void>) => {
      for (let i = 0; i < rounds; i++) {
        for (let j = 0; j < targets.length; j++) await measure(targets[(i + j) % targets.length]!);
      }
    };
    await interleaved(async (target) => void target.reads.push(await timed(target.statusUrl)));
    await interleaved(async (target) => void target.bytes.push(await firstByte(target.fileUrl)));
    const figures = [];
    const readMedians: Record<string, number> = {};
    for (const { name, reads, bytes } of targets) {
      readMedians[name] = median(reads);
      figures.push(figure(`${name}: status read (median of ${rounds}, interleaved)`, ms(median(reads))));
      figures.push(figure(`${name}: file, time to first byte (median of ${rounds}, interleaved)`, ms(median(bytes))));
    }
    // A status read asks the shop object once (its allowance and its photo in one call).
    const objects = readMedians['workerd + Durable Objects']! / readMedians.workerd!;
    figures.push(
      figure(
        'Status read, workerd + Durable Objects ÷ workerd alone (the shop object asked once: allowance and forgotten photo together)',
        ratio(objects),
        '≤ 1.3×',
        objects <= 1.3,
      ),
    );
    figures.push(
      figure(
        'Worker bundle, gzip (no catalog images)',
        kb(plain.gzipBytes),
        '≤ 3 MB (Workers free plan)',
        plain.gzipBytes <= FREE_PLAN_GZIP,
      ),
    );
    figures.push(
      figure(
        `Worker bundle, gzip (with ${bundle.images.length} test catalog images)`,
        kb(bundle.gzipBytes),
        '≤ 3 MB (Workers free plan)',
        bundle.gzipBytes <= FREE_PLAN_GZIP,
      ),
    );
    return {
      figures,
      notes: [
        `one client, sequential requests on loopback, ${warmup} warm-up reads per variant, then rounds that read once from each variant in a rotating order; workerd runs under Miniflare with one isolate (the Durable Objects in the same process, as local as they get: on Cloudflare an object is a network hop away, usually in the same data centre)`,
      ],
    };
  },
};
