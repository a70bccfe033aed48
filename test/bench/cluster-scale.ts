// 7. Many instances on one Redis. Separate `proxy/node.ts` processes (as shops run them) on a
// real redis-server, against one sandbox: status reads per second and their latency through one
// instance with the memory store, one with Redis and three round-robin with Redis, in the same
// run; the store's added latency per status read (sequential reads, medians); upstream polls of
// one watched try-on with one instance and with three; and how long a webhook reaching one
// instance takes to wake an SSE listener on another.
import autocannon from 'autocannon';
import { randomBytes } from 'node:crypto';
import type { Benchmark, BenchContext } from './harness.js';
import { until } from './harness.js';
import type { Figure } from './report.js';
import { figure, median, ms } from './report.js';
import { HandleSigner } from '../../proxy/security/handles.js';
import { startCluster, startInstance, startRedis, type Cluster, type Instance } from '../proxy/cluster.js';
import { SECRET, newRequestId, photoHandle, startTryon } from '../proxy/stack.js';
import { readEvents } from '../proxy/sse.js';

const LAG_GOAL_MS = 300;
const OPEN_LIMITS = {
  TRYON_RATE_PER_MINUTE: '100000',
  TRYON_READS_PER_MINUTE: '10000000',
  TRYON_CLIENT_DAILY_TRYONS: '100000',
  TRYON_DAILY_TRYONS: '100000',
  TRYON_DAILY_CREDITS: '10000000',
};
const signer = new HandleSigner(SECRET);

interface Load {
  p50: number;
  p99: number;
  rps: number;
  failed: number;
}

async function load(url: string | string[], connections: number, seconds: number): Promise<Load> {
  const result = await autocannon({ url, connections, duration: seconds, timeout: 10 });
  return {
    p50: result.latency.p50,
    p99: result.latency.p99,
    rps: result.requests.average,
    failed: result.non2xx + result.errors,
  };
}

async function startedTryon(url: string): Promise<{ handle: string; jobId: string }> {
  const answer = await startTryon(
    { url },
    { product: 'dress-aline-indigo', photo: await photoHandle({ url }), requestId: newRequestId() },
  );
  if (answer.status !== 202) throw new Error(`POST /tryons: HTTP ${answer.status} ${await answer.text()}`);
  const handle = ((await answer.json()) as { tryon: string }).tryon;
  return { handle, jobId: (await signer.open('tryon', handle)).jobId };
}

/** Sequential status reads; the median of their times. */
async function sequentialMedian(url: string, count: number): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const response = await fetch(url);
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`GET ${url}: HTTP ${response.status}`);
    times.push(performance.now() - started);
  }
  return median(times);
}

/** Upstream polls of one held try-on while SSE streams watch it through `watchers` for `windowMs`. */
async function pollsWhileWatched(
  cluster: Cluster,
  submitVia: string,
  watchers: string[],
  windowMs: number,
): Promise<number> {
  await cluster.fault({ jobOutcome: 'hold', times: 1 });
  const { handle, jobId } = await startedTryon(submitVia);
  const polls = async () => (await cluster.state()).workspaces.ws_1!.jobs.find((j) => j.id === jobId)?.polls ?? 0;
  const controller = new AbortController();
  const opened = watchers.map(() => {
    let resolve!: () => void;
    const promise = new Promise<void>((done) => {
      resolve = done;
    });
    return { promise, resolve };
  });
  const streams = watchers.map((url, i) =>
    readEvents(`${url}/tryons/${handle}/events`, () => opened[i]!.resolve(), controller.signal),
  );
  await Promise.all(opened.map((o) => o.promise));
  const before = await polls();
  await new Promise((resolve) => setTimeout(resolve, windowMs)); // the measured window
  const counted = (await polls()) - before;
  controller.abort();
  await Promise.all(streams);
  await cluster.release(jobId);
  return counted;
}

export const clusterScale: Benchmark = {
  id: 'cluster',
  title: '7. Many instances on one Redis (separate node processes, real redis-server)',
  limitSeconds: 240,
  async run(ctx: BenchContext) {
    const seconds = ctx.quick ? 2 : 8;
    const connections = ctx.quick ? 12 : 60;
    const sequential = ctx.quick ? 100 : 500;
    const lagRounds = ctx.quick ? 2 : 8;
    const pollWindowMs = ctx.quick ? 2_000 : 6_000;
    const figures: Figure[] = [];
    const notes: string[] = [];

    const redis = await startRedis();
    ctx.defer(() => redis.close());
    const webhookSecret = `whsec_${randomBytes(24).toString('base64')}`;
    // Polling far slower than the bench: only the fan-out can carry a webhook to another instance.
    const cluster = await startCluster({
      count: 3,
      redis,
      webhookSecret,
      env: { ...OPEN_LIMITS, TRYON_POLL_INTERVAL_MS: '60000' },
    });
    ctx.defer(() => cluster.close());
    const extra: Instance[] = [];
    ctx.defer(() => Promise.all(extra.map((i) => i.close())));
    const memory = await startInstance({ ...cluster.env, TRYON_REDIS_URL: '' });
    extra.push(memory);
    const [a, b, c] = cluster.instances.map((i) => i.url) as [string, string, string];

    // Status reads of one finished try-on.
    const { handle } = await startedTryon(a);
    await until(
      'the try-on to succeed',
      async () => {
        const body = (await (await fetch(`${a}/tryons/${handle}`)).json()) as { status: string };
        return body.status === 'succeeded';
      },
      30_000,
      100,
    );
    await (await fetch(`${memory.url}/tryons/${handle}`)).arrayBuffer();
    const path = `/tryons/${handle}`;
    // Warm every instance up (JIT, connections) before measuring any of them.
    await Promise.all([memory.url, a, b, c].map((u) => load(`${u}${path}`, 4, ctx.quick ? 1 : 2)));
    const one = await load(`${memory.url}${path}`, connections, seconds);
    const oneRedis = await load(`${a}${path}`, connections, seconds);
    const three = await load(
      [a, b, c].map((u) => `${u}${path}`),
      connections,
      seconds,
    );
    const lat = (l: Load) => `p50 ${l.p50 === 0 ? '<1 ms' : ms(l.p50)}, p99 ${ms(l.p99)}`;
    for (const [label, result] of [
      ['1 instance, memory store', one],
      ['1 instance, Redis', oneRedis],
      ['3 instances round-robin, Redis', three],
    ] as const) {
      figures.push(
        figure(
          `status reads/s of a finished try-on, ${label} (${connections} connections)`,
          `${Math.round(result.rps)}/s; ${lat(result)}`,
          undefined,
          result.failed === 0 ? undefined : false,
        ),
      );
      ctx.log(`${label}: ${Math.round(result.rps)}/s ${lat(result)} failed ${result.failed}`);
    }
    // A try-on in progress is read from the store every time (a finished one is kept by each
    // instance: its snapshot never changes); polling is 60 s apart, so no read here polls.
    await cluster.fault({ jobOutcome: 'hold', times: 1 });
    const rendering = await startedTryon(a);
    const renderingPath = `/tryons/${rendering.handle}`;
    await (await fetch(`${memory.url}${renderingPath}`)).arrayBuffer();
    const memoryRead = await sequentialMedian(`${memory.url}${renderingPath}`, sequential);
    const redisRead = await sequentialMedian(`${a}${renderingPath}`, sequential);
    await cluster.release(rendering.jobId);
    figures.push(
      figure(
        `store's added latency per status read of a try-on in progress (median of ${sequential} sequential: Redis ${ms(redisRead)} − memory ${ms(memoryRead)})`,
        ms(redisRead - memoryRead),
      ),
    );

    // Webhook at one instance → SSE event on another.
    const lags: number[] = [];
    for (let round = 0; round < lagRounds; round++) {
      await cluster.fault({ jobOutcome: 'hold', times: 1 });
      const tryon = await startedTryon(b);
      const arrivals: { at: number; url: string }[] = [];
      const opened = [b, c].map(() => {
        let resolve!: () => void;
        const promise = new Promise<void>((done) => {
          resolve = done;
        });
        return { promise, resolve };
      });
      const streams = [b, c].map((url, i) =>
        readEvents(
          `${url}/tryons/${tryon.handle}/events`,
          () => {
            arrivals.push({ at: Date.now(), url });
            opened[i]!.resolve();
          },
          AbortSignal.timeout(30_000),
        ),
      );
      await Promise.all(opened.map((o) => o.promise));
      const delivered = cluster.webhooks.length;
      const released = Date.now();
      await cluster.release(tryon.jobId);
      await Promise.all(streams);
      // Deliveries are listed as they finish; the first to arrive after the release is the news.
      const hookAt = Math.min(
        ...cluster.webhooks
          .slice(delivered)
          .map((h) => h.at)
          .filter((at) => at >= released),
      );
      if (!Number.isFinite(hookAt)) throw new Error('no webhook reached instance 0');
      for (const url of [b, c]) {
        const first = arrivals.find((x) => x.url === url && x.at >= hookAt);
        if (first) lags.push(first.at - hookAt);
      }
    }
    const lagMedian = median(lags);
    const lagMax = Math.max(...lags);
    figures.push(
      figure(
        `webhook at instance 1 → SSE event on instances 2 and 3: median / max of ${lags.length}`,
        `${ms(lagMedian)} / ${ms(lagMax)}`,
        `≤ ${LAG_GOAL_MS} ms`,
        lagMax <= LAG_GOAL_MS,
      ),
    );
    await cluster.close();
    await memory.close();
    extra.length = 0;

    // Upstream polls of one watched try-on, interval 500 ms: one instance (memory), then three (Redis).
    const pollers = await startCluster({ count: 3, redis, env: { ...OPEN_LIMITS, TRYON_POLL_INTERVAL_MS: '500' } });
    ctx.defer(() => pollers.close());
    const single = await startInstance({ ...pollers.env, TRYON_REDIS_URL: '' });
    extra.push(single);
    const alone = await pollsWhileWatched(pollers, single.url, [single.url], pollWindowMs);
    const together = await pollsWhileWatched(
      pollers,
      pollers.instances[0]!.url,
      pollers.instances.map((i) => i.url),
      pollWindowMs,
    );
    const intervals = pollWindowMs / 500;
    figures.push(
      figure(
        `upstream polls of one try-on watched over ${pollWindowMs / 1000} s (interval 500 ms): 1 instance / 3 instances`,
        `${alone} / ${together}`,
        `≤ ${intervals + 1} each (one per interval)`,
        alone <= intervals + 1 && together <= intervals + 1,
      ),
    );

    notes.push(
      `redis-server, the sandbox, four proxy processes and autocannon share the machine's cores: three instances cannot be faster than one here; the figures show what the shared store costs, not how it scales on more cores`,
    );
    notes.push(
      `${seconds} s per load run; round-robin = autocannon spreading its ${connections} connections over the three instances' URLs`,
    );
    return { figures, notes };
  },
};
