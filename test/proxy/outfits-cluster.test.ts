// A piece of an outfit retried on another instance, on the stores instances share (real Redis, real
// Durable Objects in workerd): the same try-on (the same handle, the same upstream job), nothing
// new started or charged upstream, the base's result uploaded as a person file once for both, and
// GET /usage counting the try-on and its outfit once. Real sandbox over loopback.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { newRequestId, photoHandle, startTryon, useStack, waitForStatus, type TryonAnswer } from './stack.js';
import { SHARED_STORE_KINDS, sharedStores } from './stores.js';
import { OUTFIT_CATALOG, writePieces } from './outfit-catalog.js';
import type { UsageAnswer } from '../../proxy/admin.js';

const TOKEN = 'outfits-cluster-admin-token-0123';

for (const kind of SHARED_STORE_KINDS) {
  describe(`outfits across two instances (${kind} store)`, () => {
    it('a piece retried on the other instance starts and charges nothing new', async (t) => {
      const [storeA, storeB] = await sharedStores(kind, 2);
      const a = await useStack(t, { proxy: { catalog: OUTFIT_CATALOG, store: storeA!, adminToken: TOKEN } });
      const b = await useStack(t, {
        proxy: { catalog: OUTFIT_CATALOG, store: storeB!, baseUrl: a.sandboxUrl, assetsDir: a.assetsDir },
      });
      await writePieces(a.assetsDir);
      const usage = async () => {
        const response = await fetch(`${a.adminUrl}/usage`, { headers: { authorization: `Bearer ${TOKEN}` } });
        assert.equal(response.status, 200);
        return ((await response.json()) as UsageAnswer).days[0]!;
      };
      const charged = async () =>
        Object.values((await a.state()).workspaces)
          .flatMap((w) => w.jobs)
          .map((job) => [job.id, job.charged] as const);

      const photo = await photoHandle(a);
      const base = (await (await startTryon(a, { product: 'lehenga-emerald', photo })).json()) as TryonAnswer;
      assert.equal(
        (await waitForStatus(a, base.tryon, (s) => s.status !== 'queued' && s.status !== 'processing')).status,
        'succeeded',
      );

      const body = { product: 'dupatta-gota', variant: 'saffron', over: base.tryon, requestId: newRequestId() };
      const first = await startTryon(a, body);
      assert.equal(first.status, 202, JSON.stringify(await first.clone().json()));
      const piece = (await first.json()) as TryonAnswer;
      const jobsBefore = await charged();
      const usageBefore = await usage();

      // The shopper's browser retries, and the retry reaches the other instance.
      const retry = await startTryon(b, body);
      assert.equal(retry.status, 202, JSON.stringify(await retry.clone().json()));
      assert.equal(((await retry.json()) as TryonAnswer).tryon, piece.tryon, 'the same try-on');
      assert.deepEqual(await charged(), jobsBefore, 'no job started or charged upstream');
      const usageAfter = await usage();
      assert.equal(usageAfter.tryons, usageBefore.tryons);
      assert.equal(usageAfter.credits, usageBefore.credits);
      assert.equal(usageAfter.outfits, 1);
      assert.equal(usageAfter.outfitPieces, 2);
      const outputUploads = [...a.logs, ...b.logs].filter((entry) => entry.event === 'output_uploaded_as_person');
      assert.equal(outputUploads.length, 1, 'the base result uploaded as a person file once for both');

      // Either instance answers its status, with the outfit's pieces.
      const status = (await waitForStatus(b, piece.tryon, (s) => s.status === 'succeeded')) as { pieces?: unknown };
      assert.deepEqual(status.pieces, [
        { product: 'lehenga-emerald' },
        { product: 'dupatta-gota', variant: 'saffron' },
      ]);
    });
  });
}
