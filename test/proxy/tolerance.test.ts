// An upstream that differs from the sandbox in ways the API document leaves open: states it
// does not name, outputs wrapped differently and listed only a moment after "succeeded".
// Served by a small Hono app over the proxy's fetch option.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Hono } from 'hono';
import { createProxy } from '../../proxy/app.js';
import { CATALOG, SECRET } from './stack.js';

function oddUpstream() {
  const app = new Hono();
  let polls = 0;
  let outputLists = 0;
  app.post('/v1/files', (c) => c.json({ file: { id: 'file_person' } }, 201));
  app.post('/v1/images/tryon', (c) => c.json({ job: { id: 'job_odd', status: 'pending', eta: 3 } }, 202));
  app.get('/v1/jobs/:id', (c) => {
    polls += 1;
    const status = polls < 2 ? 'rendering' : polls < 3 ? 'upscaling' : 'completed';
    return c.json({ id: c.req.param('id'), status, progress: polls * 20 });
  });
  app.get('/v1/images/:id/outputs', (c) => {
    outputLists += 1;
    // The first listing after completion is still empty.
    return c.json(
      outputLists < 2
        ? { items: [] }
        : { items: [{ file: { id: 'file_out', content_type: 'image/png' }, view: 'front' }] },
    );
  });
  app.get('/v1/files/:id/content', (c) =>
    c.body(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]), 200, { 'content-type': 'image/png' }),
  );
  return app;
}

describe('tolerance of an upstream the document leaves open', () => {
  it('maps unnamed states, reads wrapped records, and waits for outputs before saying succeeded', async () => {
    const upstream = oddUpstream();
    const proxy = createProxy({
      apiKey: 'sk_test_odd',
      baseUrl: 'http://upstream.invalid',
      secret: SECRET,
      allowedOrigins: [],
      catalog: CATALOG,
      log: () => undefined,
      limits: { pollIntervalMs: 0 },
      fetch: async (input, init) => upstream.fetch(new Request(input, init)),
      readAsset: async () => new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...new Array(40).fill(0)]),
    });
    const form = new FormData();
    const png = new Uint8Array(64);
    png.set([
      0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 2, 0, 0, 0, 3, 0,
    ]);
    form.append('photo', new Blob([png]), 'p.png');
    const upload = await proxy.request('/photos', { method: 'POST', body: form });
    assert.equal(upload.status, 201, await upload.clone().text());
    const { photo } = (await upload.json()) as { photo: string };
    const started = await proxy.request('/tryons', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ product: 'dress-aline-indigo', photo, consent: true, requestId: 'tolerance-0001' }),
    });
    assert.equal(started.status, 202);
    const { tryon, status } = (await started.json()) as { tryon: string; status: string };
    assert.equal(status, 'queued');
    const seen: string[] = [];
    let last: { status: string; outputs: { url: string; contentType?: string }[] } | undefined;
    for (let i = 0; i < 6; i++) {
      last = (await (await proxy.request(`/tryons/${tryon}`)).json()) as typeof last;
      seen.push(`${last!.status}:${last!.outputs.length}`);
    }
    // rendering, upscaling → processing; completed but not yet listed → still processing.
    assert.deepEqual(seen.slice(0, 4), ['processing:0', 'processing:0', 'processing:0', 'succeeded:1']);
    assert.equal(last!.outputs[0]!.contentType, 'image/png');
    const file = await proxy.request(`/${last!.outputs[0]!.url}`);
    assert.equal(file.status, 200);
    assert.equal(file.headers.get('content-type'), 'image/png');
  });
});
