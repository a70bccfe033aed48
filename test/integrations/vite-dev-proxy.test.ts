// docs/integrations/dev-server.md's Vite set-up, exactly as written there (its vite.config.ts is
// read from the page, only the proxy's port changed): Vite's dev server forwards /tryon to a real
// proxy in front of the sandbox, and a whole try-on goes through it, same-origin, the status
// stream and the picture (a URL relative to the mount, resolved against the endpoint) included.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { createServer, type ViteDevServer } from 'vite';
import { sniffPhotoType } from '../../proxy/upstream/image-signatures.js';
import {
  absolute,
  personPhoto,
  startStack,
  waitForStatus,
  type Stack,
  type StatusAnswer,
  type TryonAnswer,
} from '../proxy/stack.js';

const root = new URL('../../', import.meta.url).pathname;
const DOC = join(root, 'docs/integrations/dev-server.md');
const DOC_TARGET = 'http://127.0.0.1:8787';

describe("Vite's dev server in front of the proxy, as dev-server.md says", { timeout: 120_000 }, () => {
  let stack: Stack;
  let vite: ViteDevServer;
  let dir: string;
  let page: string;

  before(async () => {
    stack = await startStack();
    const doc = await readFile(DOC, 'utf8');
    const config = [...doc.matchAll(/```ts\n([\s\S]*?)```/g)]
      .map((m) => m[1]!)
      .find((block) => block.includes('// vite.config.ts'));
    assert.ok(config?.includes(`target: '${DOC_TARGET}'`), "the doc's vite.config.ts forwards to the proxy's port");
    // Inside the project, so the config's `import … from 'vite'` resolves as it does in an app.
    dir = join(root, '.cache', `vite-dev-proxy-${randomUUID()}`);
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'vite.config.ts'), config!.replace(DOC_TARGET, new URL(stack.url).origin));
    await writeFile(
      join(dir, 'index.html'),
      '<!doctype html><title>shop</title><tryon-button product="dress-aline-indigo"></tryon-button>',
    );
    vite = await createServer({
      root: dir,
      configFile: join(dir, 'vite.config.ts'),
      logLevel: 'silent',
      server: { host: '127.0.0.1', port: 0 },
    });
    await vite.listen();
    page = vite.resolvedUrls!.local[0]!.replace(/\/$/, '');
  });
  after(async () => {
    await vite?.close();
    await stack?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('makes a whole try-on through /tryon, same-origin, and its picture loads through the dev server', async () => {
    const endpoint = { url: `${page}/tryon` };
    const origin = { origin: page };
    assert.equal((await fetch(page)).status, 200, 'the dev server serves the page');
    const form = new FormData();
    form.append('photo', new Blob([(await personPhoto()) as BlobPart], { type: 'image/jpeg' }), 'me.jpg');
    const uploaded = await fetch(`${endpoint.url}/photos`, { method: 'POST', body: form, headers: origin });
    assert.equal(uploaded.status, 201, await uploaded.clone().text());
    const { photo } = (await uploaded.json()) as { photo: string };
    const started = await fetch(`${endpoint.url}/tryons`, {
      method: 'POST',
      headers: { ...origin, 'content-type': 'application/json' },
      body: JSON.stringify({
        product: 'dress-aline-indigo',
        photo,
        consent: true,
        requestId: `vite_${randomUUID().slice(0, 8)}`,
      }),
    });
    assert.equal(started.status, 202, await started.clone().text());
    const { tryon } = (await started.json()) as TryonAnswer;
    const done = await waitForStatus(endpoint, tryon, (s) => s.status === 'succeeded');
    // The status stream passes through the dev server too.
    const events = await fetch(`${endpoint.url}/tryons/${tryon}/events`);
    assert.equal(events.headers.get('content-type')?.split(';')[0], 'text/event-stream');
    const streamed = JSON.parse(/^data: (.*)$/m.exec(await events.text())![1]!) as StatusAnswer;
    assert.equal(streamed.status, 'succeeded');
    const picture = absolute(endpoint, done.outputs[0]!.url);
    assert.ok(picture.startsWith(`${page}/tryon/files/`), picture);
    const file = await fetch(picture);
    assert.equal(file.status, 200);
    assert.ok(sniffPhotoType(new Uint8Array(await file.arrayBuffer()).subarray(0, 64)), 'an image');
  });
});
