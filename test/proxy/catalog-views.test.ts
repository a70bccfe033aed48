// A 4-view catalog rendered at a real (scaled) pace: each view appears in the proxy's status as
// soon as upstream lists it, front first, and every one downloads.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import sharp from 'sharp';
import { absolute, photoHandle, startStack, startTryon, waitForStatus, type Stack, type TryonAnswer } from './stack.js';

describe('multi-view catalog', () => {
  let stack: Stack;
  // premium front ≈ 0.7 s, each further view ≈ 0.28 s at this speed.
  before(async () => {
    stack = await startStack({ sandbox: { speed: 0.02 }, proxy: { limits: { pollIntervalMs: 40 } } });
  });
  after(async () => {
    await stack.close();
  });

  it('shows outputs one by one, front first, all four in the end', async () => {
    const photo = await photoHandle(stack);
    const response = await startTryon(stack, { product: 'saree-banarasi-red', photo });
    assert.equal(response.status, 202);
    const started = (await response.json()) as TryonAnswer;
    assert.deepEqual(started.views, ['front', 'three_quarter_left', 'side', 'back']);
    const counts: number[] = [];
    let firstViews: string[] | undefined;
    const done = await waitForStatus(stack, started.tryon, (s) => {
      if (counts.at(-1) !== s.outputs.length) counts.push(s.outputs.length);
      if (s.outputs.length === 1) firstViews ??= s.outputs.map((o) => o.view);
      if (s.status !== 'succeeded') assert.deepEqual(s.views, started.views);
      return s.status === 'succeeded';
    });
    // Partial states were visible and the count only grew.
    assert.ok(counts.filter((n) => n > 0 && n < 4).length >= 2, `saw counts ${counts.join(',')}`);
    assert.deepEqual(
      [...counts].sort((a, b) => a - b),
      counts,
    );
    assert.deepEqual(firstViews, ['front']);
    assert.deepEqual(
      done.outputs.map((o) => o.view),
      ['front', 'three_quarter_left', 'side', 'back'],
    );
    for (const output of done.outputs) {
      const file = await fetch(absolute(stack, output.url));
      assert.equal(file.status, 200);
      assert.equal((await sharp(Buffer.from(await file.arrayBuffer())).metadata()).format, 'jpeg');
    }
  });
});
