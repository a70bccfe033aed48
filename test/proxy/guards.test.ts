// Every guard refusing what it should, with the documented error shape.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { HandleSigner } from '../../proxy/security/handles.js';
import {
  SECRET,
  newRequestId,
  personPhoto,
  photoHandle,
  startTryon,
  uploadPhoto,
  type Stack,
  closeAfter,
} from './stack.js';
import { STORE_KINDS, stackOn } from './stores.js';

async function expectError(response: Response, status: number, code: string): Promise<void> {
  const text = await response.text();
  assert.equal(response.status, status, text);
  const body = JSON.parse(text) as { error: { code: string; message: string; retryable: boolean } };
  assert.equal(body.error.code, code);
  assert.equal(typeof body.error.message, 'string');
  assert.ok(body.error.message.length > 5);
  assert.equal(typeof body.error.retryable, 'boolean');
  assert.deepEqual(Object.keys(body), ['error']);
}

function multipart(field: string, bytes: Uint8Array, type: string, name = 'x.bin'): FormData {
  const form = new FormData();
  form.append(field, new Blob([bytes as BlobPart], { type }), name);
  return form;
}

for (const kind of STORE_KINDS)
  describe(`guards (${kind} store)`, () => {
    let stack: Stack;
    before(async () => {
      stack = await stackOn(kind, { proxy: { limits: { uploadBytes: 300_000 } } });
    });
    after(async () => {
      await stack.close();
    });

    describe('origins and headers', () => {
      it('answers a preflight from an allowed origin with that exact origin', async () => {
        const response = await fetch(`${stack.url}/tryons`, {
          method: 'OPTIONS',
          headers: {
            origin: 'https://shop.example',
            'access-control-request-method': 'POST',
            'access-control-request-headers': 'content-type',
          },
        });
        assert.equal(response.status, 204);
        assert.equal(response.headers.get('access-control-allow-origin'), 'https://shop.example');
        assert.match(response.headers.get('access-control-allow-methods') ?? '', /POST/);
      });

      it('refuses other origins, preflight and request, including look-alikes', async () => {
        for (const origin of [
          'https://evil.example',
          'https://shop.example.evil.example',
          'http://shop.example',
          'https://shop.example:8443',
        ]) {
          await expectError(
            await fetch(`${stack.url}/tryons`, {
              method: 'OPTIONS',
              headers: { origin, 'access-control-request-method': 'POST' },
            }),
            403,
            'origin_not_allowed',
          );
        }
        await expectError(
          await uploadPhoto(stack, undefined, { origin: 'https://evil.example' }),
          403,
          'origin_not_allowed',
        );
        await expectError(
          await fetch(`${stack.url}/products/dress-aline-indigo`, { headers: { origin: 'https://evil.example' } }),
          403,
          'origin_not_allowed',
        );
      });

      it('allows same-origin requests without CORS headers, and allowed origins with them', async () => {
        const same = await fetch(`${stack.url}/products/dress-aline-indigo`, {
          headers: { origin: new URL(stack.url).origin },
        });
        assert.equal(same.status, 200);
        assert.equal(same.headers.get('access-control-allow-origin'), null);
        const cross = await fetch(`${stack.url}/products/dress-aline-indigo`, {
          headers: { origin: 'https://shop.example' },
        });
        assert.equal(cross.status, 200);
        assert.equal(cross.headers.get('access-control-allow-origin'), 'https://shop.example');
        assert.match(cross.headers.get('vary') ?? '', /Origin/);
      });

      it('sends secure headers, a request id, and a resource policy that lets shop pages load files', async () => {
        const response = await fetch(`${stack.url}/products/dress-aline-indigo`);
        assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
        assert.equal(response.headers.get('cross-origin-resource-policy'), 'cross-origin');
        assert.match(response.headers.get('x-request-id') ?? '', /^[\w-]{8,}$/);
        assert.ok(response.headers.get('content-security-policy'));
        const missing = await fetch(`${stack.url}/nowhere`);
        await expectError(missing, 404, 'not_found');
      });
    });

    describe('photos', () => {
      it('checks the type by magic bytes: a PNG declared as text is a photo, text declared as PNG is not', async () => {
        const png = await personPhoto(400, 500, 'png');
        const accepted = await fetch(`${stack.url}/photos`, {
          method: 'POST',
          body: multipart('photo', png, 'text/plain', 'notes.txt'),
        });
        assert.equal(accepted.status, 201);
        const text = new TextEncoder().encode('hello, this is not a picture at all, just words '.repeat(20));
        await expectError(
          await fetch(`${stack.url}/photos`, { method: 'POST', body: multipart('photo', text, 'image/png', 'a.png') }),
          415,
          'unsupported_media_type',
        );
      });

      it('refuses a photo over the limit with 413, also when streamed without a length', async () => {
        const noisy = await sharp(randomBytes(700 * 700 * 3), { raw: { width: 700, height: 700, channels: 3 } })
          .png()
          .toBuffer();
        assert.ok(noisy.length > 300_000);
        await expectError(
          await fetch(`${stack.url}/photos`, { method: 'POST', body: multipart('photo', noisy, 'image/png') }),
          413,
          'file_too_large',
        );
        // Chunked: no content-length, so only the count while streaming can catch it.
        const form = new Response(multipart('photo', noisy, 'image/png'));
        const body = form.body!;
        const chunked = await fetch(`${stack.url}/photos`, {
          method: 'POST',
          body,
          headers: { 'content-type': form.headers.get('content-type')! },
          duplex: 'half',
        } as RequestInit);
        await expectError(chunked, 413, 'file_too_large');
        const before = (await stack.state()).requests['POST /v1/files'] ?? 0;
        assert.ok(before >= 1);
      });

      it('refuses a photo too small to try on, a missing field and a non-multipart body', async () => {
        const tiny = await personPhoto(100, 120, 'png');
        await expectError(
          await fetch(`${stack.url}/photos`, { method: 'POST', body: multipart('photo', tiny, 'image/png') }),
          422,
          'photo_too_small',
        );
        const tinyJpeg = await personPhoto(90, 200, 'jpeg');
        await expectError(
          await fetch(`${stack.url}/photos`, { method: 'POST', body: multipart('photo', tinyJpeg, 'image/jpeg') }),
          422,
          'photo_too_small',
        );
        const good = await personPhoto();
        await expectError(
          await fetch(`${stack.url}/photos`, { method: 'POST', body: multipart('picture', good, 'image/jpeg') }),
          400,
          'invalid_request',
        );
        await expectError(
          await fetch(`${stack.url}/photos`, {
            method: 'POST',
            body: good as BodyInit,
            headers: { 'content-type': 'image/jpeg' },
          }),
          400,
          'invalid_request',
        );
      });
    });

    describe('try-on requests', () => {
      let photo: string;
      before(async () => {
        photo = await photoHandle(stack);
      });

      it('refuses bad JSON, missing consent, a bad requestId and an unknown product', async () => {
        await expectError(
          await fetch(`${stack.url}/tryons`, {
            method: 'POST',
            body: '{nope',
            headers: { 'content-type': 'application/json' },
          }),
          400,
          'invalid_request',
        );
        await expectError(
          await startTryon(stack, { product: 'dress-aline-indigo', photo, consent: false }),
          422,
          'consent_required',
        );
        await expectError(
          await startTryon(stack, { product: 'dress-aline-indigo', photo, consent: 'yes' }),
          422,
          'consent_required',
        );
        await expectError(
          await startTryon(stack, { product: 'dress-aline-indigo', photo, requestId: 'short' }),
          422,
          'validation_failed',
        );
        await expectError(
          await startTryon(stack, { product: 'dress-aline-indigo', photo, requestId: 'has spaces in it!' }),
          422,
          'validation_failed',
        );
        await expectError(
          await startTryon(stack, { product: 'dress-aline-indigo', photo, output: 'hologram' }),
          422,
          'validation_failed',
        );
        await expectError(await startTryon(stack, { product: 'no-such-product', photo }), 404, 'unknown_product');
        await expectError(
          await fetch(`${stack.url}/tryons`, {
            method: 'POST',
            body: JSON.stringify({ consent: true, pad: 'x'.repeat(20_000) }),
            headers: { 'content-type': 'application/json' },
          }),
          413,
          'invalid_request',
        );
        // Chunked, with no length to check up front: refused once the limit is crossed.
        const big = new TextEncoder().encode(JSON.stringify({ consent: true, pad: 'x'.repeat(200_000) }));
        const chunked = new ReadableStream<Uint8Array>({
          start(controller) {
            for (let i = 0; i < big.length; i += 4096) controller.enqueue(big.subarray(i, i + 4096));
            controller.close();
          },
        });
        await expectError(
          await fetch(`${stack.url}/tryons`, {
            method: 'POST',
            body: chunked,
            headers: { 'content-type': 'application/json' },
            duplex: 'half',
          } as RequestInit),
          413,
          'invalid_request',
        );
      });

      it('refuses forged, tampered, expired and wrong-kind handles', async () => {
        const forged = (
          await new HandleSigner('a-different-secret-a-different-secret').mint(
            'photo',
            { id: 'x', fileId: 'file_x' },
            3600,
          )
        ).handle;
        await expectError(
          await startTryon(stack, { product: 'dress-aline-indigo', photo: forged }),
          404,
          'invalid_handle',
        );
        const tampered = photo.slice(0, -3) + (photo.endsWith('A') ? 'BBB' : 'AAA');
        await expectError(
          await startTryon(stack, { product: 'dress-aline-indigo', photo: tampered }),
          404,
          'invalid_handle',
        );
        const expired = (
          await new HandleSigner(SECRET).mint(
            'photo',
            { id: 'x', fileId: 'file_x' },
            0,
            Math.floor(Date.now() / 1000) - 10,
          )
        ).handle;
        await expectError(
          await startTryon(stack, { product: 'dress-aline-indigo', photo: expired }),
          401,
          'expired_handle',
        );
        // A photo handle where a try-on handle belongs, and the other way round.
        await expectError(await fetch(`${stack.url}/tryons/${photo}`), 404, 'invalid_handle');
        await expectError(await fetch(`${stack.url}/files/${photo}`), 404, 'invalid_handle');
        const started = (await (await startTryon(stack, { product: 'dress-aline-indigo', photo })).json()) as {
          tryon: string;
        };
        await expectError(
          await startTryon(stack, { product: 'dress-aline-indigo', photo: started.tryon }),
          404,
          'invalid_handle',
        );
        await expectError(await fetch(`${stack.url}/tryons/garbage`), 404, 'invalid_handle');
        const expiredTryon = (
          await new HandleSigner(SECRET).mint(
            'tryon',
            { jobId: 'job_x', product: 'p', views: ['front'], output: 'image', photoId: 'x' },
            0,
            Math.floor(Date.now() / 1000) - 1,
          )
        ).handle;
        await expectError(await fetch(`${stack.url}/tryons/${expiredTryon}`), 401, 'expired_handle');
        await expectError(await fetch(`${stack.url}/tryons/${expiredTryon}/events`), 401, 'expired_handle');
      });
    });

    describe('budgets', () => {
      it('rate-limits uploads and submits per client with 429 and Retry-After', async (t) => {
        const limited = closeAfter(t, await stackOn(kind, { proxy: { limits: { ratePerMinute: 3 } } }));
        for (let i = 0; i < 3; i++) assert.equal((await uploadPhoto(limited)).status, 201);
        const refused = await uploadPhoto(limited);
        assert.ok(Number(refused.headers.get('retry-after')) >= 1);
        await expectError(refused, 429, 'rate_limited');
        // Reads have their own, larger allowance.
        assert.equal((await fetch(`${limited.url}/products/dress-aline-indigo`)).status, 200);
      });

      it('counts clients by socket address, or by the right-most X-Forwarded-For entry only when trustProxy is set', async (t) => {
        const trusting = closeAfter(
          t,
          await stackOn(kind, { proxy: { trustProxy: true, limits: { ratePerMinute: 2 } } }),
        );
        const wary = closeAfter(t, await stackOn(kind, { proxy: { limits: { ratePerMinute: 2 } } }));
        // What a trusted proxy sends: whatever the client wrote, then the address it saw.
        const from = (ip: string, forged = '203.0.113.66') => ({ 'x-forwarded-for': `${forged}, ${ip}` });
        for (const stack of [trusting, wary]) {
          assert.equal((await uploadPhoto(stack, undefined, from('198.51.100.1'))).status, 201);
          assert.equal((await uploadPhoto(stack, undefined, from('198.51.100.1'))).status, 201);
          assert.equal((await uploadPhoto(stack, undefined, from('198.51.100.1'))).status, 429);
        }
        // Another forwarded address is another client only behind a trusted proxy.
        assert.equal((await uploadPhoto(trusting, undefined, from('198.51.100.2'))).status, 201);
        assert.equal((await uploadPhoto(wary, undefined, from('198.51.100.2'))).status, 429);
        // A new forged entry on the left is not a new client.
        assert.equal((await uploadPhoto(trusting, undefined, from('198.51.100.1', '203.0.113.99'))).status, 429);
      });

      it('caps distinct try-ons per photo; a retry with the same requestId still passes', async (t) => {
        const capped = closeAfter(t, await stackOn(kind, { proxy: { limits: { tryonsPerPhoto: 2 } } }));
        const photo = await photoHandle(capped);
        const first = newRequestId();
        assert.equal(
          (await startTryon(capped, { product: 'dress-aline-indigo', photo, requestId: first })).status,
          202,
        );
        assert.equal((await startTryon(capped, { product: 'dress-aline-indigo', photo })).status, 202);
        const refused = await startTryon(capped, { product: 'dress-aline-indigo', photo });
        await expectError(refused, 429, 'photo_limit_reached');
        assert.equal(
          (await startTryon(capped, { product: 'dress-aline-indigo', photo, requestId: first })).status,
          202,
        );
        // A new photo starts afresh.
        assert.equal(
          (await startTryon(capped, { product: 'dress-aline-indigo', photo: await photoHandle(capped) })).status,
          202,
        );
      });

      it('stops at the daily try-on budget with 503 daily_budget_reached before any upstream submit', async (t) => {
        const budget = closeAfter(t, await stackOn(kind, { proxy: { limits: { dailyTryons: 2 } } }));
        for (let i = 0; i < 2; i++)
          assert.equal(
            (await startTryon(budget, { product: 'dress-aline-indigo', photo: await photoHandle(budget) })).status,
            202,
          );
        const submitsBefore = (await budget.state()).requests['POST /v1/images/tryon'];
        const refused = await startTryon(budget, { product: 'dress-aline-indigo', photo: await photoHandle(budget) });
        assert.ok(Number(refused.headers.get('retry-after')) > 0);
        await expectError(refused, 503, 'daily_budget_reached');
        assert.equal((await budget.state()).requests['POST /v1/images/tryon'], submitsBefore);
      });
    });
  });
