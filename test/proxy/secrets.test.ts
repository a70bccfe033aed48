// The key, the secret and raw upstream ids appear in no answer and no log line; image bytes
// never reach the log; each try-on writes one compliance line naming the photo by handle id.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { HANDLE_KINDS, HandleSigner, type ClaimsOf, type HandleKind } from '../../proxy/security/handles.js';
import { LOGGED_PATH_CHARS, loggedPath } from '../../proxy/middleware/request-log.js';
import {
  SECRET,
  absolute,
  personPhoto,
  startStack,
  startTryon,
  uploadPhoto,
  waitForStatus,
  type Stack,
  type StatusAnswer,
  type TryonAnswer,
} from './stack.js';
import { readEvents } from './sse.js';

const KEY = 'sk_live_Zq9VerySecretKeyValue77';

describe('secrets and logs', () => {
  let stack: Stack;
  const seen: string[] = [];
  const record = async (response: Response, binary = false): Promise<string> => {
    const text = binary
      ? Buffer.from(await response.clone().arrayBuffer()).toString('latin1')
      : await response.clone().text();
    seen.push(text, JSON.stringify([...response.headers]));
    return text;
  };

  before(async () => {
    stack = await startStack({
      apiKey: KEY,
      sandbox: { keys: { [KEY]: 'ws_1' } },
      proxy: { allowedOrigins: ['https://shop.example'] },
    });
  });
  after(async () => {
    await stack.close();
  });

  it('keeps the key, the secret and upstream ids out of every answer and every log line', async () => {
    const photoBytes = await personPhoto(520, 700);
    const upload = await uploadPhoto(stack, photoBytes, { origin: 'https://shop.example' });
    assert.equal(upload.status, 201);
    const { photo } = JSON.parse(await record(upload)) as { photo: string };
    await record(await fetch(`${stack.url}/products/saree-banarasi-red`));
    await record(await fetch(`${stack.url}/health`));
    const startedResponse = await startTryon(
      stack,
      { product: 'saree-banarasi-red', photo },
      { origin: 'https://shop.example', 'x-forwarded-for': '203.0.113.9' },
    );
    assert.equal(startedResponse.status, 202);
    const started = JSON.parse(await record(startedResponse)) as TryonAnswer;
    const done = await waitForStatus(stack, started.tryon, (s) => s.status === 'succeeded');
    await record(await fetch(`${stack.url}/tryons/${started.tryon}`));
    seen.push(JSON.stringify(await readEvents(`${stack.url}/tryons/${started.tryon}/events`)));
    for (const output of done.outputs) await record(await fetch(absolute(stack, output.url)), true);
    // Error answers too, including an upstream refusal.
    await record(await startTryon(stack, { product: 'nope', photo }));
    await record(await fetch(`${stack.url}/tryons/v1.tryon.AAAA.BBBB`));
    await stack.fault({ match: 'POST /v1/images/tryon', status: 401, times: 1 });
    await record(await startTryon(stack, { product: 'dress-aline-indigo', photo }));

    const everything = seen.join('\n');
    const logs = JSON.stringify(stack.logs);
    assert.ok(stack.logs.length > 10);
    for (const secret of [KEY, SECRET]) {
      assert.ok(!everything.includes(secret), 'secret in an answer');
      assert.ok(!logs.includes(secret), 'secret in a log line');
    }
    // Upstream ids stay upstream.
    const state = await stack.state();
    const jobIds = state.workspaces.ws_1!.jobs.map((j) => j.id);
    assert.ok(jobIds.length > 0);
    for (const id of jobIds) assert.ok(!everything.includes(id), `upstream job id ${id} reached the browser`);
    assert.ok(
      !/file_[A-Za-z0-9]{6,}/.test(everything.replace(/[^\x20-\x7e]/g, ' ')),
      'an upstream file id reached the browser',
    );
    // No image bytes in the log: neither raw nor base64.
    const b64 = Buffer.from(photoBytes.subarray(200, 260)).toString('base64');
    assert.ok(!logs.includes(b64));
    assert.ok(!logs.includes(Buffer.from(photoBytes.subarray(200, 260)).toString('latin1')));
    assert.ok(
      stack.logs.every((entry) => JSON.stringify(entry).length < 2000),
      'log lines stay small',
    );
  });

  it('writes one compliance line per try-on: time, product, photo handle id, hashed client', async () => {
    const upload = await uploadPhoto(stack);
    const { photo } = (await upload.json()) as { photo: string };
    const before = stack.logs.filter((l) => l.event === 'consent').length;
    const response = await startTryon(stack, { product: 'dress-aline-indigo', photo });
    assert.equal(response.status, 202);
    const lines = stack.logs.filter((l) => l.event === 'consent');
    assert.equal(lines.length, before + 1);
    const line = lines.at(-1)!;
    const claims = await new HandleSigner(SECRET).open('photo', photo);
    assert.equal(line.product, 'dress-aline-indigo');
    assert.equal(line.photo, claims.id);
    assert.notEqual(line.photo, claims.fileId);
    assert.ok(!JSON.stringify(line).includes(claims.fileId));
    assert.match(String(line.client), /^[0-9a-f]{64}$/);
    assert.ok(!JSON.stringify(line).includes('127.0.0.1'));
    assert.ok(!Number.isNaN(Date.parse(String(line.time))));
  });
});

/** Claims for one handle of every kind; a kind added to HANDLE_KINDS fails to compile here until it has some. */
const CLAIMS: { [K in HandleKind]: ClaimsOf[K] } = {
  photo: { id: 'photo_id_1', fileId: 'file_upstream_1', phoneConsent: { version: '3', language: 'hi' } },
  tryon: {
    jobId: 'job_upstream_1',
    product: 'saree-banarasi-red',
    views: ['front', 'back'],
    output: 'image',
    photoId: 'photo_id_1',
    previewJobId: 'job_upstream_0',
  },
  file: { fileId: 'file_upstream_2', jobId: 'job_upstream_1', view: 'front', type: 'image', photoId: 'photo_id_1' },
  handoff: { id: 'handoff_id_1' },
};

describe('handles in the request log', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack({ proxy: { allowedOrigins: ['https://shop.example'] } });
  });
  after(async () => {
    await stack.close();
  });

  // Whoever reads the log must not be able to open anyone's photo, try-on, file or hand-off: a
  // hand-off handle answers the shopper's photo handle. Every kind the proxy mints is tried, on
  // every route that takes a handle, spelt plainly and percent-encoded.
  for (const kind of HANDLE_KINDS) {
    it(`cuts a ${kind} handle to its kind in every request line`, async () => {
      assert.ok(CLAIMS[kind], `claims for the ${kind} kind`);
      const { handle } = await new HandleSigner(SECRET).mint(kind, CLAIMS[kind], 3600);
      const [, , payload, signature] = handle.split('.') as [string, string, string, string];
      const encoded = handle.replaceAll('.', '%2E');
      const from = stack.logs.length;
      const requests: [string, string][] = [
        ['DELETE', `/photos/${handle}`],
        ['GET', `/tryons/${handle}`],
        ['GET', `/files/${handle}`],
        ['GET', `/handoffs/${handle}`],
        ['GET', `/handoffs/${encoded}`],
        ['GET', `/no-such-route/${handle}/and/${handle}`],
      ];
      for (const [method, path] of requests) {
        const response = await fetch(`${stack.url}${path}`, { method, headers: { origin: 'https://shop.example' } });
        await response.body?.cancel();
      }
      const lines = stack.logs.slice(from);
      const requestLines = lines.filter((line) => line.event === 'request');
      assert.equal(requestLines.length, requests.length, JSON.stringify(lines));
      for (const line of requestLines) assert.match(String(line.path), new RegExp(`v1\\.${kind}\\.…`));
      const logged = JSON.stringify(lines);
      for (const secret of [handle, payload, signature, encoded])
        assert.ok(!logged.includes(secret), `a ${kind} handle reached the log: ${logged}`);
    });
  }

  it('cuts handles from long paths too, and leaves paths without one as they are', async () => {
    const signer = new HandleSigner(SECRET);
    for (const kind of HANDLE_KINDS) {
      const { handle } = await signer.mint(kind, CLAIMS[kind], 3600);
      const long = `/tryons/${'a'.repeat(LOGGED_PATH_CHARS - 20)}/${handle}`;
      const logged = loggedPath(long);
      assert.ok(!logged.includes(handle.split('.')[2]!), logged);
      assert.ok(logged.length <= LOGGED_PATH_CHARS + 20, logged);
      assert.equal(loggedPath(`/x/${handle}/events`), `/x/v1.${kind}.…/events`);
    }
    assert.equal(loggedPath('/products/saree-banarasi-red'), '/products/saree-banarasi-red');
    assert.equal(loggedPath('/products/v1.2-dress'), '/products/v1.2-dress');
  });
});

describe('file handles', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack({ proxy: { basePath: '/tryon' } });
  });
  after(async () => {
    await stack.close();
  });

  it('output URLs are relative to the mount path, and a file handle cannot fetch another try-on’s file', async () => {
    assert.match(stack.url, /\/tryon$/);
    const run = async () => {
      const upload = await uploadPhoto(stack);
      assert.equal(upload.status, 201);
      const { photo } = (await upload.json()) as { photo: string };
      const started = (await (await startTryon(stack, { product: 'dress-aline-indigo', photo })).json()) as TryonAnswer;
      return {
        started,
        done: await waitForStatus(stack, started.tryon, (s: StatusAnswer) => s.status === 'succeeded'),
      };
    };
    const a = await run();
    const b = await run();
    const url = a.done.outputs[0]!.url;
    assert.match(url, /^files\/v1\.file\./);
    assert.equal(absolute(stack, url), `${stack.url}/${url}`, 'under the mount');
    assert.equal((await fetch(absolute(stack, url))).status, 200);
    const signer = new HandleSigner(SECRET);
    const fileB = await signer.open('file', b.done.outputs[0]!.url.split('/').at(-1)!);
    const tryonA = await signer.open('tryon', a.started.tryon);
    // A genuinely signed handle pairing B's file with A's try-on is still refused.
    const { handle } = await signer.mint(
      'file',
      { fileId: fileB.fileId, jobId: tryonA.jobId, view: 'front', type: 'image', photoId: tryonA.photoId },
      3600,
    );
    const refused = await fetch(`${stack.url}/files/${handle}`);
    assert.equal(refused.status, 404);
    assert.equal(((await refused.json()) as { error: { code: string } }).error.code, 'not_found');
    // Same stable URL for the same output on a second status read.
    assert.equal((await waitForStatus(stack, a.started.tryon, () => true)).outputs[0]!.url, url);
  });
});
