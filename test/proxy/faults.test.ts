// Upstream trouble handled as documented: retries where safe, our error shape otherwise.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { HandleSigner } from '../../proxy/security/handles.js';
import {
  SECRET,
  photoHandle,
  startStack,
  startTryon,
  uploadPhoto,
  waitForStatus,
  type Stack,
  type TryonAnswer,
  useStack,
} from './stack.js';

async function errorOf(
  response: Response,
): Promise<{ status: number; code: string; retryable: boolean; text: string }> {
  const text = await response.text();
  const body = JSON.parse(text) as { error: { code: string; retryable: boolean } };
  return { status: response.status, code: body.error.code, retryable: body.error.retryable, text };
}

describe('upstream faults', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack({
      proxy: { limits: { pollIntervalMs: 0, upstreamTimeoutMs: 800, retries: 2, retryBaseMs: 20 } },
    });
  });
  after(async () => {
    await stack.close();
  });
  const submits = async () => (await stack.state()).requests['POST /v1/images/tryon'] ?? 0;

  it('a submit answered 503 twice, then fine, succeeds through retries with one job', async () => {
    const photo = await photoHandle(stack);
    const jobsBefore = (await stack.state()).workspaces.ws_1!.jobs.length;
    const before = await submits();
    await stack.fault({ match: 'POST /v1/images/tryon', status: 503, times: 2 });
    const response = await startTryon(stack, { product: 'dress-aline-indigo', photo });
    assert.equal(response.status, 202, await response.clone().text());
    assert.equal(await submits(), before + 3);
    assert.equal((await stack.state()).workspaces.ws_1!.jobs.length, jobsBefore + 1);
  });

  it('a submit that keeps failing gives 502 upstream_unavailable, retryable', async () => {
    const photo = await photoHandle(stack);
    await stack.fault({ match: 'POST /v1/images/tryon', status: 503, times: 3 });
    const error = await errorOf(await startTryon(stack, { product: 'dress-aline-indigo', photo }));
    assert.deepEqual([error.status, error.code, error.retryable], [502, 'upstream_unavailable', true]);
    assert.ok(!error.text.includes('injected'), 'the upstream body is not passed through');
  });

  it('the photo upload is never retried: one 503 → 502 and one upstream call', async () => {
    const before = (await stack.state()).requests['POST /v1/files'] ?? 0;
    await stack.fault({ match: 'POST /v1/files', status: 503, times: 1 });
    const error = await errorOf(await uploadPhoto(stack));
    assert.deepEqual([error.status, error.code, error.retryable], [502, 'upstream_unavailable', true]);
    assert.equal((await stack.state()).requests['POST /v1/files'], before + 1);
  });

  it('a job poll slower than the timeout is retried; if every try is slow → 504 upstream_timeout', async () => {
    await stack.fault({ jobOutcome: 'hold', times: 1 });
    const started = (await (
      await startTryon(stack, { product: 'dress-aline-indigo', photo: await photoHandle(stack) })
    ).json()) as TryonAnswer;
    await stack.fault({ match: 'GET /v1/jobs/*', delayMs: 2500, times: 1 });
    const once = await fetch(`${stack.url}/tryons/${started.tryon}`);
    assert.equal(once.status, 200, 'one slow poll is absorbed by a retry');
    await stack.fault({ match: 'GET /v1/jobs/*', delayMs: 2500, times: 3 });
    const t0 = Date.now();
    const error = await errorOf(await fetch(`${stack.url}/tryons/${started.tryon}`));
    assert.deepEqual([error.status, error.code, error.retryable], [504, 'upstream_timeout', true]);
    assert.ok(Date.now() - t0 < 2400 * 3, 'each attempt was cut at the timeout');
    await stack.clearFaults();
    const recovered = await fetch(`${stack.url}/tryons/${started.tryon}`);
    assert.equal(recovered.status, 200);
  });

  it('a failed job is reported as failed with render_failed, not retryable, no outputs', async () => {
    await stack.fault({ jobOutcome: 'failed', times: 1 });
    const started = (await (
      await startTryon(stack, { product: 'dress-aline-indigo', photo: await photoHandle(stack) })
    ).json()) as TryonAnswer;
    const done = await waitForStatus(stack, started.tryon, (s) => s.status === 'failed' || s.status === 'succeeded');
    assert.equal(done.status, 'failed');
    assert.deepEqual(done.outputs, []);
    assert.equal(done.error?.code, 'render_failed');
    assert.equal(done.error?.retryable, false);
  });

  it('402 → 503 out_of_credits; 429 → 429 with Retry-After; 404 job → not_found', async () => {
    const photo = await photoHandle(stack);
    await stack.fault({ match: 'POST /v1/images/tryon', status: 402, times: 1 });
    const credits = await startTryon(stack, { product: 'dress-aline-indigo', photo });
    assert.deepEqual((({ status, code }) => [status, code])(await errorOf(credits)), [503, 'out_of_credits']);
    await stack.fault({ match: 'POST /v1/images/tryon', status: 429, times: 1 });
    const limited = await startTryon(stack, { product: 'dress-aline-indigo', photo });
    assert.ok(Number(limited.headers.get('retry-after')) >= 1);
    assert.deepEqual((({ status, code, retryable }) => [status, code, retryable])(await errorOf(limited)), [
      429,
      'rate_limited',
      true,
    ]);
    const ghost = (
      await new HandleSigner(SECRET).mint(
        'tryon',
        { jobId: 'job_doesnotexist', product: 'dress-aline-indigo', views: ['front'], output: 'image', photoId: 'x' },
        60,
      )
    ).handle;
    assert.deepEqual(
      (({ status, code }) => [status, code])(await errorOf(await fetch(`${stack.url}/tryons/${ghost}`))),
      [404, 'not_found'],
    );
  });
});

describe('upstream refusing the key or gone', () => {
  it('a refused key → 502 upstream_auth and a loud log line, without the key anywhere', async (t) => {
    const stack = await useStack(t, { apiKey: 'sk_test_not_a_real_key_123' });
    const response = await uploadPhoto(stack);
    const text = await response.text();
    assert.equal(response.status, 502);
    assert.equal((JSON.parse(text) as { error: { code: string } }).error.code, 'upstream_auth');
    assert.ok(!text.includes('sk_test_not_a_real_key_123'));
    const loud = stack.logs.find((l) => l.event === 'upstream_auth_failed');
    assert.equal(loud?.level, 'error');
    assert.ok(!JSON.stringify(stack.logs).includes('sk_test_not_a_real_key_123'));
  });

  it('an unreachable upstream → 502 upstream_unavailable, retryable', async (t) => {
    const dead = await useStack(t, { proxy: { baseUrl: 'http://127.0.0.1:9' } });
    const error = await errorOf(await uploadPhoto(dead));
    assert.deepEqual([error.status, error.code, error.retryable], [502, 'upstream_unavailable', true]);
  });
});
