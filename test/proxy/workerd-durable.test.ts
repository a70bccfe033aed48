// The proxy on the Durable Objects store, run as several isolates of one deployment: the same
// Worker bundle served as two or three Workers in one workerd (Miniflare from npm), each on its
// own port, all bound to the same TRYON_TRYONS and TRYON_SHOP objects, against the real sandbox
// over loopback. Requests are spread over the isolates; every guard must hold as if there were one.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { startSandbox } from '../../sandbox/server.js';
import { HandleSigner } from '../../proxy/security/handles.js';
import { buildWorker, serveWorkerIsolates, type ServedIsolates, type WorkerBundle } from '../../scripts/worker.js';
import {
  startTestSandbox,
  CATALOG,
  SECRET,
  photoHandle,
  startTryon,
  writeAssets,
  type SandboxState,
  type StatusAnswer,
  type TryonAnswer,
} from './stack.js';
import { readEvents } from './sse.js';

const WEBHOOK_SECRET = `whsec_${randomBytes(24).toString('base64')}`;
const ORIGIN = 'https://shop.example';
const RANK: Record<string, number> = { queued: 0, processing: 1, succeeded: 2, failed: 2 };

interface Forwarded {
  id: string;
  type: string;
  job: string;
  statuses: number[];
}

describe('the proxy in several workerd isolates sharing Durable Objects', () => {
  let dir: string;
  let bundle: WorkerBundle;
  let sandbox: Awaited<ReturnType<typeof startSandbox>>;
  let relay: ReturnType<typeof serve>;
  /** Where the relay hands the sandbox's webhooks: every delivery to each of these isolates. */
  let webhookTargets: string[] = [];
  /** Root jobs whose webhooks the relay drops (an earlier test's, still on their way). */
  let staleJobs = new Set<string>();
  const forwarded: Forwarded[] = [];
  /** Told after each delivery the relay has handed on. */
  let onForwarded: (() => void) | undefined;
  const served: ServedIsolates[] = [];

  const state = async () => (await (await fetch(`${sandbox.url}/sandbox/state`)).json()) as SandboxState;
  const rootJobs = async () => (await state()).workspaces.ws_1!.jobs.filter((job) => job.parent === null);
  const holdNext = async (times: number) => {
    const response = await fetch(`${sandbox.url}/sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jobOutcome: 'hold', times }),
    });
    assert.equal(response.status < 300, true, await response.text());
  };
  const jobIdOf = async (tryon: string) => (await new HandleSigner(SECRET).open('tryon', tryon)).jobId;

  /** `count` isolates with these variables; their workerd output lines go to `lines`. */
  const isolates = async (
    count: number,
    extra: Record<string, string | number>,
    lines: string[] = [],
    hear?: () => void,
  ) => {
    const env = {
      TRYON_API_KEY: 'sk_test_a',
      TRYON_BASE_URL: sandbox.url,
      TRYON_PROXY_SECRET: SECRET,
      TRYON_ALLOWED_ORIGINS: ORIGIN,
      ...extra,
    };
    const started = await serveWorkerIsolates(bundle, env, count, {
      output: {
        onLine: (line) => {
          lines.push(line);
          hear?.();
        },
      },
    });
    served.push(started);
    return started.urls;
  };

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tryon-workerd-durable-'));
    await writeAssets(dir);
    await writeFile(join(dir, 'catalog.json'), JSON.stringify(CATALOG));
    bundle = await buildWorker({ catalogPath: join(dir, 'catalog.json'), outFile: join(dir, 'worker.js') });
    const relayUrl = await new Promise<string>((resolve) => {
      relay = serve(
        {
          port: 0,
          hostname: '127.0.0.1',
          fetch: async (request) => {
            const body = await request.text();
            const { type, data } = JSON.parse(body) as { type: string; data: { id: string; parent?: string | null } };
            const targets = staleJobs.has(data.parent ?? data.id) ? [] : webhookTargets;
            const statuses = await Promise.all(
              targets.map(async (target) => {
                const response = await fetch(`${target}/webhooks`, { method: 'POST', headers: request.headers, body });
                await response.arrayBuffer();
                return response.status;
              }),
            );
            forwarded.push({ id: request.headers.get('webhook-id') ?? '', type, job: data.id, statuses });
            onForwarded?.();
            return new Response(null, { status: 204 });
          },
        },
        (info: AddressInfo) => resolve(`http://127.0.0.1:${info.port}`),
      );
    });
    sandbox = await startTestSandbox({
      webhookUrl: `${relayUrl}/webhooks`,
      webhookSecret: WEBHOOK_SECRET,
    });
  });
  after(async () => {
    await Promise.all(served.map((isolate) => isolate.close()));
    await new Promise<void>((resolve) => relay.close(() => resolve()));
    await sandbox.close();
    await rm(dir, { recursive: true, force: true });
  });

  describe('three isolates, a daily budget of 3', () => {
    let urls: string[];
    const photos: string[] = [];
    const accepted: string[] = [];
    let burstStarted = 0;

    before(async () => {
      webhookTargets = [];
      urls = await isolates(3, { TRYON_DAILY_TRYONS: 3, TRYON_POLL_INTERVAL_MS: 100, TRYON_READS_PER_MINUTE: 100_000 });
      for (const url of urls) photos.push(await photoHandle({ url }));
    });

    it('the budget is exact under a parallel burst of 12 distinct submits spread over the isolates', async () => {
      const jobsBefore = (await rootJobs()).length;
      await holdNext(3); // the accepted try-ons stay in processing, for the status reads below
      burstStarted = Date.now();
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          startTryon({ url: urls[i % 3]! }, { product: 'dress-aline-indigo', photo: photos[i % 3] }),
        ),
      );
      const statuses = answers.map((response) => response.status);
      assert.equal(statuses.filter((s) => s === 202).length, 3, statuses.join(','));
      for (const response of answers) {
        if (response.status === 202) {
          accepted.push(((await response.json()) as TryonAnswer).tryon);
          continue;
        }
        const body = (await response.json()) as { error: { code: string; retryable: boolean } };
        assert.deepEqual(
          [response.status, body.error.code, body.error.retryable],
          [503, 'daily_budget_reached', false],
        );
      }
      assert.equal((await rootJobs()).length - jobsBefore, 3, 'exactly three try-ons reached upstream');
    });

    it('status reads spread over the isolates never go backwards, and upstream is polled once per interval at most', async () => {
      assert.equal(accepted.length, 3);
      const isolateCount = urls.length;
      let released = false;
      let letGo!: () => void;
      const allSeenHeld = new Promise<void>((resolve) => {
        letGo = resolve;
      });
      const heldReads = new Map<string, number>();
      /** One shopper per try-on, reading one isolate after another, each read after the last answered. */
      const reader = async (tryon: string) => {
        const seen: { status: string; outputs: number }[] = [];
        for (let i = 0; !released || seen.at(-1)?.status !== 'succeeded'; i++) {
          const response = await fetch(`${urls[i % isolateCount]}/tryons/${tryon}`);
          assert.equal(response.status, 200);
          const body = (await response.json()) as StatusAnswer;
          seen.push({ status: body.status, outputs: body.outputs.length });
          if (seen.length > 5_000) throw new Error(`no end: ${JSON.stringify(seen.slice(-3))}`);
          // Every shopper has seen the held try-on through every isolate twice: now let them finish.
          if (body.status === 'processing') heldReads.set(tryon, (heldReads.get(tryon) ?? 0) + 1);
          if (accepted.every((t) => (heldReads.get(t) ?? 0) >= 2 * isolateCount)) letGo();
        }
        return seen;
      };
      const reading = accepted.map((tryon) => reader(tryon));
      const heldJobs = await Promise.all(accepted.map(jobIdOf));
      await allSeenHeld;
      released = true;
      for (const jobId of heldJobs) await fetch(`${sandbox.url}/sandbox/jobs/${jobId}/release`, { method: 'POST' });
      const sequences = await Promise.all(reading);
      const elapsed = Date.now() - burstStarted;
      for (const seen of sequences) {
        for (let i = 1; i < seen.length; i++) {
          assert.ok(
            RANK[seen[i]!.status]! >= RANK[seen[i - 1]!.status]!,
            `read ${i} went back: ${seen[i - 1]!.status} → ${seen[i]!.status}`,
          );
        }
        assert.ok(
          seen.some((read) => read.status === 'processing'),
          'the held state was read',
        );
        assert.equal(seen.at(-1)!.outputs, 1);
      }
      // Reads of a finished try-on through every isolate: the same, final answer.
      for (const tryon of accepted) {
        for (const url of urls) {
          const body = (await (await fetch(`${url}/tryons/${tryon}`)).json()) as StatusAnswer;
          assert.deepEqual([body.status, body.outputs.length], ['succeeded', 1]);
        }
      }
      // The right to poll is granted once per 100 ms interval for all isolates together.
      for (const jobId of heldJobs) {
        const { polls } = (await rootJobs()).find((j) => j.id === jobId)!;
        assert.ok(polls <= Math.ceil(elapsed / 100) + 1, `${polls} polls in ${elapsed} ms`);
      }
    });
  });

  describe('two isolates, webhooks on, 2 try-ons per photo', () => {
    let a: string;
    let b: string;
    const lines: string[] = [];
    let onLine: (() => void) | undefined;
    /** Resolves once the workerd output since `from` satisfies `done` (it arrives a moment after the answers). */
    const heard = (from: number, done: (said: string[]) => boolean) =>
      new Promise<string[]>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`not heard: ${lines.slice(from).join('\n')}`)), 10_000);
        const check = () => {
          if (!done(lines.slice(from))) return;
          clearTimeout(timer);
          onLine = undefined;
          resolve(lines.slice(from));
        };
        onLine = check;
        check();
      });

    before(async () => {
      // Polling far slower than the tests: only a webhook can bring news in time.
      [a, b] = (await isolates(
        2,
        {
          TRYON_WEBHOOK_SECRET: WEBHOOK_SECRET,
          TRYON_POLL_INTERVAL_MS: 120_000,
          TRYON_TRYONS_PER_PHOTO: 2,
          TRYON_RATE_PER_MINUTE: 1_000,
        },
        lines,
        () => onLine?.(),
      )) as [string, string];
    });

    it('the per-photo cap is exact over both isolates', async () => {
      webhookTargets = [];
      const photo = await photoHandle({ url: a });
      const jobsBefore = (await rootJobs()).length;
      const answers = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          startTryon({ url: i % 2 ? b : a }, { product: 'dress-aline-indigo', photo }),
        ),
      );
      const statuses = answers.map((response) => response.status);
      assert.equal(statuses.filter((s) => s === 202).length, 2, statuses.join(','));
      for (const response of answers.filter((r) => r.status !== 202)) {
        const body = (await response.json()) as { error: { code: string } };
        assert.deepEqual([response.status, body.error.code], [429, 'photo_limit_reached']);
      }
      assert.equal((await rootJobs()).length - jobsBefore, 2);
    });

    it('a photo forgotten through one isolate is refused through the other', async () => {
      webhookTargets = [];
      const photo = await photoHandle({ url: a });
      const started = await startTryon({ url: a }, { product: 'dress-aline-indigo', photo });
      assert.equal(started.status, 202);
      const { tryon } = (await started.json()) as TryonAnswer;
      assert.equal((await fetch(`${b}/tryons/${tryon}`)).status, 200, 'known on the other isolate before');
      assert.equal((await fetch(`${a}/photos/${photo}`, { method: 'DELETE' })).status, 204);
      const again = await startTryon({ url: b }, { product: 'dress-aline-indigo', photo });
      assert.equal(again.status, 404);
      assert.equal(((await again.json()) as { error: { code: string } }).error.code, 'invalid_handle');
      const status = await fetch(`${b}/tryons/${tryon}`);
      assert.equal(status.status, 404);
      assert.equal(((await status.json()) as { error: { code: string } }).error.code, 'invalid_handle');
    });

    it('a garment is uploaded upstream once for both isolates, however many first try-ons race', async () => {
      webhookTargets = [];
      const photos = [await photoHandle({ url: a }), await photoHandle({ url: b })];
      const uploadsBefore = (await state()).requests['POST /v1/files']!;
      const answers = await Promise.all(
        Array.from({ length: 4 }, (_, i) =>
          startTryon({ url: i % 2 ? b : a }, { product: 'saree-banarasi-red', photo: photos[Math.floor(i / 2)] }),
        ),
      );
      assert.deepEqual(
        answers.map((response) => response.status),
        [202, 202, 202, 202],
      );
      assert.equal((await state()).requests['POST /v1/files']! - uploadsBefore, 1, 'one upload of the garment image');
    });

    it('a webhook delivered to both isolates is acted on once', async () => {
      staleJobs = new Set((await rootJobs()).map((job) => job.id));
      const from = lines.length;
      const deliveredBefore = forwarded.length;
      webhookTargets = [a, b];
      const started = await startTryon(
        { url: a },
        { product: 'dress-aline-indigo', photo: await photoHandle({ url: b }) },
      );
      assert.equal(started.status, 202);
      const jobId = await jobIdOf(((await started.json()) as TryonAnswer).tryon);
      // speed 0: the job has finished; its webhooks follow, one chain per job.
      const succeeded = await new Promise<Forwarded[]>((resolve) => {
        onForwarded = () => {
          const mine = forwarded.slice(deliveredBefore);
          if (!mine.some((delivery) => delivery.type === 'job.succeeded' && delivery.job === jobId)) return;
          onForwarded = undefined;
          resolve(mine);
        };
        onForwarded();
      });
      assert.ok((await state()).workspaces.ws_1!.jobs.some((job) => job.id === jobId));
      const mine = succeeded.filter((delivery) => delivery.statuses.length > 0);
      for (const delivery of mine) assert.deepEqual(delivery.statuses, [204, 204]);
      const deliveries = mine.length;
      const said = await heard(
        from,
        (out) => out.filter((line) => /"event":"webhook(_duplicate)?"/.test(line)).length >= 2 * deliveries,
      );
      assert.equal(
        said.filter((line) => line.includes('"event":"webhook"')).length,
        deliveries,
        'each event applied once',
      );
      assert.equal(
        said.filter((line) => line.includes('"event":"webhook_duplicate"')).length,
        deliveries,
        'and dropped once as a redelivery',
      );
    });

    it('an SSE stream held on one isolate is woken by a signed webhook delivered to the other', async () => {
      webhookTargets = [b];
      const photo = await photoHandle({ url: a });
      await holdNext(1);
      const started = await startTryon({ url: a }, { product: 'dress-aline-indigo', photo });
      assert.equal(started.status, 202);
      const { tryon } = (await started.json()) as TryonAnswer;
      const jobId = await jobIdOf(tryon);
      let opened!: () => void;
      const firstEvent = new Promise<void>((resolve) => {
        opened = resolve;
      });
      const stream = readEvents(`${a}/tryons/${tryon}/events`, () => opened(), AbortSignal.timeout(20_000));
      await firstEvent;
      await fetch(`${sandbox.url}/sandbox/jobs/${jobId}/release`, { method: 'POST' });
      const events = (await stream).map((event) => JSON.parse(event.data) as StatusAnswer);
      assert.equal(events.at(-1)!.status, 'succeeded');
      assert.equal(events.at(-1)!.outputs.length, 1);
      const job = (await rootJobs()).find((j) => j.id === jobId)!;
      assert.equal(job.polls, 0, 'the webhook, delivered to the other isolate, brought the result');
      // The stream can end before the relay has the other isolate's answer to the webhook in hand
      // (the isolate publishes the checked result, then answers): wait for that delivery's record.
      const delivered = () => forwarded.find((delivery) => delivery.type === 'job.succeeded' && delivery.job === jobId);
      await new Promise<void>((resolve) => {
        onForwarded = () => {
          if (!delivered()) return;
          onForwarded = undefined;
          resolve();
        };
        onForwarded();
      });
      assert.deepEqual(delivered()!.statuses, [204], 'delivered once, to the other isolate, and taken');
    });
  });

  describe('two isolates, a try-on object that streams to two watchers at most', () => {
    it("refuses a third follower across isolates, and that watcher still gets its result from its isolate's polling", async () => {
      webhookTargets = [];
      const lines: string[] = [];
      let refused!: () => void;
      const firstRefusal = new Promise<void>((resolve) => {
        refused = resolve;
      });
      const [a, b] = await isolates(
        2,
        { TRYON_STREAMS_PER_TRYON: 2, TRYON_POLL_INTERVAL_MS: 100, TRYON_READS_PER_MINUTE: 100_000 },
        lines,
        () => {
          if (lines.some((line) => line.includes('"event":"store_follow_refused"'))) refused();
        },
      );
      await holdNext(1);
      const started = await startTryon(
        { url: a! },
        { product: 'dress-aline-indigo', photo: await photoHandle({ url: a! }) },
      );
      assert.equal(started.status, 202);
      const { tryon } = (await started.json()) as TryonAnswer;
      const streams = [a!, b!, a!].map((url) => {
        let opened!: () => void;
        const first = new Promise<void>((resolve) => {
          opened = resolve;
        });
        return {
          first,
          events: readEvents(`${url}/tryons/${tryon}/events`, () => opened(), AbortSignal.timeout(20_000)),
        };
      });
      await Promise.all(streams.map((stream) => stream.first));
      let giveUp: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        firstRefusal,
        new Promise((_, reject) => {
          giveUp = setTimeout(() => reject(new Error(`no follower was refused:\n${lines.join('\n')}`)), 10_000);
        }),
      ]).finally(() => clearTimeout(giveUp));
      await fetch(`${sandbox.url}/sandbox/jobs/${await jobIdOf(tryon)}/release`, { method: 'POST' });
      for (const stream of streams)
        assert.equal((JSON.parse((await stream.events).at(-1)!.data) as StatusAnswer).status, 'succeeded');
      assert.equal(
        lines.filter((line) => line.includes('"event":"store_follow_refused"')).length,
        1,
        'exactly the one past the cap',
      );
    });
  });
});
