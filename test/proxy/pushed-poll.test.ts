// With webhooks configured, a try-on that a verified webhook has reached is polled only as a
// safety net: the shared poll slows from its interval to the pushed interval. Driven against the
// real sandbox, polls counted by the sandbox itself.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startSandbox } from '../../demo/sandbox/server.js';
import { TryonStatusBoard } from '../../proxy/tryon-status.js';
import { Upstream } from '../../proxy/upstream/client.js';
import { personPhoto } from './stack.js';

describe('shared poll with webhooks', () => {
  let sandbox: Awaited<ReturnType<typeof startSandbox>>;
  let upstream: Upstream;
  let jobId = '';

  const polls = async (): Promise<number> => {
    const state = await (await fetch(`${sandbox.url}/sandbox/state`)).json() as {
      workspaces: Record<string, { jobs: { id: string; polls: number }[] }>;
    };
    return state.workspaces.ws_1?.jobs.find((job) => job.id === jobId)?.polls ?? -1;
  };

  before(async () => {
    sandbox = await startSandbox({ port: 0, hostname: '127.0.0.1', speed: 0, keys: { sk_test_a: 'ws_1' }, log: () => undefined });
    upstream = new Upstream({ apiKey: 'sk_test_a', baseUrl: sandbox.url, timeoutMs: 5_000, uploadTimeoutMs: 5_000, retries: 0, retryBaseMs: 10, log: () => undefined });
    const photo = await upstream.uploadFile(await personPhoto(), { kind: 'person', contentType: 'image/jpeg', filename: 'me.jpg' });
    const garment = await upstream.uploadFile(await personPhoto(), { kind: 'garment', contentType: 'image/jpeg', filename: 'g.jpg' });
    // Held in processing, so that only the board's own polls move the count.
    await fetch(`${sandbox.url}/sandbox/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jobOutcome: 'hold', times: 1 }) });
    const job = await upstream.submitTryon('image', {
      mode: 'garment_to_person', person_image: photo.id, garment_image: garment.id, garment: { category: 'dress' },
      consent_token: true, idempotency_key: `pushed-poll-${Date.now()}`,
    });
    jobId = job.id;
  });
  after(async () => { await sandbox.close(); });

  it('polls every interval until a webhook arrives, then only every pushed interval', async () => {
    let clock = 1_000_000;
    const board = new TryonStatusBoard(upstream, { intervalMs: 1_000, pushedIntervalMs: 60_000, now: () => clock, log: () => undefined });
    const start = await polls();

    await board.read(jobId);
    clock += 1_500;
    await board.read(jobId);
    assert.equal(await polls() - start, 2, 'without webhooks: one poll per interval');

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
    assert.equal(await polls() - afterWebhook, 1, 'the safety-net poll still comes');
  });

  it('without a pushed interval, a webhook does not slow the poll', async () => {
    let clock = 5_000_000;
    const board = new TryonStatusBoard(upstream, { intervalMs: 1_000, now: () => clock, log: () => undefined });
    await board.read(jobId);
    await board.update(await upstream.getJob(jobId));
    const before = await polls();
    clock += 1_500;
    await board.read(jobId);
    assert.equal(await polls() - before, 1);
  });
});
