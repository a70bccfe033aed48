// The photo is streamed to /v1/files, not buffered: while the shopper's upload is paused
// half-way, the upstream has already received its first half.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { startProxy } from '../../proxy/node.js';
import { CATALOG, SECRET } from './stack.js';

describe('photo streaming', () => {
  it('forwards bytes upstream while the upload is still arriving', async () => {
    let received = 0;
    let reachedHalf!: () => void;
    const half = new Promise<void>((resolve) => { reachedHalf = resolve; });
    const photo = await sharp(randomBytes(1200 * 1200 * 3), { raw: { width: 1200, height: 1200, channels: 3 } }).png({ compressionLevel: 0 }).toBuffer();
    assert.ok(photo.length > 4_000_000);
    const proxy = await startProxy({
      apiKey: 'sk_test_stream', baseUrl: 'http://upstream.invalid', secret: SECRET, allowedOrigins: [], catalog: CATALOG, log: () => undefined,
      fetch: async (_input, init) => {
        const reader = (init!.body as ReadableStream<Uint8Array>).getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          received += value.length;
          if (received > photo.length / 2) reachedHalf();
        }
        return Response.json({ id: 'file_streamed', kind: 'person' }, { status: 201 });
      },
    });
    try {
      const form = new FormData();
      form.append('photo', new Blob([photo]), 'big.png');
      const encoded = new Response(form);
      const bytes = new Uint8Array(await encoded.arrayBuffer());
      const cut = Math.floor(bytes.length * 0.75);
      let upstreamHadHalfWhilePaused = false;
      const body = new ReadableStream<Uint8Array>({
        async start(controller) {
          for (let i = 0; i < cut; i += 64 * 1024) controller.enqueue(bytes.subarray(i, Math.min(i + 64 * 1024, cut)));
          // Paused: the rest is sent only once upstream has more than half the photo (bounded wait).
          const waited = await Promise.race([half.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 10_000))]);
          upstreamHadHalfWhilePaused = waited;
          controller.enqueue(bytes.subarray(cut));
          controller.close();
        },
      });
      const response = await fetch(`${proxy.url}/photos`, { method: 'POST', body, headers: { 'content-type': encoded.headers.get('content-type')! }, duplex: 'half' } as RequestInit);
      assert.equal(response.status, 201, await response.clone().text());
      assert.ok(upstreamHadHalfWhilePaused, 'upstream received half the photo before the upload finished');
      // Everything arrived, framed for /v1/files.
      assert.ok(received > photo.length && received < photo.length + 1024);
    } finally {
      await proxy.close();
    }
  });
});
