// A shopper on a slow line: the upload to /v1/files is streamed, so its timeout is an idle
// timeout — a slow but moving upload goes through, a stalled one is cut.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { personPhoto, startStack, type Stack } from './stack.js';

async function multipartChunks(photo: Uint8Array): Promise<{ chunks: Uint8Array[]; type: string }> {
  const form = new FormData();
  form.append('photo', new Blob([photo as BlobPart], { type: 'image/jpeg' }), 'me.jpg');
  const response = new Response(form);
  const bytes = new Uint8Array(await response.arrayBuffer());
  const size = Math.ceil(bytes.length / 8);
  const chunks = Array.from({ length: 8 }, (_, i) => bytes.subarray(i * size, (i + 1) * size)).filter(
    (c) => c.length > 0,
  );
  return { chunks, type: response.headers.get('content-type')! };
}

function trickle(chunks: Uint8Array[], gapMs: (index: number) => number): ReadableStream<Uint8Array> {
  let index = 0;
  return new ReadableStream({
    async pull(controller) {
      if (index >= chunks.length) return controller.close();
      await new Promise((resolve) => setTimeout(resolve, gapMs(index)));
      controller.enqueue(chunks[index++]!);
    },
  });
}

describe('slow uploads', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack({ proxy: { limits: { uploadTimeoutMs: 700 } } });
  });
  after(async () => {
    await stack.close();
  });

  it('a slow but steady upload longer than the timeout goes through', async () => {
    const { chunks, type } = await multipartChunks(await personPhoto(600, 800));
    const t0 = Date.now();
    const response = await fetch(`${stack.url}/photos`, {
      method: 'POST',
      body: trickle(chunks, () => 200),
      headers: { 'content-type': type },
      duplex: 'half',
    } as RequestInit);
    assert.equal(response.status, 201, await response.clone().text());
    assert.ok(Date.now() - t0 > 1200, 'the upload took longer than the 700 ms timeout');
  });

  it('a stalled upload is cut with 504 upstream_timeout', async () => {
    // Large enough that the stall comes after the first 64 KiB, once bytes flow upstream.
    const noisy = await sharp(randomBytes(800 * 800 * 3), { raw: { width: 800, height: 800, channels: 3 } })
      .jpeg({ quality: 95 })
      .toBuffer();
    assert.ok(noisy.length > 300_000);
    const { chunks, type } = await multipartChunks(new Uint8Array(noisy));
    const response = await fetch(`${stack.url}/photos`, {
      method: 'POST',
      body: trickle(chunks, (i) => (i === 4 ? 2500 : 10)),
      headers: { 'content-type': type },
      duplex: 'half',
    } as RequestInit);
    assert.equal(response.status, 504);
    assert.equal(((await response.json()) as { error: { code: string } }).error.code, 'upstream_timeout');
  });
});
