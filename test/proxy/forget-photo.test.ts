// "Forget my photo" and the consent record, through the real proxy and the real sandbox.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startProxy } from '../../proxy/node.js';
import {
  CATALOG,
  SECRET,
  absolute,
  newRequestId,
  photoHandle,
  startStack,
  startTryon,
  waitForStatus,
  type Stack,
  type TryonAnswer,
  closeAfter,
} from './stack.js';
import { readEvents } from './sse.js';
import { STORE_KINDS, sharedStores, stackOn, type StoreKind } from './stores.js';

async function errorCode(response: Response): Promise<string> {
  return ((await response.json()) as { error: { code: string } }).error.code;
}

/** A finished try-on of `photo`, with the URL of its first output. */
async function finishedTryon(
  stack: Stack,
  photo: string,
  product = 'dress-aline-indigo',
): Promise<{ tryon: string; file: string }> {
  const response = await startTryon(stack, { product, photo });
  assert.equal(response.status, 202, await response.clone().text());
  const { tryon } = (await response.json()) as TryonAnswer;
  const done = await waitForStatus(stack, tryon, (s) => s.status === 'succeeded');
  return { tryon, file: absolute(stack, done.outputs[0]!.url) };
}

const forget = (stack: { url: string }, photo: string, headers: Record<string, string> = {}) =>
  fetch(`${stack.url}/photos/${photo}`, { method: 'DELETE', headers });

for (const kind of STORE_KINDS)
  describe(`DELETE /photos/{photo} (${kind} store)`, () => {
    let stack: Stack;
    let offsetMs = 0;
    before(async () => {
      stack = await stackOn(kind, {
        proxy: {
          now: () => Date.now() + offsetMs,
          limits: { photoTtlSeconds: 3600, tryonTtlSeconds: 86_400, fileTtlSeconds: 7200, ratePerMinute: 1000 },
        },
      });
    });
    after(async () => {
      await stack.close();
    });

    it('revokes the photo, its try-ons and their files: 204, then 404 for each', async () => {
      const photo = await photoHandle(stack);
      const { tryon, file } = await finishedTryon(stack, photo);
      const other = await finishedTryon(stack, await photoHandle(stack));
      assert.equal((await fetch(file)).status, 200);

      const answer = await forget(stack, photo);
      assert.equal(answer.status, 204);
      assert.equal(await answer.text(), '');

      const reuse = await startTryon(stack, { product: 'dress-aline-indigo', photo });
      assert.equal(reuse.status, 404);
      assert.equal(await errorCode(reuse), 'invalid_handle');
      for (const url of [`${stack.url}/tryons/${tryon}`, `${stack.url}/tryons/${tryon}/events`, file]) {
        const response = await fetch(url);
        assert.equal(response.status, 404, url);
        assert.equal(await errorCode(response), 'invalid_handle', url);
      }
      // Another shopper's photo is untouched.
      assert.equal((await fetch(`${stack.url}/tryons/${other.tryon}`)).status, 200);
      assert.equal((await fetch(other.file)).status, 200);
      const line = stack.logs.find((entry) => entry.event === 'photo_forgotten');
      assert.ok(line, 'the forgetting is logged');
      assert.ok(!JSON.stringify(line).includes(photo), 'by the photo id, not the handle');
    });

    it('is idempotent: forgetting twice answers 204 both times', async () => {
      const photo = await photoHandle(stack);
      assert.equal((await forget(stack, photo)).status, 204);
      assert.equal((await forget(stack, photo)).status, 204);
    });

    it('refuses what the proxy did not mint: 404 invalid_handle, nothing recorded', async () => {
      const photo = await photoHandle(stack);
      const { tryon } = await finishedTryon(stack, photo);
      const forged = `${photo.slice(0, -4)}AAAA`;
      for (const handle of [forged, 'not-a-handle', tryon]) {
        const response = await forget(stack, handle);
        assert.equal(response.status, 404, handle);
        assert.equal(await errorCode(response), 'invalid_handle');
      }
      assert.equal((await fetch(`${stack.url}/tryons/${tryon}`)).status, 200, 'a refused DELETE revoked nothing');
    });

    it('forgets a photo whose own handle has expired, reaching its still-live try-on', async () => {
      const photo = await photoHandle(stack);
      const { tryon, file } = await finishedTryon(stack, photo);
      // The proxy's clock only moves forward (rate limits rely on it).
      offsetMs += 2 * 3600_000;
      assert.equal(
        (await startTryon(stack, { product: 'dress-aline-indigo', photo })).status,
        401,
        'the photo handle has expired',
      );
      assert.equal((await fetch(`${stack.url}/tryons/${tryon}`)).status, 200, 'its try-on has not');
      assert.equal((await forget(stack, photo)).status, 204);
      assert.equal((await fetch(`${stack.url}/tryons/${tryon}`)).status, 404);
      assert.equal((await fetch(file)).status, 404);
    });

    it('share links expire at the configured time', async () => {
      const photo = await photoHandle(stack);
      const { file } = await finishedTryon(stack, photo);
      const maxAge = Number(/max-age=(\d+)/.exec((await fetch(file)).headers.get('cache-control') ?? '')?.[1]);
      // fileTtlSeconds is 7200, rounded up to the minute.
      assert.ok(maxAge > 7100 && maxAge <= 7260, `max-age ${maxAge}`);
      offsetMs += 7261_000;
      assert.equal((await fetch(file)).status, 401);
    });

    it('a shop on an allowed origin may send the DELETE cross-origin', async () => {
      const preflight = await fetch(`${stack.url}/photos/x`, {
        method: 'OPTIONS',
        headers: { origin: 'https://shop.example', 'access-control-request-method': 'DELETE' },
      });
      assert.equal(preflight.status, 204);
      assert.match(preflight.headers.get('access-control-allow-methods') ?? '', /DELETE/);
      const photo = await photoHandle(stack);
      const answer = await forget(stack, photo, { origin: 'https://shop.example' });
      assert.equal(answer.status, 204);
      assert.equal(answer.headers.get('access-control-allow-origin'), 'https://shop.example');
    });
  });

for (const kind of STORE_KINDS)
  describe(`forgetting a photo while its try-on is watched (${kind} store)`, () => {
    let stack: Stack;
    before(async () => {
      stack = await stackOn(kind, { sandbox: { speed: 0.05 }, proxy: { limits: { pollIntervalMs: 40 } } });
    });
    after(async () => {
      await stack.close();
    });

    it('ends the event stream at its next change, without a file link for the forgotten photo', async () => {
      const photo = await photoHandle(stack);
      const response = await startTryon(stack, { product: 'saree-banarasi-red', photo });
      assert.equal(response.status, 202, await response.clone().text());
      const { tryon } = (await response.json()) as TryonAnswer;
      let forgotten = false;
      const afterForgetting: string[] = [];
      let forgetting: Promise<Response> | undefined;
      await readEvents(`${stack.url}/tryons/${tryon}/events`, (event) => {
        if (forgotten) afterForgetting.push(event.data);
        if (!forgetting) {
          forgetting = forget(stack, photo).then((answer) => {
            forgotten = true;
            return answer;
          });
        }
      });
      assert.equal((await forgetting!).status, 204);
      for (const data of afterForgetting)
        assert.deepEqual((JSON.parse(data) as { outputs: unknown[] }).outputs, [], data);
      const done = await waitForStatus(stack, tryon, () => true).catch((error: Error) => error.message);
      assert.match(String(done), /status 404/, 'and the try-on itself is gone');
    });
  });

/**
 * A fetch for the proxy that holds its calls to one upstream route once armed, until opened:
 * `reached` says the first call is held; `order` hears when upstream answered a held call.
 */
function gate(route: string, order: string[] = []) {
  let armed = false;
  let reached!: () => void;
  let open!: () => void;
  const held = new Promise<void>((resolve) => {
    open = resolve;
  });
  const fetchThrough: typeof fetch = async (input, init) => {
    if (!armed || `${init?.method ?? 'GET'} ${new URL(String(input)).pathname}` !== route) return fetch(input, init);
    reached();
    await held;
    const response = await fetch(input, init);
    order.push(`upstream answered ${route}`);
    return response;
  };
  return {
    fetch: fetchThrough,
    arm: () => {
      armed = true;
    },
    reached: new Promise<void>((resolve) => {
      reached = resolve;
    }),
    open: () => open(),
    order,
  };
}

/**
 * Two proxies on one store and one sandbox (memory: one process, so the same proxy twice): the
 * try-on goes through `a`, whose upstream calls pass `fetchA`, the forgetting through `b`.
 */
async function twoInstances(
  kind: StoreKind,
  fetchA: typeof fetch,
): Promise<{ a: Stack; b: { url: string }; close(): Promise<void> }> {
  if (kind === 'memory') {
    const a = await startStack({ proxy: { fetch: fetchA } });
    return { a, b: a, close: () => a.close() };
  }
  const [one, two] = await sharedStores(kind, 2);
  const a = await startStack({ proxy: { store: one!, fetch: fetchA } });
  const b = await startProxy({
    apiKey: 'sk_test_a',
    baseUrl: a.sandboxUrl,
    secret: SECRET,
    allowedOrigins: ['https://shop.example'],
    catalog: CATALOG,
    assetsDir: a.assetsDir,
    log: () => undefined,
    store: two!,
    limits: { retryBaseMs: 20, pollIntervalMs: 200 },
  });
  return {
    a,
    b,
    close: async () => {
      await b.close();
      await a.close();
    },
  };
}

const upstreamJobs = async (stack: Stack) =>
  (await stack.state()).workspaces.ws_1!.jobs.filter((job) => job.parent === null).length;

for (const kind of STORE_KINDS)
  describe(`forgetting a photo while a try-on of it is on its way upstream (${kind} store${kind === 'memory' ? '' : ', two instances'})`, () => {
    it('a try-on still uploading its garment when the photo is forgotten never reaches upstream', async (t) => {
      const garment = gate('POST /v1/files');
      const { a, b } = closeAfter(t, await twoInstances(kind, garment.fetch));
      const photo = await photoHandle(a);
      garment.arm();
      const pending = startTryon(a, { product: 'dress-aline-indigo', photo });
      await garment.reached; // the photo was checked; the try-on waits on its garment's upload
      assert.equal((await forget(b, photo)).status, 204);
      const submits = (await a.state()).requests['POST /v1/images/tryon'] ?? 0;
      garment.open();
      const started = await pending;
      assert.equal(started.status, 404, await started.clone().text());
      assert.equal(await errorCode(started), 'invalid_handle');
      assert.equal(
        (await a.state()).requests['POST /v1/images/tryon'] ?? 0,
        submits,
        'no submit reached upstream after the 204',
      );
      assert.equal(await upstreamJobs(a), 0);
    });

    it('answers 204 only once a submit already let out to upstream is decided', async (t) => {
      const submit = gate('POST /v1/images/tryon');
      const { a, b } = closeAfter(t, await twoInstances(kind, submit.fetch));
      const photo = await photoHandle(a);
      const earlier = await startTryon(a, { product: 'dress-aline-indigo', photo });
      assert.equal(earlier.status, 202, await earlier.clone().text());
      const { tryon } = (await earlier.json()) as TryonAnswer;
      submit.arm();
      const pending = startTryon(a, { product: 'dress-aline-indigo', photo });
      await submit.reached; // this submit is on its way upstream
      const forgetting = forget(b, photo).then((answer) => {
        submit.order.push('forget answered');
        return answer;
      });
      // The forget is recorded (the photo's earlier try-on answers 404 on the other instance)
      // while the submit is still held…
      const deadline = Date.now() + 10_000;
      while ((await fetch(`${a.url}/tryons/${tryon}`)).status !== 404) {
        assert.ok(Date.now() < deadline, 'the forget was recorded');
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      submit.open();
      // …and the submit let out before it is the one kind that may still start a job: the 204 comes after it.
      assert.equal((await pending).status, 202);
      assert.equal((await forgetting).status, 204);
      assert.deepEqual(submit.order, ['upstream answered POST /v1/images/tryon', 'forget answered']);
      assert.equal(await upstreamJobs(a), 2);
    });
  });

describe('the consent record', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack({
      proxy: { limits: { photoTtlSeconds: 1800, tryonTtlSeconds: 172_800, fileTtlSeconds: 3600 } },
    });
  });
  after(async () => {
    await stack.close();
  });

  it('GET /products/{product} states the retention this proxy enforces', async () => {
    const body = (await (await fetch(`${stack.url}/products/dress-aline-indigo`)).json()) as { retention: unknown };
    assert.deepEqual(body.retention, { photoSeconds: 1800, resultSeconds: 172_800, shareLinkSeconds: 3600 });
  });

  it('the compliance line carries the consent version, language and retention; never the image or a raw id', async () => {
    const photo = await photoHandle(stack);
    const requestId = newRequestId();
    const response = await startTryon(stack, {
      product: 'dress-aline-indigo',
      photo,
      requestId,
      consentVersion: '3b1f0c9a7d2e4f60',
      consentLanguage: 'bn-IN',
    });
    assert.equal(response.status, 202, await response.clone().text());
    const line = stack.logs.find(
      (entry) =>
        entry.event === 'consent' && entry.requestId !== undefined && entry.consentVersion === '3b1f0c9a7d2e4f60',
    );
    assert.ok(line, JSON.stringify(stack.logs.filter((entry) => entry.event === 'consent')));
    assert.equal(line.consentLanguage, 'bn-IN');
    assert.deepEqual(line.retention, { photoSeconds: 1800, resultSeconds: 172_800, shareLinkSeconds: 3600 });
    assert.equal(line.product, 'dress-aline-indigo');
    assert.equal(typeof line.photo, 'string');
    assert.equal(typeof line.client, 'string');
    const text = JSON.stringify(line);
    const state = await stack.state();
    const job = state.workspaces.ws_1!.jobs.at(-1)!;
    assert.ok(!text.includes(job.id), 'no upstream job id');
    assert.ok(!/file_[A-Za-z0-9]/.test(text), 'no upstream file id');
    assert.ok(!text.includes(photo), 'not the photo handle');
    assert.ok(!text.includes('127.0.0.1'), 'no client address');
    assert.ok(text.length < 1000, 'no image bytes');
  });

  it('still accepts consent: true alone, recording null for what was not sent', async () => {
    const photo = await photoHandle(stack);
    const requestId = newRequestId();
    assert.equal((await startTryon(stack, { product: 'dress-aline-indigo', photo, requestId })).status, 202);
    const line = stack.logs.filter((entry) => entry.event === 'consent').at(-1)!;
    assert.equal(line.consentVersion, null);
    assert.equal(line.consentLanguage, null);
  });

  it('refuses a consent version that is not a hash or a language that is not a tag (422)', async () => {
    const photo = await photoHandle(stack);
    for (const extra of [{ consentVersion: 'v1' }, { consentLanguage: '<b>en</b>' }]) {
      const response = await startTryon(stack, { product: 'dress-aline-indigo', photo, ...extra });
      assert.equal(response.status, 422, JSON.stringify(extra));
      assert.equal(await errorCode(response), 'validation_failed');
    }
  });
});
