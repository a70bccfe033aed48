// The Durable Objects store's own parts, its objects in real workerd (test/proxy/stores.ts): the
// fan-out between isolates (each DurableStore is one isolate's) and a try-on object that deletes
// itself when its handle expires. What every store shares is held by the contract suites.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TryonSnapshot } from '../../proxy/tryons/snapshot.js';
import { DurableStore, type DurableObjectNamespace } from '../../proxy/store/durable.js';
import { buildWorker, serveWorker } from '../../scripts/worker.js';
import { durableNamespaces, durableStore } from './stores.js';
import { photoHandle, startTryon, uploadPhoto, waitForStatus, type TryonAnswer, useStack } from './stack.js';

const snapshot = (status: TryonSnapshot['status'], at: number): TryonSnapshot => ({ status, outputs: [], at });

/** Resolves with the next snapshot `store` hears for `jobId` from another isolate. */
function nextHeard(store: Awaited<ReturnType<typeof durableStore>>, jobId: string): Promise<TryonSnapshot> {
  return new Promise((resolve) => {
    const stop = store.onPublished((heardJob, heard) => {
      if (heardJob !== jobId) return;
      stop();
      resolve(heard);
    });
  });
}

describe('the Durable Objects store', () => {
  it('a follower hears the record at once, then what other isolates write, never its own writes', async () => {
    const [here, there] = [await durableStore(), await durableStore()];
    const jobId = `job_${randomUUID()}`;
    await there.seedStatus(jobId, { snapshot: snapshot('queued', 1) }, 60_000);

    const heard: TryonSnapshot[] = [];
    here.onPublished((heardJob, heardSnapshot) => {
      if (heardJob === jobId) heard.push(heardSnapshot);
    });
    const first = nextHeard(here, jobId);
    const unfollow = here.follow(jobId);
    assert.equal((await first).status, 'queued', 'the current record, as soon as the stream opens');

    // Its own write is delivered locally, not echoed; an older write loses and is no news; the
    // stream keeps order, so either would arrive before the final one.
    await here.writeStatus(jobId, { snapshot: snapshot('processing', 2) }, 60_000);
    await there.writeStatus(jobId, { snapshot: snapshot('processing', 1) }, 60_000);
    const fromThere = nextHeard(here, jobId);
    const written = await there.writeStatus(jobId, { snapshot: snapshot('succeeded', 3) }, 60_000);
    assert.equal(written.finished, true);
    assert.equal((await fromThere).status, 'succeeded');
    unfollow();
    assert.deepEqual(
      heard.map((s) => [s.status, s.at]),
      [
        ['queued', 1],
        ['succeeded', 3],
      ],
    );
  });

  it('a try-on object deletes itself when its handle expires, and serves a new record afterwards', async () => {
    // An hour behind: reads do not find the record expired by their own clock, only the alarm can remove it.
    const behind = await durableStore({ now: () => Date.now() - 3_600_000 });
    const jobId = `job_${randomUUID()}`;
    // Its alarm rings 1.5 s from now: long enough that the first read comes before it on a loaded
    // machine (at 200 ms, a 2-core machine running other suites read after the alarm had deleted it).
    await behind.writeStatus(jobId, { snapshot: snapshot('queued', 1) }, 3_600_000 + 1_500);
    assert.equal((await behind.readStatus(jobId))?.snapshot.status, 'queued');
    let looks = 0;
    while (await behind.readStatus(jobId)) {
      assert.ok(++looks < 400, 'the alarm deleted the record');
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    await behind.writeStatus(jobId, { snapshot: snapshot('processing', 2) }, 3_600_000 + 60_000);
    assert.equal((await behind.readStatus(jobId))?.snapshot.status, 'processing');
  });

  it('objects that do not answer: 503 store_unavailable and /health down, said once, then healthy again by themselves', async (t) => {
    let down = true;
    /** The namespace, its objects failing while `down` (as an overloaded or resetting object does). */
    const flaky = (namespace: DurableObjectNamespace): DurableObjectNamespace => ({
      idFromName: (name) => namespace.idFromName(name),
      get: (id) => {
        const stub = namespace.get(id);
        return {
          fetch: (input, init) =>
            down ? Promise.reject(new Error('Durable Object is overloaded.')) : stub.fetch(input, init),
        };
      },
    });
    const { tryons, shop } = await durableNamespaces();
    const said: Record<string, unknown>[] = [];
    const store = new DurableStore(flaky(tryons), flaky(shop), {
      shop: randomUUID(),
      log: (entry) => said.push(entry),
    });
    const stack = await useStack(t, { proxy: { store } });
    for (let i = 0; i < 2; i++) {
      const upload = await uploadPhoto(stack);
      const body = (await upload.json()) as { error: { code: string; retryable: boolean } };
      assert.deepEqual(
        [upload.status, body.error.code, body.error.retryable, upload.headers.get('retry-after')],
        [503, 'store_unavailable', true, '1'],
      );
    }
    const sick = await fetch(`${stack.url}/health`);
    assert.deepEqual([sick.status, await sick.json()], [503, { ok: false, upstream: 'test', store: 'down' }]);
    assert.deepEqual(
      said.map((entry) => entry.event),
      ['store_unavailable'],
      'said once, not per request',
    );

    down = false;
    const well = await fetch(`${stack.url}/health`);
    assert.deepEqual([well.status, await well.json()], [200, { ok: true, upstream: 'test', store: 'up' }]);
    assert.equal((await uploadPhoto(stack)).status, 201);
    assert.deepEqual(
      said.map((entry) => entry.event),
      ['store_unavailable', 'store_recovered'],
    );
  });

  it('a status or file read asks the shop object once: its allowance and its photo in one call', async (t) => {
    const asked: string[] = [];
    /** The shop namespace, noting every operation asked of it. */
    const counting = (namespace: DurableObjectNamespace): DurableObjectNamespace => ({
      idFromName: (name) => namespace.idFromName(name),
      get: (id) => {
        const stub = namespace.get(id);
        return {
          fetch: (input, init) => {
            asked.push(new URL(String(input)).pathname.slice(1));
            return stub.fetch(input, init);
          },
        };
      },
    });
    const { tryons, shop } = await durableNamespaces();
    const store = new DurableStore(tryons, counting(shop), { shop: randomUUID() });
    const stack = await useStack(t, { proxy: { store } });
    const photo = await photoHandle(stack);
    const started = (await (await startTryon(stack, { product: 'dress-aline-indigo', photo })).json()) as TryonAnswer;
    const done = await waitForStatus(stack, started.tryon, (s) => s.status === 'succeeded');
    asked.length = 0;
    const read = await fetch(`${stack.url}/tryons/${started.tryon}`);
    assert.equal(read.status, 200);
    assert.deepEqual(asked, ['takeReadAndCheck'], 'one call for the status read');
    asked.length = 0;
    const file = await fetch(new URL(done.outputs[0]!.url, stack.url));
    await file.arrayBuffer();
    assert.equal(file.status, 200);
    assert.deepEqual(asked, ['takeReadAndCheck'], 'one call for the file read');
  });

  it("a forgotten photo's try-on answers 404 through the one call, and a handle never minted still costs an allowance", async (t) => {
    const { tryons, shop } = await durableNamespaces();
    const store = new DurableStore(tryons, shop, { shop: randomUUID() });
    const stack = await useStack(t, { proxy: { store, limits: { readsPerMinute: 2 } } });
    const photo = await photoHandle(stack);
    const started = (await (await startTryon(stack, { product: 'dress-aline-indigo', photo })).json()) as TryonAnswer;
    assert.equal((await fetch(`${stack.url}/photos/${photo}`, { method: 'DELETE' })).status, 204);
    const gone = await fetch(`${stack.url}/tryons/${started.tryon}`);
    assert.deepEqual(
      [gone.status, ((await gone.json()) as { error: { code: string } }).error.code],
      [404, 'invalid_handle'],
    );
    const forged = await fetch(`${stack.url}/tryons/v1.tryon.AAAA.BBBB`);
    assert.equal(forged.status, 404);
    await forged.arrayBuffer();
    const third = await fetch(`${stack.url}/tryons/v1.tryon.AAAA.BBBB`);
    await third.arrayBuffer();
    assert.equal(third.status, 429, 'the forged handle took the last of the allowance');
  });

  it('a client reading in parallel gets exactly its allowance: the bucket in the object is exact', async (t) => {
    const { tryons, shop } = await durableNamespaces();
    const store = new DurableStore(tryons, shop, { shop: randomUUID() });
    // 5 a minute: a token comes back every 12 s, far longer than the burst takes.
    const stack = await useStack(t, { proxy: { store, trustProxy: true, limits: { readsPerMinute: 5 } } });
    const photo = await photoHandle(stack);
    const started = (await (await startTryon(stack, { product: 'dress-aline-indigo', photo })).json()) as TryonAnswer;
    await waitForStatus(stack, started.tryon, (s) => s.status === 'succeeded');
    // Another client than the one that waited above (the right-most X-Forwarded-For entry, trustProxy).
    const read = async (client: string) => {
      const answer = await fetch(`${stack.url}/tryons/${started.tryon}`, { headers: { 'x-forwarded-for': client } });
      await answer.arrayBuffer();
      return answer.status;
    };
    const burst = await Promise.all(Array.from({ length: 15 }, () => read('203.0.113.9')));
    assert.deepEqual(
      [burst.filter((status) => status === 200).length, burst.filter((status) => status === 429).length],
      [5, 10],
      'five of fifteen parallel reads pass, the rest are told to wait',
    );
    assert.equal(await read('203.0.113.9'), 429, 'still out of allowance');
    assert.equal(await read('203.0.113.10'), 200, 'another client has its own allowance');
  });

  it('a restarted shop object starts from the allowance it saved: an exhausted client stays limited', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tryon-durable-restart-'));
    try {
      const bundle = await buildWorker({ outFile: join(dir, 'worker.js') });
      const persistDir = join(dir, 'objects');
      const serve = () => serveWorker(bundle, {}, 0, { onLine: () => undefined }, { persistDir });
      const storeOn = async (served: Awaited<ReturnType<typeof serve>>) => {
        const binding = async (name: string) =>
          (await served.miniflare.getDurableObjectNamespace(name)) as unknown as DurableObjectNamespace;
        return new DurableStore(await binding('TRYON_TRYONS'), await binding('TRYON_SHOP'), { shop: 'restarted' });
      };
      const first = await serve();
      try {
        const before = await storeOn(first);
        const taken = [];
        for (let i = 0; i < 4; i++) taken.push(await before.takeRequest('reads', '203.0.113.9', 3));
        assert.deepEqual(
          taken.map((wait) => wait === undefined),
          [true, true, true, false],
          'three a minute: the fourth waits',
        );
        // The object writes its buckets on its own timer, a second after a take at most
        // (durable-shop.ts BUCKETS_SAVED_EVERY_MS); the first write to its storage after the last
        // take is that save, whenever a loaded machine runs the timer.
        await storageWrittenSince(persistDir, await storageFiles(persistDir));
      } finally {
        await first.close();
      }

      const second = await serve();
      try {
        const after = await storeOn(second);
        const wait = await after.takeRequest('reads', '203.0.113.9', 3);
        assert.ok(wait !== undefined && wait > 0, `still limited after the restart (wait ${wait})`);
        assert.equal(await after.takeRequest('reads', '203.0.113.10', 3), undefined, 'another client is not');
      } finally {
        await second.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

/** Each file under `dir` (the objects' SQLite files) with its time and size, as one string. */
async function storageFiles(dir: string): Promise<string> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    const facts = await stat(path).catch(() => undefined);
    if (facts) found.push(`${path} ${facts.mtimeMs} ${facts.size}`);
  }
  return found.sort().join('\n');
}

/**
 * Resolves once the files under `dir` differ from `before` and have stopped changing (the write
 * is whole); a clear error after 15 s. Sizes as well as times: a file's time is the kernel's
 * coarse clock, which two writes a few milliseconds apart can share.
 */
async function storageWrittenSince(dir: string, before: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  let seen = before;
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    const now = await storageFiles(dir);
    if (now !== before && now === seen) return;
    if (Date.now() > deadline) throw new Error(`no write to the objects' storage under ${dir} in 15 s`);
    seen = now;
  }
}
