// The proxy wired as docs/integrations/shopify.md says, behind a stand-in for Shopify's App Proxy
// (it forwards /apps/tryon/* to the proxy's URL with shop, path_prefix, timestamp and the
// HMAC signature added, as Shopify does), against the real sandbox: a whole try-on through
// the store's domain, and direct calls that skip Shopify refused.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hono } from 'hono';
import sharp from 'sharp';
import { startSandbox } from '../../demo/sandbox/server.js';
import { createProxy } from '../../proxy/app.js';
import { signAppProxyParams, verifyShopifyAppProxy } from '../../proxy/middleware/shopify-app-proxy.js';

const APP_SECRET = 'shpss_app_secret_for_tests';
const PRODUCT = 'saree-banarasi-red';

let work: string;
let closeSandbox: () => Promise<void>;
/** The shop's proxy server as deployed: the proxy at /tryon behind the signature check. */
let proxyServer: Hono;
/** Requests as the browser makes them on the store's domain. */
let store: (path: string, init?: RequestInit) => Promise<Response>;

before(async () => {
  work = await mkdtemp(join(tmpdir(), 'tryon-app-proxy-'));
  await mkdir(join(work, 'garments'), { recursive: true });
  await writeFile(join(work, 'garments/red.png'),
    await sharp({ create: { width: 300, height: 400, channels: 4, background: { r: 180, g: 20, b: 40, alpha: 1 } } }).png().toBuffer());
  const sandbox = await startSandbox({ port: 0, hostname: '127.0.0.1', speed: 0, keys: { sk_test_shop: 'ws_shop' }, log: () => {} });
  closeSandbox = sandbox.close;

  const tryon = new Hono();
  tryon.use('*', verifyShopifyAppProxy({ secret: APP_SECRET }));
  tryon.route('/', createProxy({
    apiKey: 'sk_test_shop',
    baseUrl: sandbox.url,
    secret: 'app-proxy-test-secret-0123456789abcdef',
    allowedOrigins: ['https://saree-house.example'],
    catalog: { products: { [PRODUCT]: { mode: 'garment_to_person', garmentImage: 'garments/red.png', garment: { category: 'saree' }, name: 'Red saree' } } },
    assetsDir: work,
    readAsset: async (path) => new Uint8Array(await readFile(path)),
    publicUrl: '/apps/tryon',
    log: () => {},
  }));
  proxyServer = new Hono().route('/tryon', tryon);

  // Shopify's side: /apps/tryon/<rest> → <proxy URL>/tryon/<rest>?<query + signed parameters>.
  store = async (path, init) => {
    const url = new URL(path, 'https://saree-house.example');
    assert.ok(url.pathname.startsWith('/apps/tryon/'), `the browser stays under the App Proxy path: ${url.pathname}`);
    const params = new URLSearchParams(url.search);
    params.set('shop', 'saree-house.myshopify.com');
    params.set('logged_in_customer_id', '');
    params.set('path_prefix', '/apps/tryon');
    params.set('timestamp', String(Math.floor(Date.now() / 1000)));
    params.set('signature', await signAppProxyParams(params, APP_SECRET));
    const forwarded = `https://tryon-proxy.example/tryon/${url.pathname.slice('/apps/tryon/'.length)}?${params}`;
    return proxyServer.fetch(new Request(forwarded, init));
  };
});

after(async () => {
  await closeSandbox?.();
  await rm(work, { recursive: true, force: true });
});

async function shopperPhoto(): Promise<Blob> {
  const jpeg = await sharp({ create: { width: 600, height: 800, channels: 3, background: { r: 200, g: 170, b: 150 } } })
    .composite([{ input: Buffer.from('<svg width="600" height="800"><rect x="200" y="250" width="200" height="450" fill="#345"/></svg>') }])
    .jpeg().toBuffer();
  return new Blob([new Uint8Array(jpeg)], { type: 'image/jpeg' });
}

describe('proxy behind the Shopify App Proxy', () => {
  test('a whole try-on through /apps/tryon: product, photo, try-on, result file under /apps/tryon', async () => {
    const product = await store(`/apps/tryon/products/${PRODUCT}`);
    assert.equal(product.status, 200, await product.clone().text());
    assert.equal(((await product.json()) as { product: string }).product, PRODUCT);

    const form = new FormData();
    form.set('photo', await shopperPhoto(), 'me.jpg');
    const uploaded = await store('/apps/tryon/photos', { method: 'POST', body: form });
    assert.equal(uploaded.status, 201, await uploaded.clone().text());
    const { photo } = (await uploaded.json()) as { photo: string };

    const started = await store('/apps/tryon/tryons', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ product: PRODUCT, photo, consent: true, requestId: 'shopify-request-0001' }),
    });
    assert.equal(started.status, 202, await started.clone().text());
    const { tryon } = (await started.json()) as { tryon: string };

    let status: { status: string; outputs: { url: string; type: string }[] } = { status: 'queued', outputs: [] };
    const deadline = Date.now() + 20_000;
    while (status.status !== 'succeeded' && status.status !== 'failed' && Date.now() < deadline) {
      const answer = await store(`/apps/tryon/tryons/${tryon}`);
      assert.equal(answer.status, 200);
      status = (await answer.json()) as typeof status;
      if (status.status !== 'succeeded') await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.equal(status.status, 'succeeded');
    const [output] = status.outputs;
    assert.ok(output);
    assert.match(output.url, /^\/apps\/tryon\/files\/v1\.file\./, 'output URLs go back through the App Proxy');

    const file = await store(output.url);
    assert.equal(file.status, 200);
    assert.match(file.headers.get('content-type') ?? '', /^image\//);
    const meta = await sharp(Buffer.from(await file.arrayBuffer())).metadata();
    assert.ok((meta.width ?? 0) >= 256);
  });

  test('calling the proxy directly, without Shopify\'s signature, is refused before any route', async () => {
    for (const path of [`/tryon/products/${PRODUCT}`, '/tryon/health']) {
      const response = await proxyServer.fetch(new Request(`https://tryon-proxy.example${path}`));
      assert.equal(response.status, 401, path);
      assert.equal(((await response.json()) as { error: { code: string } }).error.code, 'invalid_signature');
    }
    const forged = await proxyServer.fetch(new Request(`https://tryon-proxy.example/tryon/photos?shop=x.myshopify.com&timestamp=${Math.floor(Date.now() / 1000)}&signature=${'0'.repeat(64)}`, {
      method: 'POST', body: new FormData(),
    }));
    assert.equal(forged.status, 401);
  });

  test('the service\'s webhooks still reach the proxy (exempt from the App Proxy check)', async () => {
    const response = await proxyServer.fetch(new Request('https://tryon-proxy.example/tryon/webhooks', {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"type":"job.succeeded"}',
    }));
    // Whatever the proxy's own webhook route answers (it has no webhook secret here), it is not
    // the App Proxy check's refusal.
    const text = await response.text();
    assert.doesNotMatch(text, /App Proxy/, `${response.status} ${text}`);
  });
});
