// 5. Upstream economy: what watching one try-on costs upstream. One held job is watched by 1, 10
// and 100 clients for a fixed window, then released; the sandbox's own request counts
// (/sandbox/state) say how many /v1 requests that took. Side by side: a naive pass-through
// (written here) that forwards every poll, the proxy with polling clients, and the proxy with
// webhooks on, watched by polling clients and by SSE clients as the widget does.
import { randomBytes } from 'node:crypto';
import type { BenchContext, Benchmark } from './harness.js';
import { json } from './harness.js';
import type { Served } from './loopback.js';
import { serveFetch } from './loopback.js';
import { shopperJpeg } from './photos.js';
import type { RunningSandbox, SandboxState } from './project.js';
import {
  BENCH_KEY,
  allJobs,
  holdNextJob,
  loadProxyApp,
  loadSandbox,
  newJob,
  releaseJob,
  sandboxState,
  startBenchProxy,
  upstreamTotal,
} from './project.js';
import { proxySettings, startTryon } from './proxy-overhead.js';
import { startBenchSandbox } from './webhook-relay.js';
import type { Figure } from './report.js';
import { figure } from './report.js';

const TERMINAL = new Set(['succeeded', 'failed']);
const POLL_EVERY_MS = 1000;

type Watch = 'poll' | 'sse';

/** One client polling `url` every second (from a random phase) until the status is terminal. */
async function pollingWatcher(url: string, deadline: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, Math.random() * POLL_EVERY_MS));
  while (Date.now() < deadline) {
    const answer = await json<{ status: string }>(await fetch(url), `GET ${url}`);
    if (TERMINAL.has(answer.status)) return;
    await new Promise((resolve) => setTimeout(resolve, POLL_EVERY_MS));
  }
  throw new Error(`a polling watcher saw no terminal status from ${url}`);
}

/** One client on the Server-Sent Events stream until a terminal status arrives. */
async function sseWatcher(url: string, deadline: number): Promise<void> {
  const response = await fetch(url, {
    headers: { accept: 'text/event-stream' },
    signal: AbortSignal.timeout(Math.max(1, deadline - Date.now())),
  });
  if (!response.ok || !response.body) throw new Error(`GET ${url}: HTTP ${response.status}`);
  const decoder = new TextDecoder();
  let text = '';
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    text += decoder.decode(chunk, { stream: true });
    for (const match of text.matchAll(/^data: ?(.*)$/gm)) {
      const status = (JSON.parse(match[1]!) as { status?: string }).status;
      if (status && TERMINAL.has(status)) {
        await response.body.cancel().catch(() => undefined);
        return;
      }
    }
  }
  throw new Error(`the event stream ${url} closed before a terminal status`);
}

interface Stack {
  sandbox: RunningSandbox;
  proxyUrl: string;
  webhooks: { delivered: number; refused: number };
}

/** A sandbox and a proxy in this process (light load), with webhooks relayed to the proxy when asked. */
async function startStack(ctx: BenchContext, withWebhooks: boolean): Promise<Stack> {
  const bench = await startBenchSandbox(ctx, withWebhooks);
  const extra = bench.webhookSecret ? { webhookSecret: bench.webhookSecret } : {};
  const proxy = await startBenchProxy(await proxySettings(ctx, bench.sandbox.url, extra));
  ctx.defer(() => proxy.close());
  bench.deliverTo(`${proxy.url}/webhooks`);
  return { sandbox: bench.sandbox, proxyUrl: proxy.url, webhooks: bench.webhooks };
}

/** A pass-through that forwards every status read to /v1, as a proxy without sharing would. */
async function startNaive(ctx: BenchContext, sandboxUrl: string): Promise<Served> {
  const headers = { authorization: `Bearer ${BENCH_KEY}` };
  const naive = await serveFetch(async (request) => {
    const jobId = /^\/tryons\/([^/]+)$/.exec(new URL(request.url).pathname)?.[1];
    if (!jobId) return new Response('not found', { status: 404 });
    const job = (await (await fetch(`${sandboxUrl}/v1/jobs/${jobId}`, { headers })).json()) as { status: string };
    // Its answer lists the outputs once there are any, as the proxy's does.
    if (job.status === 'succeeded')
      await (await fetch(`${sandboxUrl}/v1/images/${jobId}/outputs`, { headers })).arrayBuffer();
    return Response.json({ status: job.status });
  });
  ctx.defer(() => naive.close());
  return naive;
}

interface Scenario {
  watchers: number;
  watch: Watch;
  windowMs: number;
}

/**
 * Holds a fresh try-on, lets `watchers` clients watch it for the window, releases it and waits
 * until every client has seen it finish; returns the /v1 requests made meanwhile.
 */
async function upstreamCost(
  stack: Stack,
  url: (handle: string, jobId: string) => string,
  scenario: Scenario,
  photo: Uint8Array,
): Promise<Cost> {
  const { sandbox } = stack;
  const known = new Set(allJobs(await sandboxState(sandbox.url)).map((job) => job.id));
  await holdNextJob(sandbox.url);
  const handle = await startTryon(stack.proxyUrl, photo, `bench-economy-${randomBytes(8).toString('hex')}`);
  const job = await newJob(sandbox.url, known);
  if (!job) throw new Error('the sandbox shows no new job for the try-on');
  const before = await sandboxState(sandbox.url);
  const deadline = Date.now() + scenario.windowMs + 20_000;
  const target = url(handle, job.id);
  const watching = Array.from({ length: scenario.watchers }, () =>
    scenario.watch === 'sse' ? sseWatcher(target, deadline) : pollingWatcher(target, deadline),
  );
  const released = new Promise<void>((resolve, reject) => {
    setTimeout(() => {
      releaseJob(sandbox.url, job.id).then(resolve, reject);
    }, scenario.windowMs);
  });
  await Promise.all([released, ...watching]);
  const after = await sandboxState(sandbox.url);
  return { requests: upstreamTotal(after) - upstreamTotal(before), polls: jobReads(after) - jobReads(before) };
}

interface Cost {
  requests: number;
  polls: number;
}

const jobReads = (state: SandboxState) =>
  Object.entries(state.requests)
    .filter(([route]) => route.startsWith('GET /v1/jobs'))
    .reduce((sum, [, n]) => sum + n, 0);

const cost = (c: Cost) => `${c.requests} (${c.polls} polls)`;

export const upstreamEconomy: Benchmark = {
  id: 'upstream-economy',
  title: '5. Upstream economy (one try-on, many watchers: /v1 requests counted by the sandbox)',
  limitSeconds: 150,
  async run(ctx) {
    await Promise.all([loadSandbox(), loadProxyApp()]);
    const windowMs = ctx.quick ? 2000 : 4000;
    const counts = ctx.quick ? [1, 10] : [1, 10, 100];
    const photo = await shopperJpeg();

    const plain = await startStack(ctx, false);
    const naive = await startNaive(ctx, plain.sandbox.url);
    const hooked = await startStack(ctx, true);

    const rows: { n: number; naive: Cost; proxy: Cost; hookedPoll: Cost; hookedSse: Cost }[] = [];
    for (const n of counts) {
      const scenario = (watch: Watch): Scenario => ({ watchers: n, watch, windowMs });
      const row = {
        n,
        naive: await upstreamCost(plain, (_, jobId) => `${naive.url}/tryons/${jobId}`, scenario('poll'), photo),
        proxy: await upstreamCost(plain, (handle) => `${plain.proxyUrl}/tryons/${handle}`, scenario('poll'), photo),
        hookedPoll: await upstreamCost(
          hooked,
          (handle) => `${hooked.proxyUrl}/tryons/${handle}`,
          scenario('poll'),
          photo,
        ),
        hookedSse: await upstreamCost(
          hooked,
          (handle) => `${hooked.proxyUrl}/tryons/${handle}/events`,
          scenario('sse'),
          photo,
        ),
      };
      ctx.log(
        `${n} watchers: naive ${cost(row.naive)}, proxy ${cost(row.proxy)}, webhooks+poll ${cost(row.hookedPoll)}, webhooks+SSE ${cost(row.hookedSse)}`,
      );
      rows.push(row);
    }

    const one = rows[0]!;
    const figures: Figure[] = [];
    for (const row of rows) {
      // Sharing means the cost does not grow with the audience: within 1.5× (+2) of one watcher's.
      const flat = row.proxy.requests <= one.proxy.requests * 1.5 + 2;
      figures.push(
        figure(`${row.n} watcher(s): naive pass-through`, cost(row.naive)),
        figure(
          `${row.n} watcher(s): proxy, polling clients`,
          cost(row.proxy),
          'flat in watchers, < naive',
          flat && (row.n === 1 || row.proxy.requests < row.naive.requests),
        ),
        figure(
          `${row.n} watcher(s): proxy + webhooks, polling clients`,
          cost(row.hookedPoll),
          'polls ≤ without webhooks',
          row.hookedPoll.polls <= row.proxy.polls,
        ),
        figure(
          `${row.n} watcher(s): proxy + webhooks, SSE clients`,
          cost(row.hookedSse),
          'polls ≤ without webhooks',
          row.hookedSse.polls <= row.proxy.polls,
        ),
      );
    }
    const webhooks = hooked.webhooks;
    return {
      figures,
      notes: [
        `each try-on is held in processing for ${windowMs / 1000} s while watched, then released; polling clients read every ${POLL_EVERY_MS / 1000} s from a random phase; counts are every /v1 request the sandbox saw from the first watcher to the last seeing "succeeded"; "polls" are the GET /v1/jobs/{id} among them, the rest output lists`,
        `webhooks: ${webhooks.delivered} delivered to the proxy and accepted, ${webhooks.refused} refused`,
      ],
    };
  },
};
