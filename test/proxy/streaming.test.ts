// The photo is streamed to /v1/files, not buffered: while the shopper's upload is paused
// half-way, the upstream has already received its first half. Status streams (SSE) are capped per
// client and per instance, and a closed one gives its slot back.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { request } from 'node:http';
import { startProxy } from '../../proxy/node.js';
import { noMetrics, type ProxyMetrics } from '../../proxy/operator/metrics.js';
import { CATALOG, SECRET, photoHandle, startTryon, type TryonAnswer, useStack, closeAfter } from './stack.js';

describe('photo streaming', () => {
  it('forwards bytes upstream while the upload is still arriving', async (t) => {
    let received = 0;
    let reachedHalf!: () => void;
    const half = new Promise<void>((resolve) => {
      reachedHalf = resolve;
    });
    const photo = await sharp(randomBytes(1200 * 1200 * 3), { raw: { width: 1200, height: 1200, channels: 3 } })
      .png({ compressionLevel: 0 })
      .toBuffer();
    assert.ok(photo.length > 4_000_000);
    const proxy = closeAfter(
      t,
      await startProxy({
        apiKey: 'sk_test_stream',
        baseUrl: 'http://upstream.invalid',
        secret: SECRET,
        allowedOrigins: [],
        catalog: CATALOG,
        log: () => undefined,
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
      }),
    );
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
        const waited = await Promise.race([
          half.then(() => true),
          new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 10_000)),
        ]);
        upstreamHadHalfWhilePaused = waited;
        controller.enqueue(bytes.subarray(cut));
        controller.close();
      },
    });
    const response = await fetch(`${proxy.url}/photos`, {
      method: 'POST',
      body,
      headers: { 'content-type': encoded.headers.get('content-type')! },
      duplex: 'half',
    } as RequestInit);
    assert.equal(response.status, 201, await response.clone().text());
    assert.ok(upstreamHadHalfWhilePaused, 'upstream received half the photo before the upload finished');
    // Everything arrived, framed for /v1/files.
    assert.ok(received > photo.length && received < photo.length + 1024);
  });
});

/** A status stream held open from `from` (a loopback address: one shopper each), as a browser's EventSource holds it. */
interface HeldStream {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  close(): void;
}

function holdStream(url: string, from: string): Promise<HeldStream> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const req = request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        headers: { accept: 'text/event-stream', connection: 'close' },
        localAddress: from,
        agent: false,
      },
      (res) => {
        const close = () => req.destroy();
        if (res.statusCode === 200) {
          // Open once its first event arrives: the proxy has counted it by then.
          res.once('data', () => resolve({ status: 200, headers: res.headers, body: '', close }));
          res.on('error', () => undefined);
          return;
        }
        let body = '';
        res.on('data', (chunk: Buffer) => {
          body += chunk.toString();
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body, close }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('status streams are capped', () => {
  it('per client and per instance: past a cap 429 too_many_streams with Retry-After, and a closed stream gives its slot back', async (t) => {
    // The operator's SSE gauge, as the app reports it: a stream's end is awaited here, not slept on.
    let open = 0;
    const closed: (() => void)[] = [];
    const metrics: ProxyMetrics = {
      ...noMetrics,
      sseConnections: (delta) => {
        open += delta;
        if (delta < 0) closed.shift()?.();
      },
    };
    const stack = await useStack(t, { proxy: { metrics, limits: { streamsPerClient: 4, streamsPerInstance: 6 } } });
    const held: HeldStream[] = [];
    // Registered after the stack, so closed before it: the streams end before their proxy does.
    closeAfter(t, { close: () => held.forEach((stream) => stream.close()) });
    await stack.fault({ jobOutcome: 'hold', times: 1 });
    const started = await startTryon(stack, { product: 'dress-aline-indigo', photo: await photoHandle(stack) });
    assert.equal(started.status, 202);
    const events = `${stack.url}/tryons/${((await started.json()) as TryonAnswer).tryon}/events`;
    const openFrom = async (from: string, count: number) => {
      const answers = await Promise.all(Array.from({ length: count }, () => holdStream(events, from)));
      held.push(...answers);
      return answers;
    };

    // One shopper asks for the cap and five more at once: exactly the cap is served.
    const first = await openFrom('127.0.0.2', 4 + 5);
    assert.equal(first.filter((a) => a.status === 200).length, 4, first.map((a) => a.status).join(','));
    for (const refused of first.filter((a) => a.status !== 200)) {
      assert.equal(refused.status, 429);
      assert.deepEqual(JSON.parse(refused.body), {
        error: {
          code: 'too_many_streams',
          message: 'Too many status streams are open; please wait a moment.',
          retryable: true,
        },
      });
      assert.equal(refused.headers['retry-after'], '10');
    }
    assert.equal(open, 4);
    // Others still get theirs, until the instance's cap: then everyone waits.
    assert.deepEqual(
      (await openFrom('127.0.0.3', 2)).map((a) => a.status),
      [200, 200],
    );
    assert.equal((await openFrom('127.0.0.4', 1))[0]!.status, 429);
    assert.equal(open, 6);

    // The first shopper leaves one stream: once the proxy has seen it close, its slot is free.
    const gone = new Promise<void>((resolve) => closed.push(resolve));
    first.find((a) => a.status === 200)!.close();
    await gone;
    assert.equal(open, 5);
    assert.equal((await openFrom('127.0.0.4', 1))[0]!.status, 200);
    assert.equal((await openFrom('127.0.0.5', 1))[0]!.status, 429);
  });
});
