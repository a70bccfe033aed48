// A shopper's retry with the same requestId is free; two shoppers with the same requestId
// never share an upstream job. Checked on a live (charged) sandbox key via /sandbox/state.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { HandleSigner } from '../../proxy/security/handles.js';
import { SECRET, newRequestId, photoHandle, startStack, startTryon, type Stack, type TryonAnswer } from './stack.js';

describe('idempotency', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack({ apiKey: 'sk_live_b' });
  });
  after(async () => {
    await stack.close();
  });

  it('a retry with the same requestId reaches the same job and costs no credits', async () => {
    const photo = await photoHandle(stack);
    const requestId = newRequestId();
    const first = await startTryon(stack, { product: 'dress-aline-indigo', photo, requestId });
    assert.equal(first.status, 202);
    const afterFirst = await stack.state();
    const credits = afterFirst.workspaces.ws_1!.credits;
    assert.ok(credits < 100, 'a live key is charged');
    const retry = await startTryon(stack, { product: 'dress-aline-indigo', photo, requestId });
    assert.equal(retry.status, 202);
    const afterRetry = await stack.state();
    assert.equal(afterRetry.workspaces.ws_1!.credits, credits);
    assert.equal(afterRetry.workspaces.ws_1!.jobs.length, afterFirst.workspaces.ws_1!.jobs.length);
    const signer = new HandleSigner(SECRET);
    const a = await signer.open('tryon', ((await first.json()) as TryonAnswer).tryon);
    const b = await signer.open('tryon', ((await retry.json()) as TryonAnswer).tryon);
    assert.equal(a.jobId, b.jobId);
    // A different logical request (other views) is a new job.
    const other = await startTryon(stack, { product: 'saree-banarasi-red', photo, requestId, views: ['front'] });
    assert.equal(other.status, 202);
    assert.ok((await stack.state()).workspaces.ws_1!.credits < credits);
  });

  it('two shoppers sending the same requestId get different upstream jobs', async () => {
    const requestId = newRequestId();
    const one = await startTryon(stack, { product: 'dress-aline-indigo', photo: await photoHandle(stack), requestId });
    const two = await startTryon(stack, { product: 'dress-aline-indigo', photo: await photoHandle(stack), requestId });
    assert.equal(one.status, 202);
    assert.equal(two.status, 202);
    const signer = new HandleSigner(SECRET);
    const a = await signer.open('tryon', ((await one.json()) as TryonAnswer).tryon);
    const b = await signer.open('tryon', ((await two.json()) as TryonAnswer).tryon);
    assert.notEqual(a.jobId, b.jobId);
    const jobs = (await stack.state()).workspaces.ws_1!.jobs;
    const keys = jobs.filter((j) => j.id === a.jobId || j.id === b.jobId).map((j) => j.idempotency_key);
    assert.equal(keys.length, 2);
    assert.notEqual(keys[0], keys[1]);
    // The key upstream is derived (hex HMAC), never the browser's requestId itself.
    for (const key of keys) {
      assert.match(String(key), /^[0-9a-f]{64}$/);
      assert.ok(!String(key).includes(requestId));
    }
  });
});
