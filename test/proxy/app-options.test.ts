// Options a shop may use: a lookup function instead of a catalog file, a persisted file-id cache
// (garment images uploaded once, also under concurrent first requests and across restarts),
// SSE heartbeats, and the Workers entry built from bindings.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ProductEntry } from '../../proxy/catalog/catalog.js';
import { startProxy } from '../../proxy/node.js';
import { fileIdCacheAt } from '../../proxy/node.js';
import worker from '../../proxy/worker.js';
import { createProxy } from '../../proxy/app.js';
import { startSandbox } from '../../sandbox/server.js';
import {
  startTestSandbox,
  CATALOG,
  SECRET,
  photoHandle,
  startStack,
  startTryon,
  writeAssets,
  type Stack,
  type TryonAnswer,
  closeAfter,
} from './stack.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';

describe('catalog as a function, file-id cache', () => {
  let sandbox: Awaited<ReturnType<typeof startSandbox>>;
  let assetsDir: string;
  before(async () => {
    sandbox = await startTestSandbox();
    assetsDir = await mkdtemp(join(tmpdir(), 'tryon-proxy-options-'));
    await writeAssets(assetsDir);
  });
  after(async () => {
    await sandbox.close();
    await rm(assetsDir, { recursive: true, force: true });
  });
  const garmentUploads = async () => {
    const state = (await (await fetch(`${sandbox.url}/sandbox/state`)).json()) as { requests: Record<string, number> };
    return state.requests['POST /v1/files'] ?? 0;
  };

  it('uploads a garment once under concurrent first requests, and not again after a restart', async () => {
    const asked: string[] = [];
    const lookup = async (id: string): Promise<ProductEntry | undefined> => {
      asked.push(id);
      return id === 'shop-dress'
        ? {
            id,
            mode: 'garment_to_person',
            garmentImage: 'garments/dress-indigo.png',
            garment: { category: 'dress', subtype: 'a-line' },
            views: ['front'],
            tier: 'draft',
            background: 'studio_white',
            provider: 'auto',
          }
        : undefined;
    };
    const cachePath = join(assetsDir, 'file-ids.json');
    const options = {
      apiKey: 'sk_test_a',
      baseUrl: sandbox.url,
      secret: SECRET,
      allowedOrigins: [],
      catalog: lookup,
      assetsDir,
      log: () => undefined,
      fileIdCache: fileIdCacheAt(cachePath),
    };
    // A restart: the first proxy is closed before the second starts, so each closes in its own finally.
    const first = await startProxy(options);
    try {
      const photos = await Promise.all(Array.from({ length: 4 }, () => photoHandle(first)));
      const before = await garmentUploads();
      const answers = await Promise.all(photos.map((photo) => startTryon(first, { product: 'shop-dress', photo })));
      assert.deepEqual(
        answers.map((a) => a.status),
        [202, 202, 202, 202],
      );
      assert.equal(await garmentUploads(), before + 1, 'one garment upload for four concurrent try-ons');
      assert.ok(asked.includes('shop-dress'));
      const saved = JSON.parse(await readFile(cachePath, 'utf8')) as Record<string, string>;
      assert.match(saved['garment:garments/dress-indigo.png'] ?? '', /^file_/);
      assert.equal((await fetch(`${first.url}/products/unknown-thing`)).status, 404);
    } finally {
      await first.close();
    }
    const second = await startProxy(options);
    try {
      const photo = await photoHandle(second);
      const before = await garmentUploads();
      assert.equal((await startTryon(second, { product: 'shop-dress', photo })).status, 202);
      assert.equal(await garmentUploads(), before, 'the restarted proxy reused the saved file id');
    } finally {
      await second.close();
    }
  });
});

describe('SSE heartbeat', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack({ proxy: { limits: { heartbeatMs: 60, pollIntervalMs: 5_000, streamMaxMs: 400 } } });
  });
  after(async () => {
    await stack.close();
  });

  it('sends heartbeat comments while a try-on renders and closes at streamMaxMs', async () => {
    await stack.fault({ jobOutcome: 'hold', times: 1 });
    const started = (await (
      await startTryon(stack, { product: 'dress-aline-indigo', photo: await photoHandle(stack) })
    ).json()) as TryonAnswer;
    const t0 = Date.now();
    const response = await fetch(`${stack.url}/tryons/${started.tryon}/events`);
    assert.equal(response.headers.get('content-type')?.split(';')[0], 'text/event-stream');
    const text = await response.text();
    assert.ok(Date.now() - t0 < 4000, 'closed by streamMaxMs');
    assert.match(text, /^event: status\ndata: \{"status":"(queued|processing)"/);
    assert.ok((text.match(/: heartbeat/g) ?? []).length >= 2, text);
    await stack.clearFaults();
  });
});

describe('Workers entry', () => {
  it('builds the app from bindings and serves it through fetch()', async (t) => {
    const sandbox = closeAfter(t, await startTestSandbox());
    const env = {
      TRYON_API_KEY: 'sk_test_a',
      TRYON_BASE_URL: sandbox.url,
      TRYON_PROXY_SECRET: SECRET,
      TRYON_ALLOWED_ORIGINS: 'https://shop.example',
      TRYON_CATALOG_JSON: JSON.stringify(CATALOG),
      // No Durable Objects here: a Worker serves without them in development only.
      NODE_ENV: 'development',
    };
    const health = await worker.fetch(new Request('https://proxy.example/health'), env);
    assert.deepEqual(await health.json(), { ok: true, upstream: 'test' });
    const product = await worker.fetch(
      new Request('https://proxy.example/products/saree-banarasi-red', {
        headers: { origin: 'https://shop.example' },
      }),
      env,
    );
    assert.equal(product.status, 200);
    assert.equal(product.headers.get('access-control-allow-origin'), 'https://shop.example');
    const refused = await worker.fetch(
      new Request('https://proxy.example/products/saree-banarasi-red', {
        headers: { origin: 'https://evil.example' },
      }),
      env,
    );
    assert.equal(refused.status, 403);
    // Production rules apply to Worker bindings too: refused with 503 proxy_misconfigured (not a
    // 500 per request), said in one log line.
    const said = t.mock.method(console, 'error', () => undefined);
    const unsafe = await worker.fetch(new Request('https://proxy.example/health'), {
      ...env,
      NODE_ENV: 'production',
      TRYON_ALLOWED_ORIGINS: '*',
    });
    assert.equal(unsafe.status, 503);
    assert.equal(((await unsafe.json()) as { error: { code: string } }).error.code, 'proxy_misconfigured');
    assert.equal(said.mock.callCount(), 1);
    assert.match(String(said.mock.calls[0]!.arguments[0]), /may not be \*/);
    // One Durable Object binding without the other would split the guards between two stores.
    const shopOnly = {
      idFromName: (name: string) => name,
      get: () => ({ fetch: async () => Response.json({ value: true }) }),
    };
    const half = await worker.fetch(new Request('https://proxy.example/health'), { ...env, TRYON_SHOP: shopOnly });
    assert.equal(half.status, 503);
    assert.equal(((await half.json()) as { error: { code: string } }).error.code, 'proxy_misconfigured');
    assert.equal(said.mock.callCount(), 2);
    assert.match(String(said.mock.calls[1]!.arguments[0]), /TRYON_TRYONS and TRYON_SHOP go together/);
  });
});

describe('a remembered garment file upstream no longer has', () => {
  it('is uploaded again and the try-on goes through', async (t) => {
    const sandbox = closeAfter(t, await startTestSandbox());
    const assetsDir = await mkdtemp(join(tmpdir(), 'tryon-proxy-stale-'));
    closeAfter(t, { close: () => rm(assetsDir, { recursive: true, force: true }) });
    await writeAssets(assetsDir);
    let saved: Record<string, string> = { 'garment:garments/dress-indigo.png': 'file_forgotten_long_ago' };
    const proxy = closeAfter(
      t,
      await startProxy({
        apiKey: 'sk_test_a',
        baseUrl: sandbox.url,
        secret: SECRET,
        allowedOrigins: [],
        catalog: CATALOG,
        assetsDir,
        log: () => undefined,
        fileIdCache: {
          load: async () => saved,
          save: async (map) => {
            saved = map;
          },
        },
      }),
    );
    const response = await startTryon(proxy, { product: 'dress-aline-indigo', photo: await photoHandle(proxy) });
    assert.equal(response.status, 202, await response.clone().text());
    assert.match(saved['garment:garments/dress-indigo.png'] ?? '', /^file_/);
    assert.notEqual(saved['garment:garments/dress-indigo.png'], 'file_forgotten_long_ago');
  });
});

describe('createProxy checks its options when it is created', () => {
  const options = {
    apiKey: 'sk_test_a',
    baseUrl: 'http://127.0.0.1:9',
    secret: SECRET,
    allowedOrigins: [],
    log: () => undefined,
  };

  it('refuses a catalog of image paths without readAsset, naming what is missing, never a 500 at the first try-on', () => {
    assert.throws(
      () => createProxy({ ...options, catalog: CATALOG }),
      (error: Error) =>
        /readAsset/.test(error.message) &&
        /nor assetsDir/.test(error.message) &&
        /product "saree-banarasi-red": garmentImage "garments\/banarasi-red.png" and \d+ more/.test(error.message),
    );
    // assetsDir alone only says where the images are: reading them still needs readAsset.
    assert.throws(
      () => createProxy({ ...options, catalog: CATALOG, assetsDir: '/srv/shop/assets' }),
      /no readAsset was given \(assetsDir "\/srv\/shop\/assets" only says where they are\)/,
    );
  });

  it('accepts readAsset, images given as URLs, an empty catalog and a catalog function', () => {
    assert.doesNotThrow(() => createProxy({ ...options, catalog: CATALOG, readAsset: async () => new Uint8Array() }));
    const byUrl = {
      products: {
        'url-dress': {
          mode: 'garment_to_person' as const,
          garmentImage: 'https://cdn.shop.example/dress.png',
          garment: { category: 'dress' },
        },
      },
    };
    assert.doesNotThrow(() => createProxy({ ...options, catalog: byUrl }));
    assert.doesNotThrow(() => createProxy({ ...options, catalog: { products: {} } }));
    assert.doesNotThrow(() => createProxy({ ...options, catalog: async () => undefined }));
  });
});
