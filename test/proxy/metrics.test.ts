// GET /metrics: the operator's counters in the Prometheus text format, on the server's root
// (never under the shop's mount) and only with TRYON_METRICS_TOKEN as a bearer token. Driven
// through a real `proxy/node.ts` process on real Redis against the real sandbox.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startCluster, type Cluster } from './cluster.js';
import { HandleSigner } from '../../proxy/handles.js';
import { SECRET, photoHandle, startTryon, waitForStatus, type TryonAnswer } from './stack.js';
import { readEvents } from './sse.js';

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

describe('GET /metrics', () => {
  let cluster: Cluster;
  let url = '';
  const metrics = async () => {
    const response = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
    return response.text();
  };

  before(async () => {
    cluster = await startCluster({ count: 1, env: { TRYON_METRICS_TOKEN: TOKEN } });
    url = cluster.instances[0]!.url;
  });
  after(async () => { await cluster?.close(); });

  it('answers nothing without the token, or with a wrong one', async () => {
    const attempts: Record<string, string>[] = [{}, { authorization: 'Bearer wrong-token-wrong-token-00' }, { authorization: TOKEN }];
    for (const headers of attempts) {
      const response = await fetch(`${url}/metrics`, { headers });
      assert.equal(response.status, 404);
      assert.equal(((await response.json()) as { error: { code: string } }).error.code, 'not_found');
    }
  });

  it('counts try-ons started and finished by product and tier, upstream calls by route and status, SSE connections and store errors', async () => {
    await cluster.fault({ jobOutcome: 'hold', times: 1 });
    const started = await (await startTryon({ url }, { product: 'dress-aline-indigo', photo: await photoHandle({ url }) })).json() as TryonAnswer;
    const { jobId } = await new HandleSigner(SECRET).open('tryon', started.tryon);
    let opened!: () => void;
    const firstEvent = new Promise<void>((resolve) => { opened = resolve; });
    const stream = readEvents(`${url}/tryons/${started.tryon}/events`, () => opened(), AbortSignal.timeout(20_000));
    await firstEvent;
    assert.equal(Number(/^tryon_sse_connections (\d+)/m.exec(await metrics())?.[1]), 1, 'one stream open');
    await cluster.release(jobId);
    await stream;
    await waitForStatus({ url }, started.tryon, (s) => s.status === 'succeeded');
    const text = await metrics();
    assert.equal(sample(text, 'tryon_tryons_started_total', { product: 'dress-aline-indigo', tier: 'draft' }), 1);
    assert.equal(sample(text, 'tryon_tryons_finished_total', { product: 'dress-aline-indigo', tier: 'draft', status: 'succeeded' }), 1);
    assert.ok((sample(text, 'tryon_upstream_request_duration_seconds_count', { route: 'POST /v1/files' }) ?? 0) >= 2, 'photo and garment uploads');
    assert.ok((sample(text, 'tryon_upstream_request_duration_seconds_count', { route: 'GET /v1/jobs/{id}', status: '200' }) ?? 0) >= 1);
    assert.match(text, /tryon_upstream_request_duration_seconds_bucket\{le="0.1",route="POST \/v1\/images\/tryon",status="20\d"\}/);
    assert.equal(Number(/^tryon_sse_connections (\d+)/m.exec(text)?.[1]), 0, 'the stream closed');
    assert.doesNotMatch(text, /sk_test|127\.0\.0\.1|v1\.tryon\./, 'no key, address or handle in the metrics');

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
