// An upload's stages read no chunk ahead of their reader (proxy/http/streams.ts, NO_READ_AHEAD): while
// upstream is slow to read, the shopper's bytes wait in the socket, not in the proxy's queues.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { concatStreams, observeChunks } from '../../proxy/http/streams.js';
import { timedBody } from '../../proxy/http/upload-deadlines.js';

const CHUNK = 64 * 1024;

/** A shopper's body of `chunks` chunks that counts how often it was asked for one. */
function countingSource(chunks: number): { stream: ReadableStream<Uint8Array>; pulls: () => number } {
  let pulls = 0;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        pulls++;
        if (pulls > chunks) controller.close();
        else controller.enqueue(new Uint8Array(CHUNK).fill(pulls));
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, pulls: () => pulls };
}

/** Lets every queued microtask and I/O callback run, so a read-ahead would have happened by now. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

/** The stages an upload passes through on its way to /v1/files, in the proxy's order. */
function uploadChain(source: ReadableStream<Uint8Array>, onChunk: () => void, onEnd?: () => void) {
  const body = timedBody(source, { uploadIdleMs: 60_000, uploadTotalMs: 60_000 });
  const head = new TextEncoder().encode('--b\r\n');
  const tail = new TextEncoder().encode('\r\n--b--\r\n');
  return { body, stream: observeChunks(concatStreams([head, body.stream, tail]), onChunk, onEnd) };
}

describe('upload read-ahead', () => {
  it('asks the shopper for nothing before upstream reads', async () => {
    const source = countingSource(8);
    const { body } = uploadChain(source.stream, () => undefined);
    await settle();
    await settle();
    assert.equal(source.pulls(), 0);
    body.stop();
  });

  it('asks the shopper for one chunk per chunk upstream reads, no more', async () => {
    const source = countingSource(8);
    const { body, stream } = uploadChain(source.stream, () => undefined);
    const reader = stream.getReader();
    const first = await reader.read();
    assert.equal(first.value?.length, 5); // the multipart head, sent without touching the body
    await settle();
    assert.equal(source.pulls(), 0);
    for (let read = 1; read <= 3; read++) {
      const { value } = await reader.read();
      assert.equal(value?.length, CHUNK);
      assert.equal(value?.[0], read);
      await settle();
      await settle();
      assert.equal(source.pulls(), read, `after ${read} chunks read`);
    }
    await reader.cancel();
    body.stop();
  });

  it('still passes the whole body through, in order, and says when it ended', async () => {
    const source = countingSource(8);
    let seen = 0;
    let ended = false;
    const { body, stream } = uploadChain(
      source.stream,
      () => seen++,
      () => {
        ended = true;
      },
    );
    const chunks: Uint8Array[] = [];
    for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) chunks.push(chunk);
    assert.equal(chunks.length, 10);
    assert.deepEqual(
      chunks.slice(1, 9).map((chunk) => chunk[0]),
      [1, 2, 3, 4, 5, 6, 7, 8],
    );
    assert.equal(seen, 10);
    assert.equal(ended, true);
    assert.equal(body.timedOut(), false);
  });

  it('cancels the shopper body when upstream gives up', async () => {
    let cancelled: unknown;
    const source = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          controller.enqueue(new Uint8Array(CHUNK));
        },
        cancel(reason) {
          cancelled = reason;
        },
      },
      { highWaterMark: 0 },
    );
    let ended = false;
    const stream = observeChunks(
      source,
      () => undefined,
      () => {
        ended = true;
      },
    );
    const reader = stream.getReader();
    await reader.read();
    await reader.cancel('upstream went away');
    assert.equal(cancelled, 'upstream went away');
    assert.equal(ended, false);
  });
});
