// An upstream that forgets a job, or stays down, ends the try-on in words: against the real
// sandbox over loopback, on every store. A job that vanishes mid-render (the sandbox's `vanish`
// fault) ends as `failed` / `upstream_lost` at the next poll; polls that fail for longer than the
// tier's bound (a `GET /v1/jobs/*` outage) end it as `failed` / `upstream_unavailable`. Either is
// written once for the cluster (two instances sharing one store: one `tryon_given_up`, and no
// upstream poll after it), costs what docs/upstream-api.md decides (a lost job nothing, a job
// given up on its price), and a retry is a new try-on with its own price. A submit whose photo
// upstream no longer knows answers 410 photo_expired; a garment it forgot is uploaded again.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startProxy, type StartedProxy } from '../../proxy/node.js';
import type { UsageAnswer } from '../../proxy/admin.js';
import { HandleSigner } from '../../proxy/security/handles.js';
import { downBoundMs } from '../../proxy/tryons/give-up.js';
import {
  CATALOG,
  SECRET,
  photoHandle,
  sandboxControls,
  startTestSandbox,
  startTryon,
  waitForStatus,
  writeAssets,
  type Stack,
  type StatusAnswer,
  type TryonAnswer,
} from './stack.js';
import { readEvents } from './sse.js';
import { SHARED_STORE_KINDS, STORE_KINDS, sharedStores, stackOn } from './stores.js';

const TOKEN = 'lost-admin-token-0123456789';
const INTERVAL = 100;
/** 5 % of the draft tier's 10 s slow case: half a second of failed polls ends a try-on. */
const DOWN_PERCENT = 5;
const BOUND = downBoundMs('draft', DOWN_PERCENT);
/** The dress is a draft front view: 1 credit on a live key. */
const PRODUCT = 'dress-aline-indigo';
const PRICE = 1;
const signer = new HandleSigner(SECRET);
const today = () => new Date().toISOString().slice(0, 10);

const limits = {
  pollIntervalMs: INTERVAL,
  upstreamDownPercent: DOWN_PERCENT,
  retryBaseMs: 10,
  readsPerMinute: 100_000,
  ratePerMinute: 1000,
};

async function usageOf(adminUrl: string | undefined) {
  const response = await fetch(`${adminUrl}/usage`, { headers: { authorization: `Bearer ${TOKEN}` } });
  assert.equal(response.status, 200);
  return ((await response.json()) as UsageAnswer).days.find((d) => d.date === today())!;
}

async function started(stack: { url: string }, photo: string): Promise<TryonAnswer> {
  const response = await startTryon(stack, { product: PRODUCT, photo });
  assert.equal(response.status, 202, await response.clone().text());
  return (await response.json()) as TryonAnswer;
}

const jobCalls = async (stack: Pick<Stack, 'state'>) => (await stack.state()).requests['GET /v1/jobs/{id}'] ?? 0;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

for (const kind of STORE_KINDS) {
  describe(`upstream forgets or stays down (${kind} store)`, () => {
    it('a job that vanishes mid-render ends as upstream_lost at once, is not charged, and a retry with the same photo is charged once', async (t) => {
      const stack = await stackOn(kind, { apiKey: 'sk_live_b', proxy: { adminToken: TOKEN, limits } });
      t.after(() => stack.close());
      const creditsBefore = (await stack.state()).workspaces.ws_1!.credits;
      const photo = await photoHandle(stack);

      await stack.fault({ jobOutcome: 'vanish' });
      const first = await started(stack, photo);
      const t0 = Date.now();
      const lost = await waitForStatus(stack, first.tryon, (s) => s.status !== 'queued' && s.status !== 'processing');
      const took = Date.now() - t0;
      assert.equal(lost.status, 'failed');
      assert.deepEqual(lost.error, {
        code: 'upstream_lost',
        message: 'The try-on service lost this try-on before it was finished; please try again.',
        retryable: true,
      });
      // Lost is known at the first 404, not after the outage bound.
      assert.ok(took < 5_000, `upstream_lost took ${took} ms`);
      const { jobId } = await signer.open('tryon', first.tryon);
      const state = await stack.state();
      const vanished = state.workspaces.ws_1!.jobs.find((j) => j.id === jobId) as {
        vanished?: boolean;
        charged: number;
      };
      assert.deepEqual([vanished.vanished, vanished.charged], [true, 0]);
      assert.equal(state.workspaces.ws_1!.credits, creditsBefore, 'upstream gave the lost job its credits back');
      const afterLost = await usageOf(stack.adminUrl);
      assert.deepEqual([afterLost.tryons, afterLost.credits, afterLost.errors.upstream_lost], [1, 0, 1]);

      // No further poll of a finished try-on, whoever asks.
      const calls = await jobCalls(stack);
      for (let i = 0; i < 3; i++)
        assert.equal(
          ((await (await fetch(`${stack.url}/tryons/${first.tryon}`)).json()) as StatusAnswer).status,
          'failed',
        );
      await sleep(INTERVAL * 4);
      assert.equal(await jobCalls(stack), calls, 'no upstream poll after the try-on ended');

      // Try again: a new try-on (its own request id) of the same photo handle: nothing uploaded again.
      const uploads = (await stack.state()).requests['POST /v1/files'];
      const second = await started(stack, photo);
      const done = await waitForStatus(stack, second.tryon, (s) => s.status === 'succeeded' || s.status === 'failed');
      assert.equal(done.status, 'succeeded');
      const end = await stack.state();
      assert.equal(end.requests['POST /v1/files'], uploads, 'the retry uploads nothing');
      assert.equal(end.workspaces.ws_1!.credits, creditsBefore - PRICE, 'charged once, for the render that finished');
      const usage = await usageOf(stack.adminUrl);
      assert.deepEqual([usage.tryons, usage.credits], [2, PRICE]);
    });

    it('polls that fail for longer than the tier’s bound end the try-on as upstream_unavailable', async (t) => {
      const stack = await stackOn(kind, { apiKey: 'sk_live_b', proxy: { adminToken: TOKEN, limits } });
      t.after(() => stack.close());
      const creditsBefore = (await stack.state()).workspaces.ws_1!.credits;
      const photo = await photoHandle(stack);
      await stack.fault({ jobOutcome: 'hold' });
      const first = await started(stack, photo);
      await waitForStatus(stack, first.tryon, (s) => s.status === 'processing');

      // A shopper watches, then upstream goes down for every status read from here on. The stream
      // is opened first: opened during the outage, its first read would answer the outage's 502.
      let watching!: () => void;
      const opened = new Promise<void>((resolve) => (watching = resolve));
      const watched = readEvents(`${stack.url}/tryons/${first.tryon}/events`, () => watching());
      await opened;
      await stack.fault({ match: 'GET /v1/jobs/*', status: 503, times: 1000 });
      const t0 = Date.now();
      const events = await watched;
      const took = Date.now() - t0;
      const last = JSON.parse(events.at(-1)!.data) as StatusAnswer;
      assert.equal(last.status, 'failed');
      assert.deepEqual(last.error, {
        code: 'upstream_unavailable',
        message: 'The try-on service stopped answering while making this try-on; please try again.',
        retryable: true,
      });
      // Not before the bound (counted from the last good read, which came before the outage).
      assert.ok(took >= BOUND - INTERVAL * 2, `gave up after ${took} ms, bound ${BOUND} ms`);
      assert.ok(took < BOUND + 10_000, `gave up after ${took} ms, bound ${BOUND} ms`);
      const calls = await jobCalls(stack);
      await sleep(INTERVAL * 4);
      assert.equal(await jobCalls(stack), calls, 'no upstream poll after the try-on ended');
      const usage = await usageOf(stack.adminUrl);
      // Upstream may still finish it and charge it: its credits stay counted; its code is counted.
      assert.deepEqual([usage.tryons, usage.credits, usage.errors.upstream_unavailable], [1, PRICE, 1]);

      // Upstream back (the held job finishes there, charged); the retry is a new try-on, priced anew.
      await stack.clearFaults();
      const second = await started(stack, photo);
      const done = await waitForStatus(stack, second.tryon, (s) => s.status === 'succeeded' || s.status === 'failed');
      assert.equal(done.status, 'succeeded');
      assert.equal((await waitForStatus(stack, first.tryon, () => true)).status, 'failed', 'a final status stays');
      const after = await usageOf(stack.adminUrl);
      assert.deepEqual([after.tryons, after.credits], [2, 2 * PRICE]);
      const spent = creditsBefore - (await stack.state()).workspaces.ws_1!.credits;
      assert.equal(spent, after.credits, '/usage counts what upstream charged');
    });

    it('a job upstream keeps unfinished past the stuck bound ends as upstream_unavailable, counted from its acceptance', async (t) => {
      const stuck = { ...limits, upstreamStuckPercent: DOWN_PERCENT };
      const stack = await stackOn(kind, { apiKey: 'sk_live_b', proxy: { adminToken: TOKEN, limits: stuck } });
      t.after(() => stack.close());
      const photo = await photoHandle(stack);
      // Upstream answers every poll, always "processing": the job is held and never released.
      await stack.fault({ jobOutcome: 'hold' });
      const t0 = Date.now();
      const first = await started(stack, photo);
      const events = await readEvents(`${stack.url}/tryons/${first.tryon}/events`);
      const took = Date.now() - t0;
      const statuses = events.map((e) => (JSON.parse(e.data) as StatusAnswer).status);
      assert.ok(statuses.includes('processing'), `it was under way first: ${statuses.join(', ')}`);
      const last = JSON.parse(events.at(-1)!.data) as StatusAnswer;
      assert.deepEqual(
        [last.status, last.error],
        [
          'failed',
          {
            code: 'upstream_unavailable',
            message: 'The try-on service has not finished this try-on in far longer than it takes; please try again.',
            retryable: true,
          },
        ],
      );
      assert.ok(took >= BOUND - INTERVAL, `ended after ${took} ms, bound ${BOUND} ms from acceptance`);
      assert.ok(took < BOUND + 10_000, `ended after ${took} ms, bound ${BOUND} ms`);
      const calls = await jobCalls(stack);
      await sleep(INTERVAL * 4);
      assert.equal(await jobCalls(stack), calls, 'no upstream poll after the try-on ended');
      const usage = await usageOf(stack.adminUrl);
      // Upstream may still finish and charge it: its credits stay counted, as for an outage.
      assert.deepEqual([usage.tryons, usage.credits, usage.errors.upstream_unavailable], [1, PRICE, 1]);
    });

    it('a submit whose photo upstream forgot answers 410 photo_expired; a forgotten garment is uploaded again', async (t) => {
      const stack = await stackOn(kind, { proxy: { limits } });
      t.after(() => stack.close());
      const forget = (kind: 'person' | 'garment') =>
        fetch(`${stack.sandboxUrl}/sandbox/files/forget`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ kind }),
        });
      // The garment is uploaded by the first try-on.
      const warm = await started(stack, await photoHandle(stack));
      await waitForStatus(stack, warm.tryon, (s) => s.status === 'succeeded');
      const garmentUploads = () => stack.logs.filter((l) => l.event === 'catalog_image_uploaded').length;
      assert.equal(garmentUploads(), 1);

      const photo = await photoHandle(stack);
      assert.equal((await forget('person')).status, 200);
      const refused = await startTryon(stack, { product: PRODUCT, photo });
      assert.equal(refused.status, 410);
      assert.deepEqual(((await refused.json()) as { error: unknown }).error, {
        code: 'photo_expired',
        message: 'The try-on service no longer has this photo; please send it again.',
        retryable: false,
      });
      assert.equal(garmentUploads(), 1, 'the garment upstream still knows is not uploaded again');

      // The garment forgotten: the proxy uploads it again itself and the try-on goes on.
      assert.equal((await forget('garment')).status, 200);
      const again = await started(stack, await photoHandle(stack));
      assert.equal(
        (await waitForStatus(stack, again.tryon, (s) => s.status !== 'queued' && s.status !== 'processing')).status,
        'succeeded',
      );
      assert.equal(garmentUploads(), 2);
    });
  });
}

for (const kind of SHARED_STORE_KINDS) {
  describe(`two instances sharing one ${kind} store`, () => {
    const closers: (() => Promise<void>)[] = [];
    after(async () => {
      for (const close of closers.reverse()) await close();
    });

    it('a vanished job ends once for the cluster: one final write, every watcher told, no poll after it', async () => {
      const sandbox = await startTestSandbox();
      closers.push(() => sandbox.close());
      const controls = sandboxControls(sandbox.url);
      const assetsDir = await mkdtemp(join(tmpdir(), 'tryon-lost-'));
      closers.push(() => rm(assetsDir, { recursive: true, force: true }));
      await writeAssets(assetsDir);
      const logs: Record<string, unknown>[][] = [];
      const instances: StartedProxy[] = [];
      for (const store of await sharedStores(kind, 2)) {
        const lines: Record<string, unknown>[] = [];
        logs.push(lines);
        const proxy = await startProxy({
          apiKey: 'sk_test_a',
          baseUrl: sandbox.url,
          secret: SECRET,
          allowedOrigins: ['https://shop.example'],
          catalog: CATALOG,
          assetsDir,
          log: (entry) => lines.push(entry),
          store,
          limits,
        });
        instances.push(proxy);
        closers.push(() => proxy.close());
      }
      const [a, b] = instances as [StartedProxy, StartedProxy];
      await controls.fault({ jobOutcome: 'hold' });
      const answer = await started(a, await photoHandle(a));
      await waitForStatus(b, answer.tryon, (s) => s.status === 'processing');
      // Both instances watch it over SSE (each watcher has had its first event); then upstream
      // answers 404 for it, as a service that restarted and lost its held job does.
      const opened: Promise<void>[] = [];
      const watchers = [a, b, a, b].map((each) => {
        let seen!: () => void;
        opened.push(new Promise<void>((resolve) => (seen = resolve)));
        return readEvents(`${each.url}/tryons/${answer.tryon}/events`, () => seen());
      });
      await Promise.all(opened);
      await controls.fault({ match: 'GET /v1/jobs/*', status: 404, code: 'not_found', times: 1000 });
      const ends = await Promise.all(watchers);
      for (const events of ends) {
        const last = JSON.parse(events.at(-1)!.data) as StatusAnswer;
        assert.deepEqual([last.status, last.error?.code], ['failed', 'upstream_lost']);
      }
      const givenUp = logs.flat().filter((l) => l.event === 'tryon_given_up');
      assert.equal(givenUp.length, 1, 'one final write in the cluster');
      assert.equal(givenUp[0]!.code, 'upstream_lost');
      const calls = (await controls.state()).requests['GET /v1/jobs/{id}'] ?? 0;
      await sleep(INTERVAL * 5);
      for (const each of [a, b]) {
        const status = (await (await fetch(`${each.url}/tryons/${answer.tryon}`)).json()) as StatusAnswer;
        assert.equal(status.error?.code, 'upstream_lost');
      }
      assert.equal((await controls.state()).requests['GET /v1/jobs/{id}'] ?? 0, calls, 'no poll after the end');
    });
  });
}
