// A client that sends its request head a byte at a time holds a socket for as long as the server
// lets it: Node's defaults allowed over 75 s (a 60 s headers timeout checked every 30 s). The
// proxy's Node server closes such a socket once `headersTimeoutMs` has passed, while an upload that
// is slow but within its own deadline (`uploadTotalMs`) still goes through.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startInstance } from './cluster.js';
import { nodeServerTimeouts } from '../../proxy/node.js';
import { resolveLimits } from '../../proxy/limits/limits.js';
import { CATALOG, personPhoto, startStack, writeAssets, type Stack } from './stack.js';

const HEADERS_TIMEOUT_MS = 600;

/** Opens a raw connection and sends `POST /photos` one header byte every `gapMs`, without end. */
function trickleHeaders(
  url: string,
  gapMs: number,
): { socket: Socket; closed: Promise<{ at: number; answer: string }> } {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  let answer = '';
  socket.setEncoding('latin1').on('data', (text: string) => {
    answer += text;
  });
  socket.on('error', () => undefined);
  const head = `POST /photos HTTP/1.1\r\nHost: ${hostname}\r\nX-Slow: ${'a'.repeat(10_000)}`;
  let sent = 0;
  let timer: ReturnType<typeof setInterval> | undefined;
  socket.once('connect', () => {
    timer = setInterval(() => {
      if (!socket.destroyed && sent < head.length) socket.write(head[sent++]!);
    }, gapMs);
  });
  const closed = new Promise<{ at: number; answer: string }>((resolve) =>
    socket.once('close', () => {
      clearInterval(timer);
      resolve({ at: Date.now(), answer });
    }),
  );
  return { socket, closed };
}

describe('slow request heads', () => {
  let stack: Stack;
  const sockets: Socket[] = [];
  before(async () => {
    stack = await startStack({
      proxy: { limits: { headersTimeoutMs: HEADERS_TIMEOUT_MS, uploadIdleMs: 1500, uploadTotalMs: 4000 } },
    });
  });
  after(async () => {
    for (const socket of sockets) socket.destroy();
    await stack.close();
  });

  it(
    'closes a connection whose head trickles in, once the configured headers timeout has passed',
    { timeout: 20_000 },
    async () => {
      const started = Date.now();
      const { socket, closed } = trickleHeaders(stack.url, 100);
      sockets.push(socket);
      const { at, answer } = await closed;
      const heldMs = at - started;
      // The timeout, plus the interval at which Node checks its connections, plus a scheduling margin.
      assert.ok(heldMs >= HEADERS_TIMEOUT_MS, `closed after ${heldMs} ms, before the timeout`);
      assert.ok(heldMs < HEADERS_TIMEOUT_MS + 1500, `closed after ${heldMs} ms`);
      assert.match(answer, /^HTTP\/1\.1 408 /);
    },
  );

  it('lets an upload far slower than the headers timeout, within its own deadline, through', async () => {
    const form = new FormData();
    form.append('photo', new Blob([(await personPhoto()) as BlobPart], { type: 'image/jpeg' }), 'me.jpg');
    const request = new Response(form);
    const bytes = new Uint8Array(await request.arrayBuffer());
    const pieces = 8;
    let index = 0;
    const size = Math.ceil(bytes.length / pieces);
    const started = Date.now();
    const response = await fetch(`${stack.url}/photos`, {
      method: 'POST',
      headers: { 'content-type': request.headers.get('content-type')! },
      body: new ReadableStream<Uint8Array>({
        async pull(controller) {
          if (index >= pieces) return controller.close();
          await new Promise((resolve) => setTimeout(resolve, 300));
          controller.enqueue(bytes.subarray(index * size, ++index * size));
        },
      }),
      duplex: 'half',
    } as RequestInit);
    assert.equal(response.status, 201, await response.clone().text());
    assert.ok(Date.now() - started > 4 * HEADERS_TIMEOUT_MS, 'the upload took several headers timeouts');
  });
});

describe('the tryon-proxy bin', () => {
  it('reads TRYON_HEADERS_TIMEOUT_MS and closes a trickling head within it', { timeout: 60_000 }, async (t) => {
    const dir = await mkdtemp(join(tmpdir(), 'tryon-slow-headers-'));
    t.after(() => rm(dir, { recursive: true, force: true }));
    await writeAssets(dir);
    await writeFile(join(dir, 'catalog.json'), JSON.stringify(CATALOG));
    const proxy = await startInstance({
      TRYON_API_KEY: 'sk_test_x',
      TRYON_BASE_URL: 'http://127.0.0.1:9',
      TRYON_CATALOG: join(dir, 'catalog.json'),
      TRYON_HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
    });
    t.after(() => proxy.close());
    const started = Date.now();
    const { socket, closed } = trickleHeaders(proxy.url, 100);
    t.after(() => socket.destroy());
    const { at, answer } = await closed;
    assert.ok(at - started < HEADERS_TIMEOUT_MS + 1500, `closed after ${at - started} ms`);
    assert.match(answer, /^HTTP\/1\.1 408 /);
  });
});

describe('the Node server timeouts', () => {
  it('give a request the headers timeout, the upload deadline and the lingering close after it', () => {
    const limits = resolveLimits({ headersTimeoutMs: 20_000, uploadTotalMs: 120_000 });
    const timeouts = nodeServerTimeouts(limits);
    assert.equal(timeouts.headersTimeout, 20_000);
    assert.equal(timeouts.requestTimeout, 20_000 + 120_000 + 30_000);
    assert.ok(timeouts.connectionsCheckingInterval <= 1000);
  });

  it('set no request timeout when uploads have no deadline', () => {
    const timeouts = nodeServerTimeouts(resolveLimits({ uploadTotalMs: 0 }));
    assert.equal(timeouts.requestTimeout, 0);
    assert.ok(timeouts.headersTimeout > 0);
  });
});
