// A stream that read a non-terminal status just before the final one was published must still
// hear of the end: the final status is published once, so a watcher that arrives a moment later
// would otherwise wait until its stream's deadline. Against the real sandbox.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { startSandbox } from '../../sandbox/server.js';
import { TryonStatusBoard } from '../../proxy/tryons/status-board.js';
import type { TryonSnapshot } from '../../proxy/tryons/snapshot.js';
import { MemoryStore } from '../../proxy/store/memory.js';
import type { Upstream } from '../../proxy/upstream/client.js';
import { startHeldJob } from './stack.js';

describe('status published between a read and a watch', () => {
  let sandbox: Awaited<ReturnType<typeof startSandbox>>;
  let upstream: Upstream;
  let jobId = '';

  before(async () => {
    ({ sandbox, upstream, jobId } = await startHeldJob('status-race'));
  });
  after(async () => {
    await sandbox.close();
  });

  it('gives a watcher the final status that was published after its read', async () => {
    // A long interval: nothing but the webhook moves the board, as with webhooks configured.
    const board = new TryonStatusBoard(upstream, {
      intervalMs: 60_000,
      now: Date.now,
      log: () => undefined,
      store: new MemoryStore({ now: Date.now }),
    });
    const first = await board.read(jobId);
    assert.equal(first.status, 'processing');

    const release = await fetch(`${sandbox.url}/sandbox/jobs/${jobId}/release`, { method: 'POST' });
    assert.equal(release.status, 200, await release.text());
    let finished = await upstream.getJob(jobId);
    while (finished.status !== 'succeeded') finished = await upstream.getJob(jobId);
    // The webhook publishes the final status while no one listens yet…
    assert.equal(await board.update(finished), true);
    assert.equal((await board.known(jobId))?.status, 'succeeded');

    // …and the stream that read "processing" starts watching only now.
    const heard: TryonSnapshot[] = [];
    let unwatch = () => {};
    const final = await new Promise<TryonSnapshot | 'silence'>((resolve) => {
      const silence = setTimeout(() => resolve('silence'), 3_000);
      unwatch = board.watch(jobId, (snapshot) => {
        heard.push(snapshot);
        if (snapshot.status === 'succeeded') {
          clearTimeout(silence);
          resolve(snapshot);
        }
      });
    });
    unwatch();
    assert.notEqual(final, 'silence', `the watcher heard only ${JSON.stringify(heard.map((s) => s.status))}`);
    assert.equal((final as TryonSnapshot).outputs.length, 1);
  });
});
