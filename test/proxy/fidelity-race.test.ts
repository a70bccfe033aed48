// One try-on's result checked by two callers at once (a poll whose right ran out while its check
// was still reading the result, and a webhook, or another instance's poll): the shopper's stream
// and the status route must answer the one result the store kept. In one process the second caller
// waits for the check already running; across two instances on a real Redis the one finishing write
// decides. Real sandbox over loopback, the demo shop's catalog; each check held on its read of the
// result until the test lets it go, so the window is as wide as the test needs, with no sleeps.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { startProxy, type StartedProxy } from '../../proxy/node.js';
import type { CatalogFile } from '../../proxy/catalog/catalog.js';
import type { TryonFidelity } from '../../proxy/tryons/snapshot.js';
import { prepareShopCatalog } from '../../demo/shop/tryon-catalog.js';
import { SHOPPER_PHOTO } from '../../demo/shop/images.js';
import { SECRET, newRequestId, sandboxControls, startTestSandbox, waitForStatus, type StatusAnswer } from './stack.js';
import { readEvents } from './sse.js';
import { SHARED_STORE_KINDS, sharedStores } from './stores.js';

const WEBHOOK_SECRET = `whsec_${randomBytes(24).toString('base64')}`;
const PRODUCT = 'saree-nivi-ruby';
type Checked = StatusAnswer & { fidelity?: TryonFidelity };

let sandbox: Awaited<ReturnType<typeof startTestSandbox>>;
let controls: ReturnType<typeof sandboxControls>;
let catalog: CatalogFile;
let imagesDir: string;
let shopperPhoto: Uint8Array;
let relay: ReturnType<typeof serve>;
/** Where the relay hands the sandbox's webhooks, and what each waits for first. */
let webhookTarget = '';
let webhooksLetGo: Promise<unknown> = Promise.resolve();
const proxies: StartedProxy[] = [];

before(async () => {
  const shop = await prepareShopCatalog();
  catalog = shop.catalog;
  imagesDir = shop.imagesDir;
  shopperPhoto = new Uint8Array(await readFile(join(imagesDir, SHOPPER_PHOTO)));
  // The sandbox's webhooks pass through here, so a test decides when they arrive.
  const relayUrl = await new Promise<string>((resolve) => {
    relay = serve(
      {
        port: 0,
        hostname: '127.0.0.1',
        fetch: async (request) => {
          const body = await request.text();
          await webhooksLetGo;
          if (!webhookTarget) return new Response(null, { status: 204 });
          return fetch(`${webhookTarget}/webhooks`, { method: 'POST', headers: request.headers, body });
        },
      },
      (info: AddressInfo) => resolve(`http://127.0.0.1:${info.port}/webhooks`),
    );
  });
  sandbox = await startTestSandbox({ webhookUrl: relayUrl, webhookSecret: WEBHOOK_SECRET });
  controls = sandboxControls(sandbox.url);
});

after(async () => {
  await Promise.all(proxies.map((proxy) => proxy.close()));
  await sandbox?.close();
  await new Promise<void>((resolve) => relay.close(() => resolve()));
});

/**
 * The proxy's reads of a result's bytes (the check's): the first held until `letFirstGo(fail)`,
 * which answers it as upstream would or with a 503 (which the check calls unchecked); the others
 * pass. Also counts the listings of a job's outputs, made by each caller that found it done.
 */
function heldResultReads() {
  let reads = 0;
  let listings = 0;
  let first: (fail: boolean) => void = () => undefined;
  const waiters = new Set<() => void>();
  const tell = () => waiters.forEach((check) => check());
  const fetcher: typeof fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if ((init?.method ?? 'GET') === 'GET' && /\/outputs$/.test(url.pathname)) {
      const response = await fetch(input, init);
      listings++;
      tell();
      return response;
    }
    if ((init?.method ?? 'GET') !== 'GET' || !/^\/v1\/files\/[^/]+\/content$/.test(url.pathname))
      return fetch(input, init);
    reads++;
    const fail = reads > 1 ? false : await new Promise<boolean>((go) => ((first = go), tell()));
    return fail ? new Response('{}', { status: 503 }) : fetch(input, init);
  };
  const until = (ready: () => boolean) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (!ready()) return;
        waiters.delete(check);
        resolve();
      };
      waiters.add(check);
      check();
    });
  return {
    fetch: fetcher,
    count: () => reads,
    firstHeld: () => until(() => reads >= 1),
    listed: (n: number) => until(() => listings >= n),
    letFirstGo: (fail: boolean) => first(fail),
  };
}

async function proxyOf(options: Partial<Parameters<typeof startProxy>[0]> = {}) {
  const logs: Record<string, unknown>[] = [];
  const proxy = await startProxy({
    apiKey: 'sk_test_a',
    baseUrl: sandbox.url,
    secret: SECRET,
    allowedOrigins: ['https://shop.example'],
    catalog,
    assetsDir: imagesDir,
    log: (entry) => logs.push(entry),
    ...options,
    // A poll's right lasts 50 ms (webhooks or none), far less than a check held on its read: it
    // runs out mid-check.
    limits: { retries: 0, retryBaseMs: 20, pollIntervalMs: 50, pushedPollIntervalMs: 50, fidelityCpuMs: 10_000 },
  });
  proxies.push(proxy);
  return { url: proxy.url, logs };
}

/** A try-on of the saree posted to `proxy`, its job held upstream until `release()`. */
async function heldTryon(proxy: { url: string }) {
  await controls.fault({ times: 1, jobOutcome: 'hold' });
  const form = new FormData();
  form.append('photo', new Blob([shopperPhoto as BlobPart], { type: 'image/jpeg' }), 'me.jpg');
  const uploaded = await fetch(`${proxy.url}/photos`, { method: 'POST', body: form });
  assert.equal(uploaded.status, 201, await uploaded.clone().text());
  const { photo } = (await uploaded.json()) as { photo: string };
  const response = await fetch(`${proxy.url}/tryons`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ consent: true, requestId: newRequestId(), product: PRODUCT, photo, preview: 'off' }),
  });
  assert.equal(response.status, 202, await response.clone().text());
  const { tryon } = (await response.json()) as { tryon: string };
  const jobs = (await controls.state()).workspaces.ws_1!.jobs;
  const jobId = jobs.find((j) => j.status !== 'succeeded' && j.status !== 'failed')!.id;
  return {
    tryon,
    release: async () => {
      const released = await fetch(`${sandbox.url}/sandbox/jobs/${jobId}/release`, { method: 'POST' });
      assert.equal(released.status, 200, await released.text());
    },
  };
}

/** The SSE stream's status events until it ends. */
function streamOf(proxy: { url: string }, tryon: string): Promise<Checked[]> {
  return readEvents(`${proxy.url}/tryons/${tryon}/events`).then((events) =>
    events.filter((e) => e.event === 'status').map((e) => JSON.parse(e.data) as Checked),
  );
}

const succeeded = (s: StatusAnswer) => s.status === 'succeeded';
const fidelityLines = (logs: Record<string, unknown>[]) => logs.filter((l) => l.event === 'tryon_fidelity');

describe('one result checked by two callers at once', () => {
  it('in one process: a webhook waits for the poll’s check; the stream and GET answer its verdict', async () => {
    const reads = heldResultReads();
    const proxy = await proxyOf({ fetch: reads.fetch, webhookSecret: WEBHOOK_SECRET });
    webhookTarget = proxy.url;
    const { tryon, release } = await heldTryon(proxy);
    const stream = streamOf(proxy, tryon);
    // The webhooks reach the proxy only once the stream's poll is checking the result.
    let webhooksMayGo = () => {};
    webhooksLetGo = new Promise<void>((resolve) => (webhooksMayGo = resolve));
    await release();
    await reads.firstHeld();
    webhooksMayGo();
    // The webhook of the job's end has found it done (its own listing of the outputs) while the
    // poll's check still runs. That check's read then fails: unchecked is what everyone must see.
    await reads.listed(2);
    reads.letFirstGo(true);
    const events = await stream;
    const last = events.at(-1)!;
    assert.equal(last.status, 'succeeded', JSON.stringify(events));
    const later = (await waitForStatus(proxy, tryon, succeeded)) as Checked;
    assert.deepEqual(later.fidelity, last.fidelity, 'the stream and GET disagree');
    assert.equal(later.fidelity?.verdict, 'unchecked', JSON.stringify(later.fidelity));
    assert.equal(reads.count(), 1, 'the result was checked once');
    assert.equal(fidelityLines(proxy.logs).length, 1);
  });
});

describe(
  'one result checked on two instances at once (redis store)',
  { skip: !SHARED_STORE_KINDS.includes('redis') },
  () => {
    it('the one finishing write decides: both streams and both GETs answer it', async () => {
      const [storeA, storeB] = await sharedStores('redis', 2);
      const readsA = heldResultReads();
      const readsB = heldResultReads();
      const a = await proxyOf({ store: storeA!, fetch: readsA.fetch, webhookSecret: WEBHOOK_SECRET });
      const b = await proxyOf({ store: storeB!, fetch: readsB.fetch, webhookSecret: WEBHOOK_SECRET });
      webhookTarget = a.url;
      let webhooksMayGo = () => {};
      webhooksLetGo = new Promise<void>((resolve) => (webhooksMayGo = resolve));
      const { tryon, release } = await heldTryon(a);
      const streams = [streamOf(a, tryon), streamOf(b, tryon)];
      await release();
      // Each instance's poll checks the result (the other's right ran out meanwhile); then the
      // webhook reaches a, and finds the job done while a's check still runs.
      await Promise.all([readsA.firstHeld(), readsB.firstHeld()]);
      webhooksMayGo();
      await readsA.listed(2);
      // a's check ends first, unchecked (its read fails): its write finishes the try-on.
      readsA.letFirstGo(true);
      const streamA = await streams[0]!;
      // b's check ends later, true: its write loses, and b must not answer it.
      readsB.letFirstGo(false);
      const streamB = await streams[1]!;
      const answers = [
        streamA.at(-1)!,
        streamB.at(-1)!,
        (await waitForStatus(a, tryon, succeeded)) as Checked,
        (await waitForStatus(b, tryon, succeeded)) as Checked,
      ];
      for (const answer of answers) assert.equal(answer.status, 'succeeded', JSON.stringify(answer));
      assert.deepEqual(
        answers.map((answer) => answer.fidelity),
        answers.map(() => answers[0]!.fidelity),
        'the streams and GETs disagree',
      );
      assert.equal(answers[0]!.fidelity?.verdict, 'unchecked', JSON.stringify(answers[0]!.fidelity));
      assert.equal(readsA.count(), 1, 'a checked the result once');
      assert.equal(fidelityLines([...a.logs, ...b.logs]).length, 1, 'one finishing write in the cluster');
    });
  },
);
