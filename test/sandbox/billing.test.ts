import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { imageBody, inputs, liveKey, otherKey, sandbox, testKey } from './support.js';
import type { Sandbox } from './support.js';

describe('idempotency and credits', () => {
  let sb: Sandbox;
  beforeEach(async () => {
    sb = await sandbox();
  });
  afterEach(() => sb.close());

  const credits = async (workspace: string) =>
    (await sb.json('GET', '/sandbox/state')).body.workspaces[workspace].credits as number;

  it('same key, same body → the original job and no second charge on a live key', async () => {
    const files = await inputs(sb, liveKey);
    const body = imageBody(files, { idempotency_key: 'order-1', tier: 'premium' });
    const first = await sb.json('POST', '/v1/images/tryon', { key: liveKey, json: body });
    assert.equal(first.status, 202);
    assert.equal(await credits('ws_1'), 100 - 4);
    // Key order and spelled-out defaults do not make it a different request.
    const reordered = { views: ['front'], ...Object.fromEntries(Object.entries(body).reverse()) };
    const again = await sb.json('POST', '/v1/images/tryon', { key: liveKey, json: reordered });
    assert.equal(again.status, 200);
    assert.equal(again.body.id, first.body.id);
    assert.equal(await credits('ws_1'), 96);
    const state = (await sb.json('GET', '/sandbox/state')).body.workspaces.ws_1;
    assert.equal(state.jobs.length, 1);
    assert.equal(state.jobs[0].idempotency_key, 'order-1');
    assert.equal(state.jobs[0].charged, 4);
  });

  it('concurrent retries with one key make one job and one charge', async () => {
    const files = await inputs(sb, liveKey);
    const body = imageBody(files, { idempotency_key: 'burst' });
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => sb.json('POST', '/v1/images/tryon', { key: liveKey, json: body })),
    );
    assert.equal(new Set(answers.map((a) => a.body.id)).size, 1);
    assert.deepEqual(answers.map((a) => a.status).sort(), [200, 200, 200, 200, 200, 202]);
    assert.equal(await credits('ws_1'), 98);
  });

  it('same key with a different body → 409 idempotency_conflict, and nothing is charged', async () => {
    const files = await inputs(sb, liveKey);
    await sb.json('POST', '/v1/images/tryon', { key: liveKey, json: imageBody(files, { idempotency_key: 'order-2' }) });
    const clash = await sb.json('POST', '/v1/images/tryon', {
      key: liveKey,
      json: imageBody(files, { idempotency_key: 'order-2', tier: 'draft' }),
    });
    assert.equal(clash.status, 409);
    assert.equal(clash.body.error.code, 'idempotency_conflict');
    const video = await sb.json('POST', '/v1/videos/tryon', {
      key: liveKey,
      json: imageBody(files, { idempotency_key: 'order-2' }),
    });
    assert.equal(video.status, 409, 'the same key on the video endpoint is a different request');
    assert.equal(await credits('ws_1'), 98);
  });

  it('another workspace may reuse the key; a test key shares its workspace with the live key', async () => {
    const mine = await inputs(sb, testKey);
    const theirs = await inputs(sb, otherKey);
    const a = await sb.json('POST', '/v1/images/tryon', {
      key: testKey,
      json: imageBody(mine, { idempotency_key: 'shared' }),
    });
    const b = await sb.json('POST', '/v1/images/tryon', {
      key: otherKey,
      json: imageBody(theirs, { idempotency_key: 'shared' }),
    });
    assert.equal(a.status, 202);
    assert.equal(b.status, 202);
    assert.notEqual(a.body.id, b.body.id);
  });

  it('test keys are never charged; live keys pay per view and tier', async () => {
    const files = await inputs(sb, testKey);
    for (const tier of ['draft', 'standard', 'premium']) {
      const answer = await sb.json('POST', '/v1/images/tryon', {
        key: testKey,
        json: imageBody(files, { tier, views: ['front', 'back'] }),
      });
      assert.equal(answer.status, 202);
    }
    assert.equal(await credits('ws_1'), 100);

    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ tier: 'draft' }, 1, '/v1/images/tryon'],
      [{ tier: 'standard' }, 2, '/v1/images/tryon'],
      [{ tier: 'premium', views: ['front', 'side', 'back', 'three_quarter_left'] }, 16, '/v1/images/tryon'],
      [{ tier: 'standard', duration_seconds: 1, fps: 8 }, 10, '/v1/videos/tryon'],
    ];
    let expected = 100;
    for (const [extra, cost, path] of cases) {
      const answer = await sb.json('POST', path, { key: liveKey, json: imageBody(files, extra) });
      assert.equal(answer.status, 202, JSON.stringify(answer.body));
      expected -= cost;
      assert.equal(await credits('ws_1'), expected, JSON.stringify(extra));
    }
    const jobs = (await sb.json('GET', '/sandbox/state')).body.workspaces.ws_1.jobs;
    const parents = jobs.filter((j: { parent: string | null; charged: number }) => j.parent === null && j.charged > 0);
    assert.deepEqual(
      parents.map((j: { charged: number }) => j.charged),
      [1, 2, 16, 10],
    );
  });

  it('running out → 402 insufficient_credits and no job is created', async () => {
    const files = await inputs(sb, liveKey);
    // 100 credits = 6 premium catalogs of 4 views (96) + 2 standard fronts (4).
    for (let i = 0; i < 6; i++) {
      const answer = await sb.json('POST', '/v1/images/tryon', {
        key: liveKey,
        json: imageBody(files, { tier: 'premium', views: ['front', 'side', 'back', 'three_quarter_left'] }),
      });
      assert.equal(answer.status, 202);
    }
    assert.equal((await sb.json('POST', '/v1/images/tryon', { key: liveKey, json: imageBody(files) })).status, 202);
    assert.equal((await sb.json('POST', '/v1/images/tryon', { key: liveKey, json: imageBody(files) })).status, 202);
    assert.equal(await credits('ws_1'), 0);
    const before = (await sb.json('GET', '/sandbox/state')).body.workspaces.ws_1.jobs.length;
    const refused = await sb.json('POST', '/v1/images/tryon', {
      key: liveKey,
      json: imageBody(files, { tier: 'draft', idempotency_key: 'late' }),
    });
    assert.equal(refused.status, 402);
    assert.equal(refused.body.error.code, 'insufficient_credits');
    const after = (await sb.json('GET', '/sandbox/state')).body.workspaces.ws_1.jobs.length;
    assert.equal(after, before);
    // The test key of the same workspace still works: it is never billed.
    assert.equal((await sb.json('POST', '/v1/images/tryon', { key: testKey, json: imageBody(files) })).status, 202);
    // The refused idempotency key was not burned.
    const retry = await sb.json('POST', '/v1/images/tryon', {
      key: testKey,
      json: imageBody(files, { tier: 'draft', idempotency_key: 'late' }),
    });
    assert.equal(retry.status, 202);
  });
});
