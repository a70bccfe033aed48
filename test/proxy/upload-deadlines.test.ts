// The upload clock on its own: idle and total deadlines turn into 408 upload_timeout.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ProxyError } from '../../proxy/http/errors.js';
import { timedBody } from '../../proxy/http/upload-deadlines.js';

function source(chunks: { bytes: number; afterMs: number }[]): ReadableStream<Uint8Array> {
  let index = 0;
  return new ReadableStream({
    async pull(controller) {
      const next = chunks[index++];
      if (!next) return controller.close();
      await new Promise((resolve) => setTimeout(resolve, next.afterMs));
      controller.enqueue(new Uint8Array(next.bytes));
    },
  });
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<number> {
  let total = 0;
  for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) total += chunk.length;
  return total;
}

const isTimeout = (error: unknown) =>
  error instanceof ProxyError && error.status === 408 && error.code === 'upload_timeout';

describe('upload deadlines', () => {
  it('passes a steady body through whole', async () => {
    const body = timedBody(
      source([
        { bytes: 10, afterMs: 30 },
        { bytes: 20, afterMs: 30 },
        { bytes: 5, afterMs: 30 },
      ]),
      // Gaps of 30 ms against an idle limit of 1 s: only a stalled machine could make them look idle.
      { uploadIdleMs: 1000, uploadTotalMs: 10_000 },
    );
    assert.equal(await readAll(body.stream), 35);
    assert.equal(body.timedOut(), false);
  });

  it('fails a body idle longer than the idle limit', async () => {
    // The second chunk comes 2 s late and the total limit is 10 s away: a rejection well before
    // either is the idle limit's, with room for a timer that fires late on a loaded machine.
    const body = timedBody(
      source([
        { bytes: 10, afterMs: 10 },
        { bytes: 10, afterMs: 2000 },
      ]),
      { uploadIdleMs: 100, uploadTotalMs: 10_000 },
    );
    const started = Date.now();
    await assert.rejects(readAll(body.stream), isTimeout);
    const elapsed = Date.now() - started;
    assert.ok(elapsed < 1500, `${elapsed} ms`);
    assert.equal(body.timedOut(), true);
  });

  it('fails a body that keeps trickling past the total limit', async () => {
    // A byte every 40 ms for 20 s, an idle limit of 1 s it never reaches: only the 300 ms total
    // limit can end it, not before 300 ms and long before the body would have ended.
    const body = timedBody(source(Array.from({ length: 500 }, () => ({ bytes: 1, afterMs: 40 }))), {
      uploadIdleMs: 1000,
      uploadTotalMs: 300,
    });
    const started = Date.now();
    await assert.rejects(readAll(body.stream), isTimeout);
    const elapsed = Date.now() - started;
    assert.ok(elapsed >= 280 && elapsed < 10_000, `${elapsed} ms`);
  });

  it('has no clock when the limits are 0', async () => {
    const body = timedBody(source([{ bytes: 3, afterMs: 50 }]), { uploadIdleMs: 0, uploadTotalMs: 0 });
    assert.equal(await readAll(body.stream), 3);
  });
});
