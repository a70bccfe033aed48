// How long a try-on usually takes, from what happened (proxy/timings/): before anything is measured
// GET /products answers the figures the proxy was told (the defaults, TRYON_TYPICAL_SECONDS, the
// demo's sandbox speed); each succeeded try-on's time from accepted to finished is kept in a
// bounded window per kind in the store, so two instances sharing Redis (or Durable Objects) answer
// one median; and over loopback against the real sandbox the measured median replaces the default.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, loadConfig } from '../../proxy/config/config.js';
import { createProxy } from '../../proxy/app.js';
import { MemoryStore } from '../../proxy/store/memory.js';
import {
  DEFAULT_TYPICAL_SECONDS,
  FURTHER_VIEW_SHARE,
  MEASURED_ENOUGH,
  RECENT_TRYONS,
  TryonTimes,
  kindOf,
  median,
  type FinishedTryon,
} from '../../proxy/timings/tryon-times.js';
import { sandboxTypicalSeconds } from '../../demo/tryon-service.js';
import { latency } from '../../sandbox/api/tiers.js';
import { CATALOG, SECRET, photoHandle, startTryon, useStack, waitForStatus, type TryonAnswer } from './stack.js';
import { SHARED_STORE_KINDS, STORE_KINDS, sharedStores, storeOf } from './stores.js';

/** A finished try-on as the status board's finishing write hands it on. */
function finished(tier: string, seconds: number, outputs: ('image' | 'video')[] = ['image']): FinishedTryon {
  const acceptedAt = 1_700_000_000_000;
  return {
    tier,
    acceptedAt,
    snapshot: { status: 'succeeded', at: acceptedAt + seconds * 1000, outputs: outputs.map((type) => ({ type })) },
  };
}

const tenths = (value: number) => Math.round(value * 10) / 10;

/** A proxy answering in-process (no upstream is asked for a product's figures). */
const proxyWith = (options: Partial<Parameters<typeof createProxy>[0]> = {}) =>
  createProxy({
    apiKey: 'sk_test_a',
    baseUrl: 'http://127.0.0.1:9',
    secret: SECRET,
    allowedOrigins: ['https://shop.example'],
    catalog: CATALOG,
    mode: 'test',
    readAsset: async () => new Uint8Array(),
    ...options,
  });

interface ProductAnswer {
  tier: string;
  views: string[];
  typicalSeconds: { image: number[]; video?: number };
}

describe('try-on times: the figures before anything is measured', () => {
  it('GET /products answers the defaults by tier, a share more per further view, and the video only where offered', async () => {
    const proxy = proxyWith();
    const saree = (await (await proxy.request('/products/saree-banarasi-red')).json()) as ProductAnswer;
    const premium = DEFAULT_TYPICAL_SECONDS.image.premium;
    assert.deepEqual(saree.typicalSeconds, {
      image: [1, 2, 3, 4].map((n) => tenths(premium * (1 + FURTHER_VIEW_SHARE * (n - 1)))),
      video: DEFAULT_TYPICAL_SECONDS.video.premium,
    });
    const dress = (await (await proxy.request('/products/dress-aline-indigo')).json()) as ProductAnswer;
    assert.deepEqual(dress.typicalSeconds, { image: [DEFAULT_TYPICAL_SECONDS.image.draft] });
  });

  it('typicalSeconds (TRYON_TYPICAL_SECONDS) replaces the defaults tier by tier; a bad table is refused, naming the field', async () => {
    const env = { NODE_ENV: 'test', TRYON_TYPICAL_SECONDS: '{"image":{"premium":4.5},"video":{"premium":12}}' };
    const config = loadConfig(env);
    assert.deepEqual(config.typicalSeconds, { image: { premium: 4.5 }, video: { premium: 12 } });
    const proxy = proxyWith({ typicalSeconds: config.typicalSeconds! });
    const saree = (await (await proxy.request('/products/saree-banarasi-red')).json()) as ProductAnswer;
    assert.equal(saree.typicalSeconds.image[0], 4.5);
    assert.equal(saree.typicalSeconds.video, 12);
    const dress = (await (await proxy.request('/products/dress-aline-indigo')).json()) as ProductAnswer;
    assert.deepEqual(
      dress.typicalSeconds.image,
      [DEFAULT_TYPICAL_SECONDS.image.draft],
      'the tiers not named keep theirs',
    );

    for (const [text, says] of [
      ['{"image":{"premium":0}}', 'image.premium'],
      ['{"image":{"ultra":3}}', 'ultra'],
      ['4.5', '(table)'],
      ['{image', 'not JSON'],
    ] as const) {
      assert.throws(
        () => loadConfig({ NODE_ENV: 'test', TRYON_TYPICAL_SECONDS: text }),
        (error: unknown) =>
          error instanceof ConfigError &&
          error.problems.some((p) => p.includes('TRYON_TYPICAL_SECONDS') && p.includes(says)),
        text,
      );
    }
    assert.throws(() => proxyWith({ typicalSeconds: { video: { draft: -1 } } }), /typicalSeconds: video\.draft/);
  });

  it("the demo's sandbox figures are the sandbox's medians at its speed", () => {
    const figures = sandboxTypicalSeconds(0.3);
    assert.equal(figures.image?.standard, tenths(latency.front.standard.median * 0.3));
    assert.equal(figures.video?.premium, tenths(latency.video.premium.median * 0.3));
    assert.ok(figures.image?.standard !== DEFAULT_TYPICAL_SECONDS.image.standard);
    assert.equal(sandboxTypicalSeconds(0).image?.draft, 0.1, 'an instant sandbox still takes a moment');
  });

  it('counts succeeded try-ons only, each under its kind (tier, views, video)', async () => {
    const store = new MemoryStore();
    const times = new TryonTimes(store);
    await times.tryonFinished(finished('standard', 8, ['image', 'image', 'image']));
    await times.tryonFinished(finished('standard', 30, ['video']));
    await times.tryonFinished({
      ...finished('standard', 99),
      snapshot: { ...finished('standard', 99).snapshot, status: 'failed' },
    });
    await times.tryonFinished({ ...finished('standard', 77), acceptedAt: undefined });
    await times.tryonFinished(finished('unknown-tier', 55));
    assert.deepEqual(
      await store.tryonTimes([
        kindOf('standard', 'image', 1),
        kindOf('standard', 'image', 3),
        kindOf('standard', 'video'),
      ]),
      [[], [8], [30]],
    );
  });
});

describe('try-on times: the window in each store', () => {
  for (const kind of STORE_KINDS) {
    it(`${kind}: keeps only the newest ${RECENT_TRYONS} of a kind, and the median is theirs`, async () => {
      const store = (await storeOf(kind)) ?? new MemoryStore();
      const times = new TryonTimes(store);
      // The oldest ten are slow: once pushed out, they move the median no more.
      for (let i = 0; i < 10; i++) await times.tryonFinished(finished('premium', 500 + i));
      const recent = Array.from({ length: RECENT_TRYONS }, (_, i) => 10 + (i % 7));
      for (const seconds of recent) await times.tryonFinished(finished('premium', seconds));
      const [kept] = await store.tryonTimes([kindOf('premium', 'image', 1)]);
      assert.equal(kept?.length, RECENT_TRYONS);
      assert.deepEqual(kept, [...recent].reverse(), 'newest first, the oldest gone');
      const answer = await times.product('premium', 1, false);
      assert.deepEqual(answer, { image: [tenths(median(recent))] });
    });
  }
});

describe('try-on times: one median for every instance', () => {
  for (const kind of SHARED_STORE_KINDS) {
    it(`${kind}: two instances count into one window and answer the same median; below ${MEASURED_ENOUGH} the told figure stands`, async () => {
      const [one, two] = await sharedStores(kind, 2);
      const first = new TryonTimes(one!, { typicalSeconds: { image: { standard: 4.5 } } });
      const second = new TryonTimes(two!, { typicalSeconds: { image: { standard: 4.5 } } });
      const seconds = [11.2, 12.9, 10.4, 13.1, 12.1, 9.8, 14.6];
      for (const [i, value] of seconds.entries()) {
        await (i % 2 ? second : first).tryonFinished(finished('standard', value));
        const told = i + 1 < MEASURED_ENOUGH;
        const expected = told ? 4.5 : tenths(median(seconds.slice(0, i + 1)));
        const [a, b] = await Promise.all([first.product('standard', 1, false), second.product('standard', 1, false)]);
        assert.deepEqual(a, { image: [expected] }, `after ${i + 1}`);
        assert.deepEqual(b, a, `the other instance after ${i + 1}`);
      }
      assert.equal((await first.product('standard', 1, false)).image[0], 12.1);
    });
  }
});

describe('try-on times: over loopback against the real sandbox', () => {
  it(`after ${MEASURED_ENOUGH} try-ons the measured median replaces the default`, async (t) => {
    // The sandbox at a twentieth of its speed: a draft takes a fraction of its default 3 s.
    const stack = await useStack(t, { sandbox: { speed: 0.05 } });
    const product = async () =>
      (await (await fetch(`${stack.url}/products/dress-aline-indigo`)).json()) as ProductAnswer;
    assert.deepEqual((await product()).typicalSeconds, { image: [DEFAULT_TYPICAL_SECONDS.image.draft] });

    const observed: number[] = [];
    for (let i = 0; i < MEASURED_ENOUGH; i++) {
      const photo = await photoHandle(stack);
      const sent = Date.now();
      const response = await startTryon(stack, { product: 'dress-aline-indigo', photo });
      assert.equal(response.status, 202);
      const { tryon } = (await response.json()) as TryonAnswer;
      const done = await waitForStatus(stack, tryon, (s) => s.status === 'succeeded' || s.status === 'failed');
      assert.equal(done.status, 'succeeded');
      observed.push((Date.now() - sent) / 1000);
      if (i + 1 < MEASURED_ENOUGH)
        assert.equal((await product()).typicalSeconds.image[0], DEFAULT_TYPICAL_SECONDS.image.draft, `after ${i + 1}`);
    }
    const measured = (await product()).typicalSeconds.image[0]!;
    t.diagnostic(`measured median ${measured} s; the client saw ${observed.map((s) => s.toFixed(2)).join(', ')} s`);
    assert.notEqual(measured, DEFAULT_TYPICAL_SECONDS.image.draft);
    // Accepted → finished lies inside what the client saw of each (its submit to its last read).
    assert.ok(
      measured > 0 && measured <= tenths(Math.max(...observed)) + 0.1,
      `${measured} within ${observed.join(', ')}`,
    );
  });
});
