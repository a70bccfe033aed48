// The whole path through the real proxy and the real sandbox over loopback.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import sharp from 'sharp';
import { absolute, photoHandle, startStack, startTryon, waitForStatus, type Stack, type TryonAnswer } from './stack.js';

describe('proxy happy paths against the sandbox', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack();
  });
  after(async () => {
    await stack.close();
  });

  it('GET /products/{id} answers what the product offers; unknown → 404 unknown_product', async () => {
    const response = await fetch(`${stack.url}/products/saree-banarasi-red`);
    assert.equal(response.status, 200);
    const body = (await response.json()) as Record<string, unknown>;
    assert.deepEqual(body.views, ['front', 'three_quarter_left', 'side', 'back']);
    assert.equal(body.video, true);
    assert.equal(body.tier, 'premium');
    assert.equal(body.product, 'saree-banarasi-red');
    const dress = (await (await fetch(`${stack.url}/products/dress-aline-indigo`)).json()) as Record<string, unknown>;
    assert.equal(dress.video, false);
    assert.equal(dress.tier, 'draft');
    const missing = await fetch(`${stack.url}/products/no-such-thing`);
    assert.equal(missing.status, 404);
    assert.deepEqual(((await missing.json()) as { error: { code: string } }).error.code, 'unknown_product');
  });

  it('garment_to_person: photo → try-on → succeeded → the image streams back', async () => {
    const photo = await photoHandle(stack);
    assert.match(photo, /^v1\.photo\./);
    const response = await startTryon(stack, { product: 'dress-aline-indigo', photo });
    assert.equal(response.status, 202);
    const started = (await response.json()) as TryonAnswer;
    assert.match(started.tryon, /^v1\.tryon\./);
    assert.deepEqual(started.views, ['front']);
    assert.ok(['queued', 'processing', 'succeeded'].includes(started.status));
    const done = await waitForStatus(stack, started.tryon, (s) => s.status === 'succeeded');
    assert.equal(done.outputs.length, 1);
    const [output] = done.outputs;
    assert.equal(output!.view, 'front');
    assert.equal(output!.type, 'image');
    // Relative to the mount, so a reverse proxy that strips the mount's path keeps them working.
    assert.match(output!.url, /^files\/v1\.file\./);
    const file = await fetch(absolute(stack, output!.url));
    assert.equal(file.status, 200);
    assert.match(file.headers.get('content-type') ?? '', /^image\//);
    assert.match(file.headers.get('cache-control') ?? '', /private/);
    const bytes = Buffer.from(await file.arrayBuffer());
    assert.equal(Number(file.headers.get('content-length')), bytes.length);
    const meta = await sharp(bytes).metadata();
    assert.ok((meta.width ?? 0) > 100 && (meta.height ?? 0) > 100);
    // The sandbox saw the catalog's choices, not the browser's.
    const state = await stack.state();
    const job = state.workspaces.ws_1!.jobs.at(-1)!;
    assert.equal(job.status, 'succeeded');
  });

  it('person_to_person: the reference person image is uploaded and used', async () => {
    const photo = await photoHandle(stack);
    const response = await startTryon(stack, { product: 'lehenga-emerald', photo });
    assert.equal(response.status, 202, await response.clone().text());
    const started = (await response.json()) as TryonAnswer;
    const done = await waitForStatus(stack, started.tryon, (s) => s.status === 'succeeded');
    assert.equal(done.outputs.length, 1);
    const file = await fetch(absolute(stack, done.outputs[0]!.url));
    assert.equal(file.status, 200);
    assert.ok((await file.arrayBuffer()).byteLength > 1000);
  });

  it('narrowing views to a subset the product offers; asking for one it does not → 422 view_not_offered', async () => {
    const photo = await photoHandle(stack);
    const narrowed = await startTryon(stack, { product: 'saree-banarasi-red', photo, views: ['back', 'front'] });
    assert.equal(narrowed.status, 202);
    assert.deepEqual(((await narrowed.json()) as TryonAnswer).views, ['front', 'back']);
    const refused = await startTryon(stack, { product: 'dress-aline-indigo', photo, views: ['side'] });
    assert.equal(refused.status, 422);
    assert.equal(((await refused.json()) as { error: { code: string } }).error.code, 'view_not_offered');
  });

  it('video: output "video" where offered gives an MP4; where not offered → 422 video_not_offered', async () => {
    const photo = await photoHandle(stack);
    const refused = await startTryon(stack, { product: 'dress-aline-indigo', photo, output: 'video' });
    assert.equal(refused.status, 422);
    assert.equal(((await refused.json()) as { error: { code: string } }).error.code, 'video_not_offered');
    const started = (await (
      await startTryon(stack, { product: 'saree-banarasi-red', photo, output: 'video' })
    ).json()) as TryonAnswer;
    const done = await waitForStatus(stack, started.tryon, (s) => s.status === 'succeeded', 60_000);
    assert.equal(done.outputs.length, 1);
    assert.equal(done.outputs[0]!.type, 'video');
    const file = await fetch(absolute(stack, done.outputs[0]!.url));
    assert.equal(file.status, 200);
    assert.equal(file.headers.get('content-type'), 'video/mp4');
    const bytes = Buffer.from(await file.arrayBuffer());
    assert.equal(bytes.subarray(4, 8).toString('latin1'), 'ftyp');
    // Byte ranges, as video players ask for them.
    assert.equal(file.headers.get('accept-ranges'), 'bytes');
    const url = absolute(stack, done.outputs[0]!.url);
    const head = await fetch(url, { headers: { range: 'bytes=0-99' } });
    assert.equal(head.status, 206);
    assert.equal(head.headers.get('content-range'), `bytes 0-99/${bytes.length}`);
    assert.deepEqual(Buffer.from(await head.arrayBuffer()), bytes.subarray(0, 100));
    const tail = await fetch(url, { headers: { range: 'bytes=-50' } });
    assert.equal(tail.status, 206);
    assert.deepEqual(Buffer.from(await tail.arrayBuffer()), bytes.subarray(bytes.length - 50));
    const middle = await fetch(url, { headers: { range: `bytes=1000-` } });
    assert.deepEqual(Buffer.from(await middle.arrayBuffer()), bytes.subarray(1000));
    const beyond = await fetch(url, { headers: { range: `bytes=${bytes.length}-` } });
    assert.equal(beyond.status, 416);
    assert.equal(beyond.headers.get('content-range'), `bytes */${bytes.length}`);
    assert.ok(stack.upstreamCalls.includes('POST /v1/videos/tryon'));
  });

  it('GET /health names the upstream kind', async () => {
    const response = await fetch(`${stack.url}/health`);
    assert.deepEqual(await response.json(), { ok: true, upstream: 'test' });
  });
});
