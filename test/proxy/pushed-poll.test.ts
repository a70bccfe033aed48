// With webhooks configured, a try-on that a verified webhook has reached is polled only as a
// safety net: the shared poll slows from its interval to the pushed interval. Driven against the
// real sandbox, polls counted by the sandbox itself.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { startSandbox } from '../../sandbox/server.js';
import { TryonStatusBoard } from '../../proxy/tryons/status-board.js';
import { MemoryStore } from '../../proxy/store/memory.js';
import type { Upstream } from '../../proxy/upstream/client.js';
import { startHeldJob } from './stack.js';

describe('shared poll with webhooks', () => {
  let sandbox: Awaited<ReturnType<typeof startSandbox>>;
  let upstream: Upstream;
  let jobId = '';

  const polls = async (): Promise<number> => {
    const state = (await (await fetch(`${sandbox.url}/sandbox/state`)).json()) as {
      workspaces: Record<string, { jobs: { id: string; polls: number }[] }>;
    };
    return state.workspaces.ws_1?.jobs.find((job) => job.id === jobId)?.polls ?? -1;
  };

  before(async () => {
    // Held in processing, so that only the board's own polls move the count.
    ({ sandbox, upstream, jobId } = await startHeldJob('pushed-poll'));
  });
  after(async () => {
    await sandbox.close();
  });

  it('polls every interval until a webhook arrives, then only every pushed interval', async () => {
    let clock = 1_000_000;
    const board = new TryonStatusBoard(upstream, {
      intervalMs: 1_000,
      pushedIntervalMs: 60_000,
      now: () => clock,
      log: () => undefined,
      store: new MemoryStore({ now: () => clock }),
    });
    const start = await polls();

    await board.read(jobId);
    clock += 1_500;
    await board.read(jobId);
    assert.equal((await polls()) - start, 2, 'without webhooks: one poll per interval');

    // A verified webhook (as routes/webhooks.ts hands it over) says the job is processing.
    assert.equal(await board.update(await upstream.getJob(jobId)), true);
    const afterWebhook = await polls();
    for (let step = 0; step < 10; step++) {
      clock += 1_500;
      const snapshot = await board.read(jobId);
      assert.equal(snapshot.status, 'processing');
    }
    assert.equal(await polls(), afterWebhook, 'fifteen seconds of reads after a webhook cost no poll');

    clock += 60_000;
    await board.read(jobId);
    assert.equal((await polls()) - afterWebhook, 1, 'the safety-net poll still comes');
  });

  it('without a pushed interval, a webhook does not slow the poll', async () => {
    let clock = 5_000_000;
    const board = new TryonStatusBoard(upstream, {
      intervalMs: 1_000,
      now: () => clock,
      log: () => undefined,
      store: new MemoryStore({ now: () => clock }),
    });
    await board.read(jobId);
    await board.update(await upstream.getJob(jobId));
    const before = await polls();
    clock += 1_500;
    await board.read(jobId);
    assert.equal((await polls()) - before, 1);
  });
});
