// Many browsers watching one try-on cost the upstream one poll per interval.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { HandleSigner } from '../../proxy/handles.js';
import { SECRET, photoHandle, startStack, startTryon, type Stack, type StatusAnswer, type TryonAnswer } from './stack.js';
import { readEvents } from './sse.js';

const INTERVAL = 400;

describe('shared poll', () => {
  let stack: Stack;
  before(async () => { stack = await startStack({ proxy: { limits: { pollIntervalMs: INTERVAL, readsPerMinute: 100_000 } } }); });
  after(async () => { await stack.close(); });

  it('ten SSE watchers and ten pollers of one try-on: one upstream poll per interval, all see the end', async (t) => {
    await stack.fault({ jobOutcome: 'hold', times: 1 });
    const started = await (await startTryon(stack, { product: 'dress-aline-indigo', photo: await photoHandle(stack) })).json() as TryonAnswer;
    const { jobId } = await new HandleSigner(SECRET).open('tryon', started.tryon);
    const polls = async () => (await stack.state()).workspaces.ws_1!.jobs.find((j) => j.id === jobId)!.polls;

    const firstEvents: Promise<void>[] = [];
    const watchers = Array.from({ length: 10 }, () => {
      let seen!: () => void;
      firstEvents.push(new Promise<void>((resolve) => { seen = resolve; }));
      return readEvents(`${stack.url}/tryons/${started.tryon}/events`, () => seen());
    });
    await Promise.all(firstEvents);

    const before = await polls();
    const t0 = Date.now();
    const windowMs = 2400;
    let reads = 0;
    const pollers = Array.from({ length: 10 }, async () => {
      while (Date.now() - t0 < windowMs) {
        const response = await fetch(`${stack.url}/tryons/${started.tryon}`);
        assert.equal(response.status, 200);
        assert.ok(['queued', 'processing'].includes(((await response.json()) as StatusAnswer).status));
        reads += 1;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    });
    await Promise.all(pollers);
    const elapsed = Date.now() - t0;
    const during = (await polls()) - before;
    const allowed = Math.ceil(elapsed / INTERVAL) + 1;
    t.diagnostic(`${during} upstream polls in ${elapsed} ms (interval ${INTERVAL} ms) for ${reads} status reads and 10 SSE watchers`);
    assert.ok(reads > 100, `pollers made ${reads} reads`);
    assert.ok(during >= 2, `the try-on kept being polled (${during})`);
    assert.ok(during <= allowed, `${during} upstream polls in ${elapsed} ms for ${reads} reads and 10 watchers; at most ${allowed} allowed`);

    // Release: every watcher gets the final status and its stream closes.
    await fetch(`${stack.sandboxUrl}/sandbox/jobs/${jobId}/release`, { method: 'POST' });
    const streams = await Promise.all(watchers);
    for (const events of streams) {
      const last = JSON.parse(events.at(-1)!.data) as StatusAnswer;
      assert.equal(events.at(-1)!.event, 'status');
      assert.equal(last.status, 'succeeded');
      assert.equal(last.outputs.length, 1);
    }
    // Finished: further reads are answered from the cache, costing nothing upstream.
    const settled = await polls();
    for (let i = 0; i < 5; i++) await fetch(`${stack.url}/tryons/${started.tryon}`);
    assert.equal(await polls(), settled);
  });
});
