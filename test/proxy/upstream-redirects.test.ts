// A redirect from upstream is an upstream error, never followed with the key: on Node (fetch's
// `redirect: 'error'`) and under workerd's `manual` (the 3xx answer seen and refused ourselves).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Upstream, type UpstreamOptions } from '../../proxy/upstream/client.js';
import { redirectMode } from '../../proxy/upstream/transport.js';
import { ProxyError } from '../../proxy/http/errors.js';

interface Seen {
  method: string;
  url: string;
  authorization: string | undefined;
}

async function listen(
  handler: (
    request: IncomingMessage,
    seen: Seen[],
  ) => { status: number; headers?: Record<string, string>; body?: string },
): Promise<{ url: string; seen: Seen[]; server: Server }> {
  const seen: Seen[] = [];
  const server = createServer((request, response) => {
    seen.push({ method: request.method!, url: request.url!, authorization: request.headers.authorization });
    request.resume();
    request.on('end', () => {
      const answer = handler(request, seen);
      response.writeHead(answer.status, answer.headers).end(answer.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server };
}

describe('upstream redirects', () => {
  let elsewhere: Awaited<ReturnType<typeof listen>>;
  let upstream: Awaited<ReturnType<typeof listen>>;
  const logs: Record<string, unknown>[] = [];
  before(async () => {
    elsewhere = await listen(() => ({
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: '{"id":"file_elsewhere","status":"queued"}',
    }));
    upstream = await listen((request) => ({ status: 302, headers: { location: `${elsewhere.url}${request.url}` } }));
  });
  after(async () => {
    await Promise.all([elsewhere, upstream].map(({ server }) => new Promise((resolve) => server.close(resolve))));
  });

  const client = (fetcher?: typeof fetch) =>
    new Upstream({
      apiKey: 'sk_test_redirect_key',
      baseUrl: upstream.url,
      retries: 2,
      retryBaseMs: 1,
      timeoutMs: 2000,
      uploadTimeoutMs: 2000,
      log: (entry) => {
        logs.push(entry as Record<string, unknown>);
      },
      ...(fetcher ? { fetch: fetcher } : {}),
    } as UpstreamOptions);

  const refused = (error: unknown) =>
    error instanceof ProxyError && error.status === 502 && error.code === 'upstream_unavailable' && !error.retryable;

  async function assertRefused(upstreamClient: Upstream) {
    const before = upstream.seen.length;
    const photo = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new Uint8Array(1024));
        controller.close();
      },
    });
    await assert.rejects(
      upstreamClient.uploadFile(photo, { kind: 'person', contentType: 'image/jpeg', filename: 'photo.jpg' }),
      refused,
    );
    await assert.rejects(upstreamClient.getJob('job_1'), refused);
    await assert.rejects(upstreamClient.submitTryon('image', { idempotency_key: 'k1' }), refused);
    await assert.rejects(upstreamClient.fileContent('file_1'), refused);
    assert.equal(upstream.seen.length - before, 4, 'a redirect is not retried, even on a call that is safe to repeat');
    assert.ok(upstream.seen.every((seen) => seen.authorization === 'Bearer sk_test_redirect_key'));
    assert.deepEqual(elsewhere.seen, [], 'the redirect target never saw a request, so never the key');
  }

  it('Node refuses redirects in fetch itself (no tee of a streamed upload)', async () => {
    assert.equal(redirectMode, 'error');
    await assertRefused(client());
  });

  it('under `manual` (how workerd is asked), the 3xx answer is refused by the transport', async () => {
    let modes: (string | undefined)[] = [];
    const manual: typeof fetch = (input, init) => {
      modes.push(init?.redirect);
      return fetch(input, { ...init, redirect: 'manual' });
    };
    logs.length = 0;
    await assertRefused(client(manual));
    assert.deepEqual(
      modes,
      ['error', 'error', 'error', 'error'],
      'every call, not only the upload, sets the redirect mode',
    );
    const events = logs.filter((entry) => entry.event === 'upstream_redirect_refused');
    assert.equal(events.length, 4);
    assert.ok(events.every((entry) => entry.status === 302 && entry.level === 'error'));
    assert.ok(!JSON.stringify(logs).includes('sk_test_redirect_key'));
    modes = [];
  });
});
