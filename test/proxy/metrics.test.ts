// The admin listener: GET /metrics (the operator's counters in the Prometheus text format) and
// GET /usage (the day's spending against the budget), on TRYON_ADMIN_PORT only, to the bearer
// TRYON_ADMIN_TOKEN (or its old name TRYON_METRICS_TOKEN). The public port serves neither, not even
// through the documented nginx block, which strips its /tryon prefix. Driven through a real
// `proxy/node.ts` process on real Redis against the real sandbox, and real nginx.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startCluster, type Cluster } from './cluster.js';
import { startNginx, type Nginx } from './nginx.js';
import { HandleSigner } from '../../proxy/security/handles.js';
import { ADMIN_REFUSALS_PER_MINUTE } from '../../proxy/admin.js';
import { SECRET, photoHandle, startTryon, waitForStatus, type TryonAnswer, useStack } from './stack.js';
import { readEvents } from './sse.js';
import { send } from './wire.js';

const TOKEN = 'metrics-token-for-tests-0123456789';

/** The value of one sample line, e.g. `name{a="b"}`; undefined when absent. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const body = line.slice(name.length + 1, line.lastIndexOf('}'));
    const found = Object.fromEntries([...body.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([k, v]) => found[k] === v)) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

describe('the admin listener: GET /metrics and GET /usage', () => {
  let cluster: Cluster;
  let nginx: Nginx;
  let url = '';
  let admin = '';
  const metrics = async () => {
    const response = await fetch(`${admin}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
    return response.text();
  };

  before(async () => {
    // The old variable name, as a shop that set it before the admin listener existed.
    cluster = await startCluster({
      count: 1,
      env: { TRYON_METRICS_TOKEN: TOKEN, TRYON_ADMIN_PORT: '0', TRYON_TRUST_PROXY: '1' },
    });
    url = cluster.instances[0]!.url;
    admin =
      /admin listener \(GET \/metrics, GET \/usage\) on (http:\/\/127\.0\.0\.1:\d+)/.exec(
        cluster.instances[0]!.output(),
      )?.[1] ?? '';
    assert.ok(admin, cluster.instances[0]!.output());
    assert.notEqual(admin, url);
    nginx = await startNginx(Number(new URL(url).port));
  });
  after(async () => {
    await nginx?.stop();
    await cluster?.close();
  });

  /** An answer without what differs between any two requests (its id, its date). */
  const comparable = async (response: Response) => {
    const headers = Object.fromEntries(
      [...response.headers].filter(([name]) => name !== 'x-request-id' && name !== 'date'),
    );
    return { status: response.status, headers, body: await response.text() };
  };

  it('the public port serves neither /metrics nor /usage, with the token or without, through nginx or not', async () => {
    for (const base of [nginx.url, url]) {
      const unknown = await comparable(
        await fetch(`${base}/no-such-page`, { headers: { authorization: `Bearer ${TOKEN}` } }),
      );
      assert.equal(unknown.status, 404);
      for (const path of ['/metrics', '/usage', '/tryon/metrics']) {
        const answered = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${TOKEN}` } });
        // The proxy's own answer (its security headers), not nginx's page.
        assert.equal(
          answered.headers.get('content-security-policy'),
          "default-src 'none'; frame-ancestors 'none'",
          `${base}${path}`,
        );
        assert.deepEqual(await comparable(answered), unknown, `${base}${path}`);
      }
    }
  });

  it('with no admin listener the public port answers /metrics exactly as any unknown path too', async (t) => {
    const stack = await useStack(t, { proxy: { log: () => undefined } });
    const unknown = await comparable(await fetch(`${stack.url}/no-such-page`));
    for (const path of ['/metrics', '/usage'])
      assert.deepEqual(
        await comparable(await fetch(`${stack.url}${path}`, { headers: { authorization: `Bearer ${TOKEN}` } })),
        unknown,
        path,
      );
  });

  it('answers 401 without the token or with a wrong one, logs the refusal without the token, 429 to a guesser after a few, and the right token still after 20 bad ones', async () => {
    const attempts: Record<string, string>[] = [
      {},
      { authorization: 'Bearer wrong-token-wrong-token-00' },
      { authorization: TOKEN },
      { authorization: `Bearer ${TOKEN}x` },
    ];
    const logged = () => cluster.instances[0]!.logs.filter((l) => l.event === 'admin_auth_refused').length;
    const before = logged();
    for (const headers of attempts) {
      const response = await send(`${admin}/metrics`, { from: '127.0.0.2', headers });
      assert.equal(response.status, 401, response.text);
      assert.deepEqual(response.json(), {
        error: { code: 'unauthorized', message: 'This address answers only to the admin token.', retryable: false },
      });
      assert.equal(response.headers['www-authenticate'], 'Bearer');
    }
    await cluster.instances[0]!.logged((l) => l.event === 'admin_auth_refused', before + attempts.length);
    assert.equal(logged() - before, attempts.length);
    assert.doesNotMatch(
      cluster.instances[0]!.output(),
      new RegExp(`wrong-token|${TOKEN}`),
      'no token, right or wrong, in the log',
    );
    for (let i = attempts.length; i < ADMIN_REFUSALS_PER_MINUTE; i++)
      assert.equal((await send(`${admin}/usage`, { from: '127.0.0.2' })).status, 401);
    // Out of attempts: every wrong token is 429, twenty bad ones in all.
    for (let i = ADMIN_REFUSALS_PER_MINUTE; i < 20; i++) {
      const headers: Record<string, string> = i % 2 ? {} : { authorization: `Bearer wrong-${i}-wrong-token-000` };
      const refused = await send(`${admin}/metrics`, { from: '127.0.0.2', headers });
      assert.equal(refused.status, 429, refused.text);
      assert.equal(refused.json<{ error: { code: string } }>().error.code, 'rate_limited');
      assert.ok(Number(refused.headers['retry-after']) >= 1);
    }
    // The right token is never refused: every process on the machine is the same loopback client,
    // and a guessing one must not blind Prometheus or the usage page.
    for (const path of ['/metrics', '/usage']) {
      const served = await send(`${admin}${path}`, {
        from: '127.0.0.2',
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      assert.equal(served.status, 200, `${path}: ${served.text}`);
    }
    // Nor does it clear the guesser's count.
    assert.equal((await send(`${admin}/metrics`, { from: '127.0.0.2' })).status, 429);
    // Another client is not held up by the guesser.
    assert.equal(
      (await send(`${admin}/metrics`, { from: '127.0.0.3', headers: { authorization: `Bearer ${TOKEN}` } })).status,
      200,
    );
  });

  it('counts try-ons started and finished by product and tier, upstream calls by route and status, SSE connections and store errors', async () => {
    await cluster.fault({ jobOutcome: 'hold', times: 1 });
    const started = (await (
      await startTryon({ url }, { product: 'dress-aline-indigo', photo: await photoHandle({ url }) })
    ).json()) as TryonAnswer;
    const { jobId } = await new HandleSigner(SECRET).open('tryon', started.tryon);
    let opened!: () => void;
    const firstEvent = new Promise<void>((resolve) => {
      opened = resolve;
    });
    const stream = readEvents(`${url}/tryons/${started.tryon}/events`, () => opened(), AbortSignal.timeout(20_000));
    await firstEvent;
    assert.equal(Number(/^tryon_sse_connections (\d+)/m.exec(await metrics())?.[1]), 1, 'one stream open');
    await cluster.release(jobId);
    await stream;
    await waitForStatus({ url }, started.tryon, (s) => s.status === 'succeeded');
    const text = await metrics();
    assert.equal(sample(text, 'tryon_tryons_started_total', { product: 'dress-aline-indigo', tier: 'draft' }), 1);
    assert.equal(
      sample(text, 'tryon_tryons_finished_total', {
        product: 'dress-aline-indigo',
        tier: 'draft',
        status: 'succeeded',
      }),
      1,
    );
    assert.ok(
      (sample(text, 'tryon_upstream_request_duration_seconds_count', { route: 'POST /v1/files' }) ?? 0) >= 2,
      'photo and garment uploads',
    );
    assert.ok(
      (sample(text, 'tryon_upstream_request_duration_seconds_count', { route: 'GET /v1/jobs/{id}', status: '200' }) ??
        0) >= 1,
    );
    assert.match(
      text,
      /tryon_upstream_request_duration_seconds_bucket\{le="0.1",route="POST \/v1\/images\/tryon",status="20\d"\}/,
    );
    assert.equal(Number(/^tryon_sse_connections (\d+)/m.exec(text)?.[1]), 0, 'the stream closed');
    assert.doesNotMatch(text, /sk_test|127\.0\.0\.1|v1\.tryon\./, 'no key, address or handle in the metrics');

    const usage = await fetch(`${admin}/usage`, { headers: { authorization: `Bearer ${TOKEN}` } });
    assert.equal(usage.status, 200);
    assert.equal(usage.headers.get('cache-control'), 'no-store');
    const today = new Date().toISOString().slice(0, 10);
    const answer = (await usage.json()) as { days: unknown[]; budget: unknown };
    assert.equal(answer.days.length, 30, '30 days, today first (test/proxy/usage.test.ts checks the rest)');
    assert.deepEqual(answer.days[0], {
      date: today,
      tryons: 1,
      credits: 1,
      previews: 0,
      errors: {},
      products: { 'dress-aline-indigo': { tryons: 1, credits: 1 } },
      outfits: 0,
      outfitPieces: 0,
      piecesPerOutfit: 0,
      outfitsAddedToCart: 0,
      piecesAddedToCart: 0,
    });
    assert.deepEqual(answer.budget, { dailyTryons: 500, dailyCredits: 2000, tryonsLeft: 499, creditsLeft: 1999 });

    await cluster.redis.stop();
    try {
      const refused = await startTryon({ url }, { product: 'dress-aline-indigo', photo: 'v1.photo.x.y' });
      assert.equal(refused.status, 503);
      assert.ok((sample(await metrics(), 'tryon_store_errors_total', { operation: 'rate_limit' }) ?? 0) >= 1);
    } finally {
      await cluster.redis.start();
    }
  });
});
