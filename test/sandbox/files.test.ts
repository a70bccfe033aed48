import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sendReading } from '../raw-http.js';
import { multipart, personPhoto, sandbox, upload } from './support.js';
import type { Sandbox } from './support.js';

describe('auth', () => {
  let sb: Sandbox;
  before(async () => {
    sb = await sandbox();
  });
  after(() => sb.close());

  it('refuses a missing, malformed or unknown key with 401 and a JSON error on every endpoint', async () => {
    const calls: Array<[string, string]> = [
      ['POST', '/v1/files'],
      ['POST', '/v1/images/tryon'],
      ['POST', '/v1/videos/tryon'],
      ['GET', '/v1/jobs/job_x'],
      ['GET', '/v1/images/job_x/outputs'],
      ['GET', '/v1/files/file_x/content'],
    ];
    for (const [method, path] of calls) {
      for (const init of [
        { key: null },
        { key: 'sk_test_unknown' },
        { key: null, headers: { authorization: 'Basic abc' } },
      ]) {
        const response = await sb.call(method, path, init);
        assert.equal(response.status, 401, `${method} ${path}`);
        const body = (await response.json()) as any;
        assert.equal(body.error.code, 'unauthorized');
        assert.equal(typeof body.error.message, 'string');
        assert.ok(!JSON.stringify(body).includes('sk_test_alpha'), 'no key in the answer');
      }
    }
  });

  it('makes up one sk_test_ key when none is configured', async () => {
    const { startSandbox } = await import('../../sandbox/server.js');
    const own = await startSandbox({ speed: 0, log: () => {} });
    try {
      const [key, ...rest] = Object.keys(own.keys);
      assert.equal(rest.length, 0);
      assert.match(key ?? '', /^sk_test_[0-9a-f]{24}$/);
      const answer = await fetch(`${own.url}/v1/jobs/job_x`, { headers: { authorization: `Bearer ${key}` } });
      assert.equal(answer.status, 404);
    } finally {
      await own.close();
    }
  });
});

describe('POST /v1/files', () => {
  let sb: Sandbox;
  before(async () => {
    sb = await sandbox({ maxUploadBytes: 200_000 });
  });
  after(() => sb.close());

  it('stores a JPEG person photo with its record fields', async () => {
    const bytes = await personPhoto(320, 480);
    const { status, body } = await upload(sb, bytes, 'person');
    assert.equal(status, 201);
    assert.match(body.id, /^file_[0-9a-f]{24}$/);
    assert.equal(body.object, 'file');
    assert.equal(body.kind, 'person');
    assert.equal(body.content_type, 'image/jpeg');
    assert.equal(body.size_bytes, bytes.length);
    assert.equal(body.width, 320);
    assert.equal(body.height, 480);
    assert.ok(!Number.isNaN(Date.parse(body.created_at)));

    const content = await sb.call('GET', `/v1/files/${body.id}/content`);
    assert.equal(content.headers.get('content-type'), 'image/jpeg');
    assert.deepEqual(Buffer.from(await content.arrayBuffer()), bytes);
  });

  it('judges the type by magic bytes: a PNG declared as text/plain is a PNG', async () => {
    const { status, body } = await upload(sb, await personPhoto(100, 150, 'png'), 'garment', {
      type: 'text/plain',
      name: 'notes.txt',
    });
    assert.equal(status, 201);
    assert.equal(body.content_type, 'image/png');
    assert.equal(body.kind, 'garment');
  });

  it('accepts WebP and a HEIC container (without dimensions when it cannot decode it)', async () => {
    const webp = await upload(sb, await personPhoto(120, 180, 'webp'), 'person', { type: 'image/webp' });
    assert.equal(webp.status, 201);
    assert.equal(webp.body.content_type, 'image/webp');
    assert.equal(webp.body.width, 120);

    const heic = Buffer.alloc(64);
    heic.writeUInt32BE(24, 0);
    heic.write('ftypheic', 4, 'latin1');
    const answer = await upload(sb, heic, 'person', { type: 'image/heic', name: 'IMG_0001.HEIC' });
    assert.equal(answer.status, 201);
    assert.equal(answer.body.content_type, 'image/heic');
    assert.equal(answer.body.width, undefined);
  });

  it('refuses a text file declared as image/png with 415', async () => {
    const { status, body } = await upload(sb, Buffer.from('just some words, not a picture'), 'person', {
      type: 'image/png',
      name: 'photo.png',
    });
    assert.equal(status, 415);
    assert.equal(body.error.code, 'unsupported_media_type');
  });

  it('refuses a file over the size limit with 413', async () => {
    // Refused by its Content-Length before the body is read, so the server answers and closes while
    // the upload is still going out: read as a browser reads it, the answer while sending.
    const big = Buffer.concat([await personPhoto(), Buffer.alloc(300_000)]);
    const form = await multipart(big, 'person');
    const early = await sendReading(`${sb.url}/v1/files`, {
      headers: { authorization: 'Bearer sk_test_alpha', 'content-type': form.contentType },
      body: form.body,
    });
    assert.equal(early.status, 413);
    assert.equal(early.json().error.code, 'file_too_large');
    // Just over the limit: the whole body is read, then the file itself is measured.
    const near = Buffer.concat([await personPhoto(), Buffer.alloc(210_000)]);
    const second = await upload(sb, near, 'person');
    assert.equal(second.status, 413);
    assert.equal(second.body.error.code, 'file_too_large');
  });

  it('refuses a streamed upload with no Content-Length once it passes the limit', async () => {
    const boundary = 'sandbox-boundary';
    const head =
      `--${boundary}\r\nContent-Disposition: form-data; name="kind"\r\n\r\nperson\r\n--${boundary}\r\n` +
      'Content-Disposition: form-data; name="file"; filename="big.jpg"\r\nContent-Type: image/jpeg\r\n\r\n';
    const body = Buffer.concat([
      Buffer.from(head),
      Buffer.from([0xff, 0xd8, 0xff]),
      Buffer.alloc(400_000),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    // Chunked, so only the count while reading can catch it; the refusal comes mid-upload, so the
    // answer is read while sending (test/raw-http.ts).
    const response = await sendReading(`${sb.url}/v1/files`, {
      headers: { authorization: 'Bearer sk_test_alpha', 'content-type': `multipart/form-data; boundary=${boundary}` },
      body,
      chunked: true,
      pieceBytes: 10_000,
    });
    assert.equal(response.status, 413);
    assert.equal(response.json().error.code, 'file_too_large');
  });

  it('names the missing or wrong fields with 422', async () => {
    const bad = await upload(sb, await personPhoto(), 'shoe');
    assert.equal(bad.status, 422);
    assert.equal(bad.body.error.code, 'validation_failed');
    assert.deepEqual(
      bad.body.error.details.map((d: { field: string }) => d.field),
      ['kind'],
    );

    const form = new FormData();
    form.set('kind', 'person');
    const missing = await sb.call('POST', '/v1/files', { body: form });
    assert.equal(missing.status, 422);
    const body = (await missing.json()) as any;
    assert.equal(body.error.details[0].field, 'file');
  });

  it('answers 400 for a body that is not multipart', async () => {
    const answer = await sb.json('POST', '/v1/files', { json: { file: 'x', kind: 'person' } });
    assert.equal(answer.status, 400);
    assert.equal(answer.body.error.code, 'invalid_request');
    const broken = await sb.call('POST', '/v1/files', {
      body: 'garbage',
      headers: { 'content-type': 'multipart/form-data; boundary=zzz' },
    });
    assert.equal(broken.status, 400);
    assert.equal(((await broken.json()) as any).error.code, 'invalid_request');
  });
});
