// What an attacker sends that the proxy cannot serve: each answered at once in the documented
// error shape, never a 500, never an error-level log line, never unbounded work or logging.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { DEFAULT_LIMITS } from '../../proxy/app.js';
import { HandleSigner } from '../../proxy/security/handles.js';
import { lingerBounds } from '../../proxy/http/lingering-close.js';
import { SECRET, personPhoto, photoHandle, startStack, startTryon, type Stack, useStack, closeAfter } from './stack.js';
import { openRaw, parseRaw, photoForm, send } from './wire.js';

interface ErrorShape {
  error: { code: string; message: string; retryable: boolean };
}

function assertError(status: number, text: string, expectedStatus: number, code: string): void {
  assert.equal(status, expectedStatus, text);
  const body = JSON.parse(text) as ErrorShape;
  assert.deepEqual(Object.keys(body), ['error']);
  assert.deepEqual(Object.keys(body.error).sort(), ['code', 'message', 'retryable']);
  assert.equal(body.error.code, code);
  assert.ok(body.error.message.length > 5);
}

const errorLines = (stack: Stack) => stack.logs.filter((entry) => entry.level === 'error');

describe('hostile input', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack({ proxy: { limits: { uploadIdleMs: 400, uploadTotalMs: 1500 } } });
  });
  after(async () => {
    await stack.close();
  });

  describe('malformed Origin', () => {
    it('answers 403 origin_not_allowed before any work, on every route, with no error logged', async () => {
      const uploadsBefore = (await stack.state()).requests['POST /v1/files'] ?? 0;
      const photo = await photoHandle(stack);
      const form = await photoForm(await personPhoto());
      const routes: [string, string, Record<string, string>, (Uint8Array | string)?][] = [
        ['GET', '/products/dress-aline-indigo', {}],
        ['POST', '/photos', { 'content-type': form.contentType }, form.body],
        [
          'POST',
          '/tryons',
          { 'content-type': 'application/json' },
          JSON.stringify({ consent: true, product: 'dress-aline-indigo', photo, requestId: 'req_hostile_1' }),
        ],
        ['GET', '/tryons/garbage', {}],
        ['GET', '/tryons/garbage/events', {}],
        ['GET', '/files/garbage', {}],
        ['OPTIONS', '/tryons', { 'access-control-request-method': 'POST' }],
        ['GET', '/no/such/route', {}],
      ];
      for (const origin of [
        'http://[',
        'http://host:91010',
        'https://a b',
        'null',
        'https://shop.example/',
        '*',
        'https://',
        'x'.repeat(3000),
      ]) {
        for (const [method, path, headers, body] of routes) {
          const answer = await send(`${stack.url}${path}`, {
            method,
            headers: { ...headers, origin },
            ...(body === undefined ? {} : { body }),
          });
          assertError(answer.status, answer.text, 403, 'origin_not_allowed');
        }
      }
      assert.deepEqual(errorLines(stack), []);
      const state = await stack.state();
      assert.equal(state.requests['POST /v1/files'], uploadsBefore + 1, 'only the honest upload reached upstream');
      assert.equal(state.requests['POST /v1/images/tryon'] ?? 0, 0);
    });
  });

  describe('unknown routes and methods', () => {
    const cases = async (base: string) => {
      for (const path of ['/nowhere', '/tryons/a/b/c', '/products', '/photos/x/y', '/', '/webhooks/x', '/%zz']) {
        const answer = await send(`${base}${path}`);
        assertError(answer.status, answer.text, 404, 'not_found');
        assert.match(String(answer.headers['content-type']), /^application\/json/);
      }
      for (const [method, path] of [
        ['DELETE', '/tryons'],
        ['GET', '/photos'],
        ['PUT', '/photos'],
        ['POST', '/products/dress-aline-indigo'],
        ['GET', '/webhooks'],
        ['POST', '/health'],
        ['DELETE', '/tryons/abc'],
        ['POST', '/files/abc'],
        ['PATCH', '/tryons/abc/events'],
      ] as const) {
        const answer = await send(`${base}${path}`, {
          method,
          headers: { 'content-type': 'application/json' },
          body: '{}',
        });
        assertError(answer.status, answer.text, 405, 'method_not_allowed');
        assert.match(String(answer.headers.allow), /^(GET|POST)/, `${method} ${path} names the allowed methods`);
      }
      // A photo's own address answers only DELETE ("Forget my photo").
      const photo = await send(`${base}/photos/x`);
      assertError(photo.status, photo.text, 405, 'method_not_allowed');
      assert.equal(photo.headers.allow, 'DELETE');
    };

    it('answer JSON 404 and 405 at the root', async () => {
      await cases(stack.url);
    });

    it('answer JSON 404 and 405 under startProxy({ basePath })', async (t) => {
      const mounted = await useStack(t, { proxy: { basePath: '/shop/tryon' } });
      assert.match(mounted.url, /\/shop\/tryon$/);
      await cases(mounted.url);
      // Outside the mount too: the proxy's JSON, not a bare router's text.
      const outside = await send(`${new URL(mounted.url).origin}/elsewhere`);
      assertError(outside.status, outside.text, 404, 'not_found');
    });

    it('answer JSON 404 and 405 under npm start’s /tryon mount', async (t) => {
      const { startDemo } = await import('../../demo/start.js');
      const demo = closeAfter(t, await startDemo({ port: 0, sandboxPort: 0, speed: 0, quiet: true, env: {} }));
      await cases(`${demo.url}/tryon`);
      // The shop's own pages are still the shop's.
      assert.equal((await send(`${demo.url}/`)).status, 200);
    });

    it('are rate limited like other reads, and logged with a bounded path', async (t) => {
      const limited = await useStack(t, { proxy: { limits: { readsPerMinute: 5 } } });
      const long = `/${'a'.repeat(15_000)}`;
      const statuses = [];
      const requests: [string, string][] = [
        ['GET', '/nowhere'],
        ['GET', long],
        ['POST', long],
        ['PUT', '/photos'],
        ['DELETE', '/tryons/abc'],
        ['GET', long],
        ['GET', '/nowhere'],
      ];
      for (const [method, path] of requests) statuses.push((await send(`${limited.url}${path}`, { method })).status);
      assert.deepEqual(statuses, [404, 404, 404, 405, 405, 429, 429]);
      const lines = limited.logs.filter((entry) => entry.event === 'request');
      assert.ok(lines.length >= 7);
      for (const line of lines) {
        assert.ok(String(line.path).length <= 300, `a logged path of ${String(line.path).length} characters`);
        assert.ok(JSON.stringify(line).length < 1000);
      }
    });
  });

  describe('uploads', () => {
    it('refuses a declared Content-Length over the limit at once, without reading the body, and closes', async () => {
      for (const [path, type, code] of [
        ['/photos', 'multipart/form-data; boundary=b', 'file_too_large'],
        ['/tryons', 'application/json', 'invalid_request'],
      ] as const) {
        const raw = await openRaw(
          stack.url,
          `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: ${type}\r\nContent-Length: 10737418240\r\n\r\n${'x'.repeat(100)}`,
        );
        const { text, closed, elapsedMs } = await raw.answer(3000);
        raw.socket.destroy();
        const answer = parseRaw(text);
        assertError(answer.status, answer.body, 413, code);
        assert.equal(answer.headers.connection, 'close');
        assert.ok(closed, 'the connection is closed rather than kept for a body that will never be read');
        assert.ok(elapsedMs < 2000, `answered in ${elapsedMs} ms`);
      }
    });

    const head = (length: number, boundary: string) =>
      `POST /photos HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${length}\r\n\r\n`;

    it('closes an upload that stalls before its photo part with 408', async () => {
      const raw = await openRaw(
        stack.url,
        `${head(200_000, 'b')}--b\r\nContent-Disposition: form-data; name="note"\r\n\r\nhel`,
      );
      const { text, closed, elapsedMs } = await raw.answer(5000);
      raw.socket.destroy();
      const answer = parseRaw(text);
      assertError(answer.status, answer.body, 408, 'upload_timeout');
      assert.ok(closed);
      assert.ok(elapsedMs >= 350 && elapsedMs < 3000, `cut after ${elapsedMs} ms (idle limit 400 ms)`);
    });

    it('closes an upload that stalls inside the photo with 408, and nothing is stored upstream', async () => {
      const before = (await stack.state()).requests['POST /v1/files'] ?? 0;
      const photo = await personPhoto(800, 1000);
      const partHead =
        '--b\r\nContent-Disposition: form-data; name="photo"; filename="me.jpg"\r\nContent-Type: image/jpeg\r\n\r\n';
      const raw = await openRaw(stack.url, head(photo.length + 200, 'b'));
      raw.socket.write(partHead);
      raw.socket.write(photo.subarray(0, Math.min(photo.length - 10, 100_000)));
      const { text, closed } = await raw.answer(5000);
      raw.socket.destroy();
      const answer = parseRaw(text);
      assertError(answer.status, answer.body, 408, 'upload_timeout');
      assert.ok(closed);
      const after = await stack.state();
      assert.ok(Object.values(after.workspaces).every((ws) => ws.jobs.length === 0));
      assert.ok((after.requests['POST /v1/files'] ?? 0) <= before + 1, 'at most the one interrupted upload');
      assert.deepEqual(errorLines(stack), []);
    });

    it('closes a try-on request whose JSON body stalls with 408', async () => {
      const raw = await openRaw(
        stack.url,
        `POST /tryons HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{"consent":true,`,
      );
      const { text, closed, elapsedMs } = await raw.answer(5000);
      raw.socket.destroy();
      const answer = parseRaw(text);
      assertError(answer.status, answer.body, 408, 'upload_timeout');
      assert.ok(closed);
      assert.ok(elapsedMs < 3000, `cut after ${elapsedMs} ms (idle limit 400 ms)`);
    });

    it('closes an upload that trickles past the total time limit with 408', async () => {
      const raw = await openRaw(
        stack.url,
        `${head(200_000, 'b')}--b\r\nContent-Disposition: form-data; name="note"\r\n\r\n`,
      );
      // A byte every 100 ms is never idle for 400 ms, but never done either.
      const trickle = setInterval(() => raw.socket.write('x'), 100);
      const { text, closed, elapsedMs } = await raw.answer(6000);
      clearInterval(trickle);
      raw.socket.destroy();
      const answer = parseRaw(text);
      assertError(answer.status, answer.body, 408, 'upload_timeout');
      assert.ok(closed);
      assert.ok(elapsedMs >= 1400 && elapsedMs < 4000, `cut after ${elapsedMs} ms (total limit 1500 ms)`);
    });
  });

  describe('handles', () => {
    it('refuses every non-canonical spelling of a genuine handle with 404 invalid_handle', async () => {
      const photo = await photoHandle(stack);
      const started = await startTryon(stack, { product: 'dress-aline-indigo', photo });
      assert.equal(started.status, 202);
      const { tryon } = (await started.json()) as { tryon: string };
      assert.ok(await new HandleSigner(SECRET).open('tryon', tryon));
      const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
      const spellings = (handle: string) => {
        const last = alphabet.indexOf(handle.at(-1)!);
        return [1, 2, 3].map((bits) => handle.slice(0, -1) + alphabet[last ^ bits]);
      };
      for (const spelling of spellings(tryon)) {
        const answer = await send(`${stack.url}/tryons/${spelling}`);
        assertError(answer.status, answer.text, 404, 'invalid_handle');
      }
      for (const spelling of spellings(photo)) {
        const answer = await startTryon(stack, { product: 'dress-aline-indigo', photo: spelling });
        assertError(answer.status, await answer.text(), 404, 'invalid_handle');
      }
      assert.equal((await send(`${stack.url}/tryons/${tryon}`)).status, 200);
    });
  });
});

// An answer given before the body was read must reach the client whole, then the rest of the body
// is read and dropped for a bounded time or number of bytes (lingering close) before closing.
describe('refusals before the body is read', () => {
  const uploadBytes = DEFAULT_LIMITS.uploadBytes;
  // Upload deadlines far from what these tests take on a loaded machine: a 40 MB streamed upload
  // must end in its 413, never in a 408 because reading 15 MB beside other suites took seconds.
  // The lingering close's time bound is then the longest, 30 s.
  const patientLimits = { uploadTotalMs: 60_000, uploadIdleMs: 10_000, ratePerMinute: 1000 };
  const patientBounds = lingerBounds({ uploadBytes, uploadTotalMs: patientLimits.uploadTotalMs });
  let stack: Stack;
  before(async () => {
    stack = await startStack({ proxy: { limits: patientLimits } });
  });
  after(async () => {
    await stack.close();
  });

  /** A JPEG part 40 MB long (the limit is 15 MB), streamed in 1 MB pieces with no declared length. */
  const streamedOversize = (photo: Uint8Array): ReadableStream<Uint8Array> => {
    const piece = new Uint8Array(1024 * 1024);
    let sent = 0;
    return new ReadableStream({
      pull(controller) {
        if (sent === 0)
          controller.enqueue(
            new TextEncoder().encode(
              '--b\r\nContent-Disposition: form-data; name="photo"; filename="me.jpg"\r\nContent-Type: image/jpeg\r\n\r\n',
            ),
          );
        if (sent === 0) controller.enqueue(photo);
        if (sent >= 40 * 1024 * 1024) {
          controller.enqueue(new TextEncoder().encode('\r\n--b--\r\n'));
          controller.close();
          return;
        }
        sent += piece.length;
        controller.enqueue(piece);
      },
    });
  };

  it('50 oversize uploads from fetch each receive the 413 JSON with the security headers, none a reset', async () => {
    const photo = await personPhoto();
    const declared = new Uint8Array(40 * 1024 * 1024);
    declared.set(photo, 0);
    const outcomes: string[] = [];
    for (let i = 0; i < 50; i++) {
      const init: RequestInit =
        i % 2 === 0
          ? ({
              body: streamedOversize(photo),
              duplex: 'half',
              headers: { 'content-type': 'multipart/form-data; boundary=b' },
            } as RequestInit)
          : {
              body: (() => {
                const form = new FormData();
                form.append('photo', new Blob([declared], { type: 'image/jpeg' }), 'me.jpg');
                return form;
              })(),
            };
      try {
        const response = await fetch(`${stack.url}/photos`, { method: 'POST', ...init });
        const body = JSON.parse(await response.text()) as ErrorShape;
        outcomes.push(
          [
            response.status,
            body.error.code,
            response.headers.get('x-content-type-options'),
            response.headers.get('content-security-policy')?.includes("default-src 'none'"),
            /^[\w-]{8,}$/.test(response.headers.get('x-request-id') ?? ''),
          ].join(' '),
        );
      } catch (error) {
        outcomes.push(
          `${i % 2 === 0 ? 'streamed' : 'declared'}: ${String((error as { cause?: { code?: string } }).cause?.code ?? error)}`,
        );
      }
    }
    assert.deepEqual(
      outcomes.filter((outcome) => outcome !== '413 file_too_large nosniff true true'),
      [],
    );
  });

  it('closes a body that keeps coming past the bound, in time or in bytes', async () => {
    const head = `POST /photos HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: 10737418240\r\n\r\n`;
    // A client that goes on sending after our answer and our end of the connection.
    const keepSending = (url: string, piece: number, everyMs: number) =>
      new Promise<{ answer: string; sent: number; elapsedMs: number }>((resolve) => {
        const target = new URL(url);
        const socket = connect({ host: target.hostname, port: Number(target.port), allowHalfOpen: true });
        let answer = '';
        let sent = 0;
        let started = 0;
        let timer: NodeJS.Timeout | undefined;
        const send = () => {
          if (socket.destroyed || !socket.writable) return;
          sent += piece;
          if (socket.write(new Uint8Array(piece))) timer = setTimeout(send, everyMs);
          else socket.once('drain', send);
        };
        socket.on('connect', () => {
          socket.write(head);
          socket.once('data', () => {
            started = Date.now();
          });
          send();
        });
        socket.on('data', (chunk: Buffer) => {
          answer += chunk.toString('latin1');
        });
        socket.on('error', () => undefined);
        socket.on('close', () => {
          clearTimeout(timer);
          resolve({ answer, sent, elapsedMs: Date.now() - started });
        });
      });

    // The time bound, against a proxy whose bound is short.
    const lingerMs = 3000;
    const brief = await startStack({
      proxy: { limits: { uploadTotalMs: lingerMs, uploadIdleMs: 1000, ratePerMinute: 1000 } },
    });
    const slow = await keepSending(brief.url, 1024, 50).finally(() => brief.close());
    const slowAnswer = parseRaw(slow.answer);
    assertError(slowAnswer.status, slowAnswer.body, 413, 'file_too_large');
    assert.equal(slowAnswer.headers['x-content-type-options'], 'nosniff');
    // Closed by the time bound: not before it, and not long after (a busy machine delays a timer
    // by a second or two, not by another bound's worth).
    assert.ok(
      slow.elapsedMs >= lingerMs - 200 && slow.elapsedMs < 2 * lingerMs,
      `closed ${slow.elapsedMs} ms after the answer (bound ${lingerMs} ms)`,
    );

    // The byte bound, against the proxy whose time bound is the longest (30 s): reading 64 MB can
    // take longer than the short bound above on a loaded machine, and must still end by bytes.
    const fast = await keepSending(stack.url, 64 * 1024, 0);
    assertError(parseRaw(fast.answer).status, parseRaw(fast.answer).body, 413, 'file_too_large');
    assert.ok(
      fast.elapsedMs < patientBounds.ms / 2,
      `closed ${fast.elapsedMs} ms after the answer: by the byte bound, well before the time bound`,
    );
    // The kernel's buffers hold a few MB beyond what the proxy read: far less than an endless body.
    assert.ok(
      fast.sent > patientBounds.bytes && fast.sent < patientBounds.bytes + 32 * 1024 * 1024,
      `${fast.sent} bytes were sent before the close (bound ${patientBounds.bytes})`,
    );
  });
});
