// Each try-on's result checked against the product's garment before the status says `succeeded`,
// against the real sandbox over loopback with the demo shop's own catalog and pictures: a faithful
// render is `true`; each of the sandbox's faults (a colour drift of ΔE 20, the wrong variant, the
// garment missing or half drawn) is `differs` or a coverage that is not `ok`; a product with its
// check off and an output the check cannot read are `unchecked`, never `true`; SSE carries it; the
// log line and /usage count it once. A product with `onDiffers: "rerender"` gets one rerender of
// the differing view, charged once, through a retried request and across two instances on a real
// Redis and on Durable Objects in real workerd.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { startProxy, type StartedProxy } from '../../proxy/node.js';
import type { UsageAnswer } from '../../proxy/admin.js';
import type { CatalogFile } from '../../proxy/catalog/catalog.js';
import type { TryonFidelity } from '../../proxy/tryons/snapshot.js';
import { DIFFERS_ABOVE } from '../../proxy/fidelity/check.js';
import { prepareShopCatalog } from '../../demo/shop/tryon-catalog.js';
import { SHOPPER_PHOTO } from '../../demo/shop/images.js';
import {
  SECRET,
  newRequestId,
  sandboxControls,
  startTestSandbox,
  waitForStatus,
  type StatusAnswer,
  type TryonAnswer,
} from './stack.js';
import { readEvents } from './sse.js';
import { SHARED_STORE_KINDS, sharedStores } from './stores.js';

const TOKEN = 'fidelity-admin-token-0123456789';
type Checked = StatusAnswer & { fidelity?: TryonFidelity };

let sandbox: Awaited<ReturnType<typeof startTestSandbox>>;
let controls: ReturnType<typeof sandboxControls>;
let catalog: CatalogFile;
let imagesDir: string;
let shopperPhoto: Uint8Array;
const proxies: StartedProxy[] = [];

/**
 * The demo's ruby saree with each fidelity setting the tests need, as products of their own. (Its
 * red stands apart from the demo shopper's own blue clothes, which a missing indigo dress leaves
 * showing, close enough in colour to pass for the dress.)
 */
const PRODUCT = 'saree-nivi-ruby';
function catalogOf(shop: CatalogFile): CatalogFile {
  const saree = shop.products[PRODUCT]!;
  return {
    ...shop,
    products: {
      ...shop.products,
      'saree-unchecked': { ...saree, fidelity: { check: false } },
      'saree-rerender': { ...saree, fidelity: { onDiffers: 'rerender' } },
    },
  };
}

before(async () => {
  const shop = await prepareShopCatalog();
  catalog = catalogOf(shop.catalog);
  imagesDir = shop.imagesDir;
  shopperPhoto = new Uint8Array(await readFile(join(imagesDir, SHOPPER_PHOTO)));
  // A live key is charged by the sandbox (a test key is not): the rerender tests count what upstream charged.
  sandbox = await startTestSandbox({ keys: { sk_test_a: 'ws_1', sk_live_b: 'ws_1' } });
  controls = sandboxControls(sandbox.url);
});

after(async () => {
  await Promise.all(proxies.map((proxy) => proxy.close()));
  await sandbox?.close();
});

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
    adminToken: TOKEN,
    ...options,
    // A generous CPU budget: two cores shared by every suite, and the first check warms the code up.
    limits: { retryBaseMs: 20, pollIntervalMs: 100, fidelityCpuMs: 10_000, ...options.limits },
  });
  proxies.push(proxy);
  return { url: proxy.url, adminUrl: proxy.adminUrl!, logs };
}

async function photoOf(proxy: { url: string }): Promise<string> {
  const form = new FormData();
  form.append('photo', new Blob([shopperPhoto as BlobPart], { type: 'image/jpeg' }), 'me.jpg');
  const response = await fetch(`${proxy.url}/photos`, { method: 'POST', body: form });
  assert.equal(response.status, 201, await response.clone().text());
  return ((await response.json()) as { photo: string }).photo;
}

async function post(proxy: { url: string }, body: Record<string, unknown>): Promise<TryonAnswer> {
  const response = await fetch(`${proxy.url}/tryons`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ consent: true, requestId: newRequestId(), ...body }),
  });
  assert.equal(response.status, 202, await response.clone().text());
  return (await response.json()) as TryonAnswer;
}

const finished = (s: StatusAnswer) => s.status === 'succeeded' || s.status === 'failed';

/** A try-on of `product` (with the sandbox's next job given `fault`), read until it ends. */
async function tryOn(
  proxy: { url: string },
  product: string,
  fault?: Record<string, unknown>,
): Promise<{ tryon: string; done: Checked }> {
  if (fault) await controls.fault({ times: 1, ...fault });
  const { tryon } = await post(proxy, { product, photo: await photoOf(proxy), preview: 'off' });
  const done = (await waitForStatus(proxy, tryon, finished)) as Checked;
  assert.equal(done.status, 'succeeded', JSON.stringify(done));
  return { tryon, done };
}

async function usageOf(adminUrl: string): Promise<UsageAnswer> {
  const response = await fetch(`${adminUrl}/usage`, { headers: { authorization: `Bearer ${TOKEN}` } });
  assert.equal(response.status, 200);
  return (await response.json()) as UsageAnswer;
}

type Workspace = Awaited<ReturnType<ReturnType<typeof sandboxControls>['state']>>['workspaces'][string];
/** What upstream charged for the try-ons started between two reads of its state. */
const chargedSince = (before: Workspace, after: Workspace) => {
  const old = new Set(before.jobs.map((j) => j.id));
  return after.jobs.filter((j) => j.parent === null && !old.has(j.id)).reduce((sum, j) => sum + j.charged, 0);
};

const fidelityLines = (logs: Record<string, unknown>[]) => logs.filter((line) => line.event === 'tryon_fidelity');

describe('a result checked against its garment before it is called succeeded', () => {
  let proxy: Awaited<ReturnType<typeof proxyOf>>;
  before(async () => {
    proxy = await proxyOf();
  });

  it('a faithful render is true, each view measured; logged once, with no URL or token', async () => {
    const { tryon, done } = await tryOn(proxy, PRODUCT);
    assert.equal(done.fidelity?.verdict, 'true', JSON.stringify(fidelityLines(proxy.logs)));
    assert.deepEqual(
      done.fidelity.views.map((v) => v.view),
      ['front'],
    );
    const [front] = done.fidelity.views;
    assert.equal(front!.coverage, 'ok');
    assert.ok(Number.isFinite(front!.colour.deltaE) && front!.colour.deltaE >= 0, JSON.stringify(front));
    assert.equal(done.fidelity.rerender, undefined);
    // Read again: the same checked answer, and still one log line for the try-on.
    const again = (await (await fetch(`${proxy.url}/tryons/${tryon}`)).json()) as Checked;
    assert.deepEqual(again.fidelity, done.fidelity);
    const lines = fidelityLines(proxy.logs).filter((line) => line.product === PRODUCT);
    assert.equal(lines.length, 1, JSON.stringify(lines));
    assert.equal(lines[0]!.verdict, 'true');
    assert.deepEqual(lines[0]!.views, [{ view: 'front', deltaE: front!.colour.deltaE, coverage: 'ok' }]);
    const text = JSON.stringify(lines[0]);
    assert.ok(!/https?:|v1\.(file|tryon|photo)\.|sk_test/.test(text), text);
  });

  const faults: [string, Record<string, unknown>, (f: TryonFidelity) => void][] = [
    [
      'a colour drift of ΔE 20',
      { jobOutcome: 'colour_drift', deltaE: 20 },
      (f) => assert.ok(f.views[0]!.colour.deltaE > DIFFERS_ABOVE, JSON.stringify(f)),
    ],
    ['the wrong variant', { jobOutcome: 'wrong_variant' }, () => undefined],
    [
      'the garment missing',
      { jobOutcome: 'garment_missing' },
      (f) => assert.equal(f.views[0]!.coverage, 'missing', JSON.stringify(f)),
    ],
    [
      'the garment half drawn',
      { jobOutcome: 'half_drawn' },
      (f) => assert.equal(f.views[0]!.coverage, 'partial', JSON.stringify(f)),
    ],
  ];
  for (const [name, fault, more] of faults)
    it(`${name} differs`, async () => {
      const { done } = await tryOn(proxy, PRODUCT, fault);
      assert.equal(done.fidelity?.verdict, 'differs', JSON.stringify(fidelityLines(proxy.logs).at(-1)));
      more(done.fidelity);
      assert.equal(done.outputs.length, 1, 'a differing result is still shown, labelled');
    });

  it('a product with its check off is unchecked, and its outputs are not even fetched', async () => {
    const before = (await controls.state()).requests['GET /v1/files/{file_id}/content'] ?? 0;
    const { done } = await tryOn(proxy, 'saree-unchecked');
    assert.deepEqual(done.fidelity, { verdict: 'unchecked', views: [] });
    assert.equal((await controls.state()).requests['GET /v1/files/{file_id}/content'] ?? 0, before);
    assert.equal(fidelityLines(proxy.logs).find((l) => l.product === 'saree-unchecked')?.reason, 'check_off');
  });

  it('SSE carries the checked result in its final status event', async () => {
    await controls.fault({ times: 1, jobOutcome: 'colour_drift', deltaE: 20 });
    const { tryon } = await post(proxy, { product: PRODUCT, photo: await photoOf(proxy), preview: 'off' });
    const events = await readEvents(`${proxy.url}/tryons/${tryon}/events`);
    const statuses = events.filter((e) => e.event === 'status').map((e) => JSON.parse(e.data) as Checked);
    const last = statuses.at(-1)!;
    assert.equal(last.status, 'succeeded');
    assert.equal(last.fidelity?.verdict, 'differs', JSON.stringify(last));
    assert.ok(
      statuses.filter((s) => s.status === 'succeeded').every((s) => s.fidelity !== undefined),
      'no succeeded event without its check',
    );
  });

  it('/usage counts the checked results per product: checked, differs, median ΔE, no rerenders', async () => {
    const lines = fidelityLines(proxy.logs).filter((l) => l.product === PRODUCT);
    const checked = lines.filter((l) => l.verdict !== 'unchecked');
    const worst = checked
      .map((l) => Math.max(...(l.views as { deltaE: number }[]).map((v) => v.deltaE)))
      .map((d) => Math.round(d * 2) / 2)
      .sort((a, b) => a - b);
    const usage = await usageOf(proxy.adminUrl);
    const figures = usage.days[0]!.products[PRODUCT]!.fidelity;
    assert.equal(figures.checked, checked.length);
    assert.equal(figures.differs, checked.filter((l) => l.verdict === 'differs').length);
    assert.equal(figures.medianDeltaE, worst[Math.ceil(worst.length / 2) - 1]);
    assert.equal(figures.rerenders, 0);
    assert.deepEqual(usage.days[0]!.products['saree-unchecked']!.fidelity, {
      checked: 0,
      differs: 0,
      medianDeltaE: null,
      rerenders: 0,
    });
  });
});

describe('what the check cannot judge is unchecked, never true', () => {
  it('is unchecked (an upstream that answers its outputs as WebP), never true', async () => {
    const webp = new Uint8Array(
      await sharp({ create: { width: 64, height: 96, channels: 3, background: '#345' } })
        .webp()
        .toBuffer(),
    );
    // Upstream's own files pass; an output's bytes come back as WebP, which the check does not decode.
    const proxy = await proxyOf({
      fetch: async (input, init) => {
        const url = new URL(String(input));
        if ((init?.method ?? 'GET') === 'GET' && /^\/v1\/files\/[^/]+\/content$/.test(url.pathname))
          return new Response(webp, { headers: { 'content-type': 'image/webp' } });
        return fetch(input, init);
      },
    });
    const { done } = await tryOn(proxy, PRODUCT);
    assert.equal(done.fidelity?.verdict, 'unchecked', JSON.stringify(done.fidelity));
    assert.ok(fidelityLines(proxy.logs)[0]?.reason, 'the log says why');
  });

  it('is unchecked past its CPU budget (limits.fidelityCpuMs)', async () => {
    const proxy = await proxyOf({ limits: { fidelityCpuMs: 1 } });
    const { done } = await tryOn(proxy, PRODUCT);
    assert.equal(done.fidelity?.verdict, 'unchecked', JSON.stringify(done.fidelity));
    assert.equal(fidelityLines(proxy.logs)[0]?.reason, 'over_budget');
  });
});

describe('rerender: one new render of the differing view, at the shop’s cost', () => {
  it('runs once, shows the first look meanwhile, ends with the rerendered output checked again', async () => {
    const proxy = await proxyOf({ apiKey: 'sk_live_b' });
    const before = (await controls.state()).workspaces.ws_1!;
    await controls.fault({ times: 1, jobOutcome: 'colour_drift', deltaE: 20 });
    const photo = await photoOf(proxy);
    const requestId = newRequestId();
    // With its first look (the catalog's draft beside the try-on), which the shopper sees meanwhile.
    const first = await post(proxy, { product: 'saree-rerender', photo, requestId });
    const seen: Checked[] = [];
    const events = readEvents(`${proxy.url}/tryons/${first.tryon}/events`, (e) => {
      if (e.event === 'status') seen.push(JSON.parse(e.data) as Checked);
    });
    // A retried request (the same requestId) is the same try-on.
    const retried = await post(proxy, { product: 'saree-rerender', photo, requestId });
    await events;
    const done = (await waitForStatus(proxy, retried.tryon, finished)) as Checked;
    assert.equal(done.status, 'succeeded');
    assert.equal(done.fidelity?.rerender, 'done', JSON.stringify(done.fidelity));
    assert.equal(done.fidelity.verdict, 'true', 'the rerender (no fault) is faithful');
    const running = seen.find((s) => s.fidelity?.rerender === 'running');
    assert.ok(running, JSON.stringify(seen));
    assert.equal(running.status, 'processing');
    assert.equal(running.fidelity!.verdict, 'differs');
    assert.equal(running.outputs.length, 0, 'the differing view waits for its rerender');
    type WithFirstLook = Checked & { preview?: { status: string; outputs: unknown[] } };
    assert.ok((running as WithFirstLook).preview, 'the first look goes on meanwhile, as for any try-on');
    assert.equal((done as WithFirstLook).preview?.outputs.length, 1, JSON.stringify(done));
    assert.ok(!seen.some((s) => s.status === 'succeeded' && s.fidelity?.rerender !== 'done'));

    const after = (await controls.state()).workspaces.ws_1!;
    const newJobs =
      after.jobs.filter((j) => j.parent === null).length - before.jobs.filter((j) => j.parent === null).length;
    assert.equal(newJobs, 3, 'the try-on, its first look and one rerender upstream');
    const figures = (await usageOf(proxy.adminUrl)).days[0]!.products['saree-rerender']!;
    assert.equal(figures.fidelity.rerenders, 1);
    assert.equal(figures.tryons, 2, 'the rerender counted like a try-on');
    assert.equal(figures.credits, chargedSince(before, after), 'credits as upstream charged them');
    assert.equal(fidelityLines(proxy.logs).length, 1);
  });

  it('that fails leaves the first result standing, with its differs label; its credits given back', async () => {
    const proxy = await proxyOf({ apiKey: 'sk_live_b' });
    const before = (await controls.state()).workspaces.ws_1!;
    // The try-on drifts; the next job, its rerender, fails upstream.
    await controls.fault({ times: 1, jobOutcome: 'colour_drift', deltaE: 20 });
    await controls.fault({ times: 1, jobOutcome: 'failed' });
    const { tryon } = await post(proxy, { product: 'saree-rerender', photo: await photoOf(proxy), preview: 'off' });
    const done = (await waitForStatus(proxy, tryon, finished)) as Checked;
    assert.equal(done.status, 'succeeded');
    assert.equal(done.fidelity?.verdict, 'differs', JSON.stringify(done.fidelity));
    assert.equal(done.fidelity.rerender, 'failed');
    assert.deepEqual(
      done.outputs.map((o) => o.view),
      ['front'],
      'the first result is shown',
    );
    const after = (await controls.state()).workspaces.ws_1!;
    const figures = (await usageOf(proxy.adminUrl)).days[0]!.products['saree-rerender']!;
    assert.equal(figures.credits, chargedSince(before, after), 'the failed rerender’s credits are given back');
    assert.equal(fidelityLines(proxy.logs)[0]!.rerender, 'failed');
    assert.ok(proxy.logs.some((l) => l.event === 'rerender_failed' && l.reason === 'render_failed'));
  });

  for (const kind of SHARED_STORE_KINDS)
    it(`is charged exactly once across a retried request and two instances (${kind})`, async () => {
      const [one, two] = await sharedStores(kind, 2);
      const a = await proxyOf({ store: one!, apiKey: 'sk_live_b' });
      const b = await proxyOf({ store: two!, apiKey: 'sk_live_b' });
      const before = (await controls.state()).workspaces.ws_1!;
      await controls.fault({ times: 1, jobOutcome: 'colour_drift', deltaE: 20 });
      const photo = await photoOf(a);
      const requestId = newRequestId();
      const started = await post(a, { product: 'saree-rerender', photo, requestId, preview: 'off' });
      // Both instances watch and read it while it renders, checks and rerenders; the request is retried on b.
      const watching = [a, b].map((p) => readEvents(`${p.url}/tryons/${started.tryon}/events`));
      const retried = await post(b, { product: 'saree-rerender', photo, requestId, preview: 'off' });
      const [doneA, doneB] = await Promise.all([
        waitForStatus(a, started.tryon, finished),
        waitForStatus(b, retried.tryon, finished),
      ]);
      await Promise.all(watching);
      for (const done of [doneA, doneB] as Checked[]) {
        assert.equal(done.status, 'succeeded');
        assert.equal(done.fidelity?.rerender, 'done', JSON.stringify(done.fidelity));
      }
      assert.deepEqual(
        doneA.outputs.map((o) => o.view),
        doneB.outputs.map((o) => o.view),
      );
      const after = (await controls.state()).workspaces.ws_1!;
      const parents = (w: typeof before) => w.jobs.filter((j) => j.parent === null).length;
      assert.equal(parents(after) - parents(before), 2, 'one try-on and one rerender upstream');
      const usage = await usageOf(b.adminUrl);
      const figures = usage.days[0]!.products['saree-rerender']!;
      assert.equal(figures.fidelity.rerenders, 1);
      assert.equal(figures.fidelity.checked, 1, 'checked once, by the write that finished it');
      assert.equal(figures.tryons, 2);
      assert.equal(figures.credits, chargedSince(before, after));
      assert.equal(usage.budget.tryonsLeft, (usage.budget.dailyTryons ?? 0) - 2, 'two reservations in the ledger');
      const lines = fidelityLines([...a.logs, ...b.logs]);
      assert.equal(lines.length, 1, 'one log line across the instances');
      const worst = Math.max(...(lines[0]!.views as { deltaE: number }[]).map((v) => v.deltaE));
      assert.equal(figures.fidelity.medianDeltaE, Math.round(worst * 2) / 2, 'the median, kept in the store');
      assert.equal(figures.fidelity.differs, lines[0]!.verdict === 'differs' ? 1 : 0);
    });
});
