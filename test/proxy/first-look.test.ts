// The first look and colour previews through the real proxy and the real sandbox over loopback:
// the status body and every SSE event carry `preview`; a failed first look shows nothing and the
// try-on goes on; a failed try-on keeps its succeeded first look; a video gets a still first look;
// a retry starts and charges nothing new; colour previews are drafts of one colour, capped per photo.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import sharp from 'sharp';
import {
  CATALOG,
  absolute,
  photoHandle,
  startStack,
  startTryon,
  waitForStatus,
  type Stack,
  type StatusAnswer,
  type TryonAnswer,
  closeAfter,
} from './stack.js';
import { readEvents } from './sse.js';
import { STORE_KINDS, stackOn } from './stores.js';
import type { CatalogFile } from '../../proxy/catalog/catalog.js';

type Preview = { status: string; outputs: { view: string; type: string; url: string }[] };
type WithPreview = StatusAnswer & { preview?: Preview };

const catalog: CatalogFile = {
  ...CATALOG,
  products: {
    ...CATALOG.products,
    // Standard tier by its own choice: a first look by default.
    'kurta-cotton': {
      mode: 'garment_to_person',
      garmentImage: 'garments/dress-indigo.png',
      garment: { category: 'dress' },
      tier: 'standard',
      colourPreviews: { max: 2 },
      variants: {
        indigo: { name: 'Indigo' },
        red: { name: 'Red', garmentImage: 'garments/banarasi-red.png' },
        plain: { name: 'Plain' },
      },
    },
    // Premium with its first look turned off by the merchant.
    'saree-plain': {
      mode: 'garment_to_person',
      garmentImage: 'garments/banarasi-red.png',
      garment: { category: 'saree' },
      tier: 'premium',
      preview: 'off',
    },
  },
};

interface Job {
  id: string;
  type: string;
  status: string;
  tier: string;
  views: string[];
  charged: number;
  parent: string | null;
}

async function topJobs(stack: Stack): Promise<Job[]> {
  return ((await stack.state()).workspaces.ws_1!.jobs as unknown as Job[]).filter((job) => job.parent === null);
}
const credits = async (stack: Stack) => (await stack.state()).workspaces.ws_1!.credits;

async function start(stack: Stack, body: Record<string, unknown>): Promise<TryonAnswer> {
  const response = await startTryon(stack, body);
  assert.equal(response.status, 202, await response.clone().text());
  return (await response.json()) as TryonAnswer;
}

const status = async (stack: Stack, tryon: string) =>
  (await (await fetch(`${stack.url}/tryons/${tryon}`)).json()) as WithPreview;

/** Fetches a preview output and checks it is a real image on the endpoint's origin. */
async function assertImage(stack: Stack, url: string): Promise<void> {
  assert.match(url, /^files\/v1\.file\./, 'signed like every output, relative to the mount (files route)');
  const file = await fetch(absolute(stack, url));
  assert.equal(file.status, 200);
  assert.match(file.headers.get('content-type') ?? '', /^image\//);
  const meta = await sharp(Buffer.from(await file.arrayBuffer())).metadata();
  assert.ok((meta.width ?? 0) > 50);
}

describe('first look (draft preview) beside a try-on, against the sandbox', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack({ apiKey: 'sk_live_b', proxy: { catalog } });
  });
  after(async () => {
    await stack.close();
  });

  it('starts one draft, front-view image job beside a premium try-on; the status body and every SSE event carry preview', async () => {
    const photo = await photoHandle(stack);
    const jobsBefore = (await topJobs(stack)).length;
    const creditsBefore = await credits(stack);
    const started = await start(stack, { product: 'saree-banarasi-red', photo });
    const events = (await readEvents(`${stack.url}/tryons/${started.tryon}/events`))
      .filter((e) => e.event === 'status')
      .map((e) => JSON.parse(e.data) as WithPreview);
    assert.ok(events.length >= 1);
    for (const event of events)
      assert.ok(
        event.preview && typeof event.preview.status === 'string',
        `every status event carries preview: ${JSON.stringify(event)}`,
      );
    const last = events.at(-1)!;
    assert.equal(last.status, 'succeeded');
    assert.equal(last.outputs.length, 4, 'status and outputs keep meaning the try-on itself');

    const done = (await waitForStatus(
      stack,
      started.tryon,
      (s) => (s as WithPreview).preview?.status === 'succeeded',
    )) as WithPreview;
    assert.equal(done.preview!.outputs.length, 1);
    assert.deepEqual(Object.keys(done.preview!.outputs[0]!).sort(), ['type', 'url', 'view']);
    assert.equal(done.preview!.outputs[0]!.view, 'front');
    assert.equal(done.preview!.outputs[0]!.type, 'image');
    await assertImage(stack, done.preview!.outputs[0]!.url);

    const jobs = (await topJobs(stack)).slice(jobsBefore);
    assert.equal(jobs.length, 2);
    const [main, draft] = jobs;
    assert.deepEqual([main!.tier, main!.type, main!.charged], ['premium', 'catalog', 16]);
    assert.deepEqual([draft!.tier, draft!.type, draft!.views, draft!.charged], ['draft', 'image', ['front'], 1]);
    assert.equal(creditsBefore - (await credits(stack)), 17);
  });

  it('a retry with the same requestId starts and charges nothing new, and still carries the first look', async () => {
    const photo = await photoHandle(stack);
    const requestId = `retry-${Date.now()}`;
    const first = await start(stack, { product: 'kurta-cotton', photo, requestId });
    const jobsAfterFirst = (await topJobs(stack)).length;
    const creditsAfterFirst = await credits(stack);
    const again = await Promise.all(
      Array.from({ length: 3 }, () => start(stack, { product: 'kurta-cotton', photo, requestId })),
    );
    assert.equal((await topJobs(stack)).length, jobsAfterFirst);
    assert.equal(await credits(stack), creditsAfterFirst);
    for (const answer of [first, ...again]) {
      const done = (await waitForStatus(
        stack,
        answer.tryon,
        (s) => s.status === 'succeeded' && (s as WithPreview).preview?.status === 'succeeded',
      )) as WithPreview;
      assert.equal(done.preview!.outputs.length, 1);
    }
  });

  it('has no first look for a draft-tier product, one the merchant turned off, or when the browser sends preview: "off"', async () => {
    const photo = await photoHandle(stack);
    for (const body of [
      { product: 'dress-aline-indigo' },
      { product: 'saree-plain' },
      { product: 'kurta-cotton', preview: 'off' },
    ]) {
      const before = (await topJobs(stack)).length;
      const started = await start(stack, { ...body, photo });
      const done = await waitForStatus(stack, started.tryon, (s) => s.status === 'succeeded');
      assert.equal((done as WithPreview).preview, undefined, JSON.stringify(body));
      assert.equal((await topJobs(stack)).length - before, 1, `one job for ${JSON.stringify(body)}`);
    }
    const raised = await startTryon(stack, { product: 'dress-aline-indigo', photo, preview: 'draft' });
    assert.equal(raised.status, 422, 'the browser can only turn the first look off');
    assert.equal(((await raised.json()) as { error: { code: string } }).error.code, 'validation_failed');
  });

  it('a failed first look shows nothing and the try-on goes on to its result', async () => {
    const photo = await photoHandle(stack);
    const before = (await topJobs(stack)).length;
    // The try-on is submitted first: it is held; its first look fails.
    await stack.fault({ jobOutcome: 'hold', times: 1 });
    await stack.fault({ jobOutcome: 'failed', times: 1 });
    try {
      const started = await start(stack, { product: 'kurta-cotton', photo });
      const failed = (await waitForStatus(
        stack,
        started.tryon,
        (s) => (s as WithPreview).preview?.status === 'failed',
      )) as WithPreview;
      assert.deepEqual(failed.preview, { status: 'failed', outputs: [] });
      assert.notEqual(failed.status, 'failed');
      const [main] = (await topJobs(stack)).slice(before);
      const release = await fetch(`${stack.sandboxUrl}/sandbox/jobs/${main!.id}/release`, { method: 'POST' });
      assert.equal(release.status, 200, await release.text());
      const done = (await waitForStatus(stack, started.tryon, (s) => s.status === 'succeeded')) as WithPreview;
      assert.equal(done.outputs.length, 1);
      assert.deepEqual(done.preview, { status: 'failed', outputs: [] });
    } finally {
      await stack.clearFaults();
    }
  });

  it('a try-on that fails after its first look succeeded still carries the first look, in the status body and the last SSE event', async () => {
    const photo = await photoHandle(stack);
    await stack.fault({ jobOutcome: 'failed', times: 1 });
    try {
      const started = await start(stack, { product: 'kurta-cotton', photo });
      const events = (await readEvents(`${stack.url}/tryons/${started.tryon}/events`))
        .filter((e) => e.event === 'status')
        .map((e) => JSON.parse(e.data) as WithPreview);
      const last = events.at(-1)!;
      assert.equal(last.status, 'failed');
      assert.equal(last.error?.code, 'render_failed');
      assert.equal(last.preview?.status, 'succeeded', 'the stream waits for the first look after a failed try-on');
      const body = await status(stack, started.tryon);
      assert.equal(body.status, 'failed');
      assert.equal(body.outputs.length, 0);
      assert.equal(body.preview?.status, 'succeeded');
      await assertImage(stack, body.preview!.outputs[0]!.url);
    } finally {
      await stack.clearFaults();
    }
  });

  it('a video try-on gets a still first look', async () => {
    const photo = await photoHandle(stack);
    const before = (await topJobs(stack)).length;
    const started = await start(stack, { product: 'saree-banarasi-red', photo, output: 'video' });
    const done = (await waitForStatus(
      stack,
      started.tryon,
      (s) => s.status === 'succeeded' && (s as WithPreview).preview?.status === 'succeeded',
      60_000,
    )) as WithPreview;
    assert.equal(done.outputs[0]!.type, 'video');
    assert.equal(done.preview!.outputs[0]!.type, 'image');
    await assertImage(stack, done.preview!.outputs[0]!.url);
    const jobs = (await topJobs(stack)).slice(before);
    assert.deepEqual(
      jobs.map((job) => [job.type, job.tier]),
      [
        ['video', 'premium'],
        ['image', 'draft'],
      ],
    );
  });
});

describe('colour previews (quality: "preview"), against the sandbox', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack({ apiKey: 'sk_live_b', proxy: { catalog } });
  });
  after(async () => {
    await stack.close();
  });

  it('GET /products says how many a photo may make (0 when off) and whether a try-on has a first look', async () => {
    const kurta = (await (await fetch(`${stack.url}/products/kurta-cotton`)).json()) as Record<string, unknown>;
    assert.equal(kurta.colourPreviews, 2);
    assert.equal(kurta.preview, 'draft');
    const dress = (await (await fetch(`${stack.url}/products/dress-aline-indigo`)).json()) as Record<string, unknown>;
    assert.equal(dress.colourPreviews, 0);
    assert.equal(dress.preview, 'off');
  });

  it('starts one draft front-view job per colour, free on retry, capped per photo with 429 colour_preview_limit', async () => {
    const photo = await photoHandle(stack);
    const before = (await topJobs(stack)).length;
    const red = `colour-red-${Date.now()}`;
    const answers = await Promise.all([
      start(stack, { product: 'kurta-cotton', photo, variant: 'red', quality: 'preview', requestId: red }),
      start(stack, { product: 'kurta-cotton', photo, variant: 'red', quality: 'preview', requestId: red }),
    ]);
    assert.deepEqual(answers[0]!.views, ['front']);
    await start(stack, { product: 'kurta-cotton', photo, variant: 'indigo', quality: 'preview' });
    const over = await startTryon(stack, { product: 'kurta-cotton', photo, variant: 'plain', quality: 'preview' });
    assert.equal(over.status, 429);
    assert.equal(((await over.json()) as { error: { code: string } }).error.code, 'colour_preview_limit');
    const jobs = (await topJobs(stack)).slice(before);
    assert.deepEqual(
      jobs.map((job) => [job.type, job.tier, job.views, job.charged]),
      [
        ['image', 'draft', ['front'], 1],
        ['image', 'draft', ['front'], 1],
      ],
    );
    const done = (await waitForStatus(stack, answers[0]!.tryon, (s) => s.status === 'succeeded')) as WithPreview;
    assert.equal(done.outputs.length, 1);
    assert.equal(done.preview, undefined, 'a colour preview has no separate first look');
    await assertImage(stack, done.outputs[0]!.url);
    // The cap is the photo's: a new photo may make its own, and a full try-on of the photo is not capped by it.
    await start(stack, {
      product: 'kurta-cotton',
      photo: await photoHandle(stack),
      variant: 'plain',
      quality: 'preview',
    });
    await start(stack, { product: 'kurta-cotton', photo, variant: 'plain' });
  });

  it('refuses a colour preview clearly: off for the product, no colour named, an unlisted colour, a video or another view', async () => {
    const photo = await photoHandle(stack);
    const cases: [Record<string, unknown>, number, string][] = [
      [{ product: 'saree-plain', quality: 'preview' }, 422, 'colour_previews_off'],
      [{ product: 'kurta-cotton', quality: 'preview' }, 422, 'validation_failed'],
      [{ product: 'kurta-cotton', quality: 'preview', variant: 'gold' }, 422, 'unknown_variant'],
      [{ product: 'kurta-cotton', quality: 'preview', variant: 'red', output: 'video' }, 422, 'validation_failed'],
      [{ product: 'kurta-cotton', quality: 'preview', variant: 'red', views: ['back'] }, 422, 'validation_failed'],
      [{ product: 'kurta-cotton', quality: 'cheap', variant: 'red' }, 422, 'validation_failed'],
    ];
    const before = (await topJobs(stack)).length;
    for (const [body, code, error] of cases) {
      const response = await startTryon(stack, { ...body, photo });
      assert.equal(response.status, code, JSON.stringify(body));
      assert.equal(((await response.json()) as { error: { code: string } }).error.code, error, JSON.stringify(body));
    }
    assert.equal((await topJobs(stack)).length, before, 'nothing started');
  });
});

for (const kind of STORE_KINDS)
  describe(`the first look's reservation over loopback (${kind} store)`, () => {
    // A premium video (20 credits) beside its first look (1): a budget of 22 leaves room for a
    // 2-credit try-on only if the first look's credit was given back.
    const limits = {
      dailyCredits: 22,
      tryonsPerPhoto: 100,
      clientDailyTryons: 100,
      dailyTryons: 100,
      ratePerMinute: 10_000,
    };

    it('gives the first look’s credit back when upstream refused its submit (surely started nothing), and the video goes on', async (t) => {
      const stack = closeAfter(t, await stackOn(kind, { apiKey: 'sk_live_b', proxy: { catalog, limits } }));
      const photo = await photoHandle(stack);
      // The video is POST /v1/videos/tryon; its first look, the only image submit, is refused.
      await stack.fault({ match: 'POST /v1/images/tryon', status: 402, times: 1 });
      const video = await start(stack, { product: 'saree-banarasi-red', photo, output: 'video' });
      assert.equal((await status(stack, video.tryon)).preview, undefined, 'no first look to show');
      assert.ok(stack.logs.some((line) => line.event === 'first_look_failed'));
      const more = await startTryon(stack, { product: 'saree-plain', photo, views: ['front'] });
      // saree-plain is premium (4 a view): 20 + 4 > 22 either way; kurta without its first look is 2.
      assert.equal(more.status, 503);
      assert.equal(
        (await startTryon(stack, { product: 'kurta-cotton', photo, preview: 'off' })).status,
        202,
        'the refused first look’s credit came back',
      );
    });

    it('keeps the first look’s credit when its submit may have started upstream (5xx on every attempt)', async (t) => {
      const stack = closeAfter(t, await stackOn(kind, { apiKey: 'sk_live_b', proxy: { catalog, limits } }));
      const photo = await photoHandle(stack);
      await stack.fault({ match: 'POST /v1/images/tryon', status: 500, times: 3 });
      const video = await start(stack, { product: 'saree-banarasi-red', photo, output: 'video' });
      assert.equal((await status(stack, video.tryon)).preview, undefined);
      const refused = await startTryon(stack, { product: 'kurta-cotton', photo, preview: 'off' });
      assert.equal(refused.status, 503, 'the credit of a first look that may have started is never given back');
      assert.equal(((await refused.json()) as { error: { code: string } }).error.code, 'daily_budget_reached');
      assert.equal(
        (await startTryon(stack, { product: 'dress-aline-indigo', photo })).status,
        202,
        'one draft credit is left',
      );
    });
  });
