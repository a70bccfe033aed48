// The proxy wired as docs/integrations/shopify.md says, behind a stand-in for Shopify's App Proxy
// (it forwards /apps/tryon/* to the proxy's URL with shop, logged_in_customer_id, path_prefix,
// timestamp and the HMAC signature added and the shopper's address in X-Forwarded-For, as Shopify
// does), against the real sandbox: a whole try-on through the store's domain, each shopper with
// their own allowance, and direct calls that skip Shopify (or replay what it signed) refused or
// held to the allowance they already had.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hono } from 'hono';
import sharp from 'sharp';
import { startSandbox } from '../../sandbox/server.js';
import { createProxy } from '../../proxy/app.js';
import { serve } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { AddressInfo } from 'node:net';
import { signAppProxyParams, verifyShopifyAppProxy } from '../../proxy/middleware/shopify-app-proxy.js';
import { CATALOG, SECRET, personPhoto, startStack, type Stack } from '../proxy/stack.js';
import { describeConfig, loadConfig, proxyOptionsFrom } from '../../proxy/config/config.js';
import { workerFor } from '../../proxy/worker.js';
import { photoForm, send, type WireAnswer } from '../proxy/wire.js';

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
  await writeFile(
    join(work, 'garments/red.png'),
    await sharp({ create: { width: 300, height: 400, channels: 4, background: { r: 180, g: 20, b: 40, alpha: 1 } } })
      .png()
      .toBuffer(),
  );
  const sandbox = await startSandbox({
    port: 0,
    hostname: '127.0.0.1',
    speed: 0,
    keys: { sk_test_shop: 'ws_shop' },
    log: () => {},
  });
  closeSandbox = sandbox.close;

  const tryon = new Hono();
  tryon.use('*', verifyShopifyAppProxy({ secret: APP_SECRET }));
  tryon.route(
    '/',
    createProxy({
      apiKey: 'sk_test_shop',
      baseUrl: sandbox.url,
      secret: 'app-proxy-test-secret-0123456789abcdef',
      allowedOrigins: ['https://saree-house.example'],
      catalog: {
        products: {
          [PRODUCT]: {
            mode: 'garment_to_person',
            garmentImage: 'garments/red.png',
            garment: { category: 'saree' },
            name: 'Red saree',
          },
        },
      },
      assetsDir: work,
      readAsset: async (path) => new Uint8Array(await readFile(path)),
      publicUrl: '/apps/tryon',
      log: () => {},
    }),
  );
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
    .composite([
      {
        input: Buffer.from(
          '<svg width="600" height="800"><rect x="200" y="250" width="200" height="450" fill="#345"/></svg>',
        ),
      },
    ])
    .jpeg()
    .toBuffer();
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

  test("calling the proxy directly, without Shopify's signature, is refused before any route", async () => {
    for (const path of [`/tryon/products/${PRODUCT}`, '/tryon/health']) {
      const response = await proxyServer.fetch(new Request(`https://tryon-proxy.example${path}`));
      assert.equal(response.status, 401, path);
      assert.equal(((await response.json()) as { error: { code: string } }).error.code, 'invalid_signature');
    }
    const forged = await proxyServer.fetch(
      new Request(
        `https://tryon-proxy.example/tryon/photos?shop=x.myshopify.com&timestamp=${Math.floor(Date.now() / 1000)}&signature=${'0'.repeat(64)}`,
        {
          method: 'POST',
          body: new FormData(),
        },
      ),
    );
    assert.equal(forged.status, 401);
  });

  test("only the proxy's own POST …/webhooks skips the check, not any path ending in /webhooks", async () => {
    for (const [method, path] of [
      ['POST', '/tryon/tryons/webhooks'],
      ['POST', '/tryon/x/webhooks'],
      ['GET', '/tryon/webhooks'],
    ] as const) {
      const response = await proxyServer.fetch(
        new Request(`https://tryon-proxy.example${path}`, {
          method,
          ...(method === 'POST' ? { headers: { 'Content-Type': 'application/json' }, body: '{}' } : {}),
        }),
      );
      assert.equal(response.status, 401, `${method} ${path}`);
      assert.equal(((await response.json()) as { error: { code: string } }).error.code, 'invalid_signature');
    }
  });

  test("the service's webhooks still reach the proxy (exempt from the App Proxy check)", async () => {
    const response = await proxyServer.fetch(
      new Request('https://tryon-proxy.example/tryon/webhooks', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: '{"type":"job.succeeded"}',
      }),
    );
    // Whatever the proxy's own webhook route answers (it has no webhook secret here), it is not
    // the App Proxy check's refusal.
    const text = await response.text();
    assert.doesNotMatch(text, /App Proxy/, `${response.status} ${text}`);
  });
});

/**
 * Shopify's side, on loopback: a shopper's request to /apps/tryon/<rest> goes to <proxy>/<rest>
 * with the page's query and the signed parameters, the shopper's socket address in
 * X-Forwarded-For and cookies stripped. `x-test-customer` stands for the login session Shopify
 * knows the customer by. Every forwarded query is kept in `forwarded`, as a log would keep it.
 * With `appends`, Shopify's parameters are appended after the page's own query rather than
 * replacing a parameter of the same name the page sent, and all of it is signed.
 */
async function startAppProxy(
  proxyUrl: string,
  { appends = false } = {},
): Promise<{ url: string; forwarded: string[]; close(): Promise<void> }> {
  const forwarded: string[] = [];
  const server = serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch: async (request, env) => {
      const shopper = getConnInfo({ env } as never).remote.address!;
      const url = new URL(request.url);
      const params = new URLSearchParams(url.search);
      const add = (name: string, value: string) => (appends ? params.append(name, value) : params.set(name, value));
      add('shop', 'saree-house.myshopify.com');
      add('logged_in_customer_id', request.headers.get('x-test-customer') ?? '');
      add('path_prefix', '/apps/tryon');
      add('timestamp', String(Math.floor(Date.now() / 1000)));
      params.set('signature', await signAppProxyParams(params, APP_SECRET));
      forwarded.push(params.toString());
      const headers = new Headers(request.headers);
      for (const name of ['cookie', 'x-test-customer', 'host', 'connection', 'content-length']) headers.delete(name);
      headers.set('x-forwarded-for', shopper);
      headers.set('x-forwarded-host', url.host);
      const target = `${proxyUrl}/${url.pathname.replace(/^\/apps\/tryon\/?/, '')}?${params}`;
      const answer = await fetch(target, {
        method: request.method,
        headers,
        redirect: 'manual',
        ...(request.body ? { body: request.body, duplex: 'half' } : {}),
      } as RequestInit);
      return new Response(answer.body, { status: answer.status, headers: answer.headers });
    },
  });
  const port = await new Promise<number>((resolve) =>
    server.once('listening', () => resolve((server.address() as AddressInfo).port)),
  );
  return {
    url: `http://127.0.0.1:${port}/apps/tryon`,
    forwarded,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

describe('who the shopper is behind the App Proxy (TRYON_SHOPIFY_APP_SECRET)', () => {
  const CAP = 2;
  const PER_SIGNATURE = 2;
  let stack: Stack;
  let shopify: Awaited<ReturnType<typeof startAppProxy>>;
  let form: { body: Uint8Array; contentType: string };

  before(async () => {
    stack = await startStack({
      proxy: {
        shopifyAppProxy: { secret: APP_SECRET, clientsPerSignature: PER_SIGNATURE },
        limits: {
          clientDailyTryons: CAP,
          ratePerMinute: 200,
          readsPerMinute: 200,
          tryonsPerPhoto: 100,
          dailyTryons: 500,
          dailyCredits: 10_000,
        },
      },
    });
    shopify = await startAppProxy(stack.url);
    form = await photoForm(await personPhoto());
  });
  after(async () => {
    await shopify?.close();
    await stack?.close();
  });

  const origin = { origin: 'https://shop.example' };
  const upload = (url: string, from: string, headers: Record<string, string> = {}) =>
    send(url, {
      from,
      method: 'POST',
      headers: { ...origin, 'content-type': form.contentType, ...headers },
      body: form.body,
    });
  let requests = 0;
  const tryOn = (url: string, from: string, photo: string, headers: Record<string, string> = {}) =>
    send(url, {
      from,
      method: 'POST',
      headers: { ...origin, 'content-type': 'application/json', ...headers },
      body: JSON.stringify({
        product: 'dress-aline-indigo',
        photo,
        consent: true,
        requestId: `app-proxy-${Date.now()}-${requests++}`,
      }),
    });
  const photoOf = (answer: WireAnswer) => {
    assert.equal(answer.status, 201, answer.text);
    return answer.json<{ photo: string }>().photo;
  };
  const code = (answer: WireAnswer) => answer.json<{ error?: { code: string } }>().error?.code;

  test('four shoppers (two guests, two customers on one address) each get their own daily cap', async () => {
    const shoppers: { from: string; headers: Record<string, string> }[] = [
      { from: '127.0.0.2', headers: {} },
      { from: '127.0.0.3', headers: {} },
      { from: '127.0.0.4', headers: { 'x-test-customer': '1001' } },
      { from: '127.0.0.4', headers: { 'x-test-customer': '1002' } },
    ];
    for (const shopper of shoppers) {
      const photo = photoOf(await upload(`${shopify.url}/photos`, shopper.from, shopper.headers));
      for (let i = 0; i < CAP; i++) {
        const started = await tryOn(`${shopify.url}/tryons`, shopper.from, photo, shopper.headers);
        assert.equal(
          started.status,
          202,
          `${shopper.from} ${JSON.stringify(shopper.headers)} try-on ${i + 1}: ${started.text}`,
        );
      }
    }
    // The cap still holds for each of them.
    const photo = photoOf(await upload(`${shopify.url}/photos`, '127.0.0.2'));
    const over = await tryOn(`${shopify.url}/tryons`, '127.0.0.2', photo);
    assert.equal(over.status, 429, over.text);
    assert.equal(code(over), 'daily_limit_reached');
  });

  test('requests that did not come through Shopify are refused: unsigned, forged, stale', async () => {
    const direct = await upload(`${stack.url}/photos`, '127.0.0.9', { 'x-forwarded-for': '198.51.100.1' });
    assert.equal(direct.status, 401, direct.text);
    assert.equal(code(direct), 'invalid_signature');
    const forged = await send(
      `${stack.url}/products/dress-aline-indigo?shop=saree-house.myshopify.com&timestamp=${Math.floor(Date.now() / 1000)}&signature=${'0'.repeat(64)}`,
      { from: '127.0.0.9' },
    );
    assert.equal(forged.status, 401);
    const old = new URLSearchParams({
      shop: 'saree-house.myshopify.com',
      logged_in_customer_id: '',
      path_prefix: '/apps/tryon',
      timestamp: String(Math.floor(Date.now() / 1000) - 400),
    });
    old.set('signature', await signAppProxyParams(old, APP_SECRET));
    const stale = await send(`${stack.url}/products/dress-aline-indigo?${old}`, { from: '127.0.0.9' });
    assert.equal(stale.status, 401);
    assert.equal(stale.json<{ error: { retryable: boolean } }>().error.retryable, true);
  });

  test('a captured guest query replayed straight to the proxy with forged addresses gets no fresh allowance per request', async () => {
    // A guest's request whose signature nobody else shares (its own query), then captured.
    assert.equal(
      (await send(`${shopify.url}/products/dress-aline-indigo?v=captured`, { from: '127.0.0.6', headers: origin }))
        .status,
      200,
    );
    const captured = shopify.forwarded.find((query) => query.includes('v=captured'))!;
    const forging = (i: number) => ({
      'x-forwarded-for': `198.51.100.${i}`,
      host: `forged-${i}.example`,
      'x-forwarded-host': `forged-${i}.example`,
    });
    const photo = photoOf(await upload(`${stack.url}/photos?${captured}`, '127.0.0.9', forging(0)));
    let accepted = 0;
    const refusals = new Set<string | undefined>();
    for (let i = 0; i < 8; i++) {
      for (let j = 0; j < CAP; j++) {
        const answer = await tryOn(`${stack.url}/tryons?${captured}`, '127.0.0.9', photo, forging(i));
        if (answer.status === 202) accepted++;
        else refusals.add(code(answer));
      }
    }
    // The signature vouched for the real guest and PER_SIGNATURE − 1 more addresses; every other
    // forged address counts against the replayer's own connection: 16 attempts, not 16 buckets.
    assert.equal(accepted, (PER_SIGNATURE - 1) * CAP + CAP);
    assert.deepEqual([...refusals], ['daily_limit_reached']);
    // The real guest behind that signature is untouched by the replay.
    const own = photoOf(await upload(`${shopify.url}/photos`, '127.0.0.6'));
    assert.equal((await tryOn(`${shopify.url}/tryons`, '127.0.0.6', own)).status, 202);
  });

  test("a shopper's own logged_in_customer_id (or shop, path_prefix, timestamp) beside Shopify's is refused, never believed", async (t) => {
    // Were Shopify to append its parameters after the page's query, the first of two would be the
    // shopper's, and both are signed: a guest could name any customer, a fresh cap per request or
    // a real customer's cap used up.
    const appending = await startAppProxy(stack.url, { appends: true });
    t.after(() => appending.close());
    const guest = '127.0.0.8';
    assert.equal(
      (await send(`${appending.url}/products/dress-aline-indigo`, { from: guest, headers: origin })).status,
      200,
      'an ordinary signed request still passes',
    );
    const chosen = [
      'logged_in_customer_id=3003',
      'logged_in_customer_id=',
      'shop=another-shop.myshopify.com',
      'path_prefix=%2Fapps%2Fother',
      `timestamp=${Math.floor(Date.now() / 1000)}`,
    ];
    const photo = photoOf(await upload(`${appending.url}/photos`, guest));
    for (const query of chosen) {
      for (const headers of [origin, { ...origin, 'x-test-customer': '3004' }]) {
        const read = await send(`${appending.url}/products/dress-aline-indigo?${query}`, { from: guest, headers });
        assert.equal(read.status, 401, `${query}: ${read.text}`);
        assert.equal(code(read), 'invalid_signature');
        const uploaded = await upload(`${appending.url}/photos?${query}`, guest, headers);
        assert.equal(uploaded.status, 401, `${query}: ${uploaded.text}`);
        const started = await tryOn(`${appending.url}/tryons?${query}`, guest, photo, headers);
        assert.equal(started.status, 401, `${query}: ${started.text}`);
      }
    }
    // Customer 3003's own allowance is whole: a guest never spent it.
    const own = photoOf(await upload(`${shopify.url}/photos`, '127.0.0.5', { 'x-test-customer': '3003' }));
    for (let i = 0; i < CAP; i++)
      assert.equal((await tryOn(`${shopify.url}/tryons`, '127.0.0.5', own, { 'x-test-customer': '3003' })).status, 202);
  });

  test('a captured customer query replayed with forged addresses is only ever that customer', async () => {
    await send(`${shopify.url}/products/dress-aline-indigo?v=customer`, {
      from: '127.0.0.7',
      headers: { ...origin, 'x-test-customer': '2001' },
    });
    const captured = shopify.forwarded.find((query) => query.includes('v=customer'))!;
    const photo = photoOf(
      await upload(`${stack.url}/photos?${captured}`, '127.0.0.9', { 'x-forwarded-for': '198.51.100.50' }),
    );
    const answers: number[] = [];
    for (let i = 0; i < 5; i++)
      answers.push(
        (
          await tryOn(`${stack.url}/tryons?${captured}`, '127.0.0.9', photo, {
            'x-forwarded-for': `198.51.100.${60 + i}`,
          })
        ).status,
      );
    assert.deepEqual(answers, [202, 202, 429, 429, 429]);
  });
});

describe('TRYON_SHOPIFY_APP_SECRET switches the App Proxy check on', () => {
  const env = {
    TRYON_API_KEY: 'sk_test_a',
    TRYON_BASE_URL: 'http://127.0.0.1:9',
    TRYON_PROXY_SECRET: SECRET,
    TRYON_ALLOWED_ORIGINS: 'https://shop.example',
    TRYON_SHOPIFY_APP_SECRET: APP_SECRET,
  };
  const signed = async (path: string) => {
    const params = new URLSearchParams({
      shop: 'saree-house.myshopify.com',
      logged_in_customer_id: '',
      path_prefix: '/apps/tryon',
      timestamp: String(Math.floor(Date.now() / 1000)),
    });
    params.set('signature', await signAppProxyParams(params, APP_SECRET));
    return `${path}?${params}`;
  };

  test('in the bin: the configuration carries it to createProxy, and a start-up line says so', () => {
    assert.deepEqual(proxyOptionsFrom(loadConfig(env)).shopifyAppProxy, { secret: APP_SECRET });
    assert.match(describeConfig(loadConfig(env)), /Shopify App Proxy signature required/);
    assert.doesNotMatch(describeConfig(loadConfig(env)), new RegExp(APP_SECRET));
    assert.equal(proxyOptionsFrom(loadConfig({ ...env, TRYON_SHOPIFY_APP_SECRET: '' })).shopifyAppProxy, undefined);
    assert.throws(() => loadConfig({ ...env, TRYON_SHOPIFY_APP_SECRET: 'short' }), /TRYON_SHOPIFY_APP_SECRET/);
  });

  test('in the Worker, under the same binding name: unsigned refused, signed served', async () => {
    const worker = workerFor({ catalog: CATALOG });
    const headers = { 'cf-connecting-ip': '198.51.100.7' };
    // No Durable Objects here: a Worker serves without them only when bound as development.
    const workerEnv = { ...env, NODE_ENV: 'development' };
    const unsigned = await worker.fetch(
      new Request('https://tryon.example/products/dress-aline-indigo', { headers }),
      workerEnv,
    );
    assert.equal(unsigned.status, 401);
    assert.equal(((await unsigned.json()) as { error: { code: string } }).error.code, 'invalid_signature');
    const ok = await worker.fetch(
      new Request(`https://tryon.example${await signed('/products/dress-aline-indigo')}`, { headers }),
      workerEnv,
    );
    assert.equal(ok.status, 200, await ok.clone().text());
    const off = await worker.fetch(new Request('https://tryon.example/products/dress-aline-indigo', { headers }), {
      ...workerEnv,
      TRYON_SHOPIFY_APP_SECRET: '',
    });
    assert.equal(off.status, 200);
  });

  test('mounted under /tryon, only POST /tryon/webhooks skips the check', async () => {
    const server = new Hono().route(
      '/tryon',
      createProxy({
        ...proxyOptionsFrom(loadConfig(env)),
        apiKey: 'sk_test_a',
        baseUrl: 'http://127.0.0.1:9',
        catalog: CATALOG,
        readAsset: async () => new Uint8Array(),
        clientAddress: () => '198.51.100.7',
        log: () => undefined,
      }),
    );
    const post = (path: string) =>
      server.fetch(
        new Request(`https://tryon.example${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{}',
        }),
      );
    // The webhook route answers for itself (here: webhooks are off); it is not the App Proxy's refusal.
    assert.doesNotMatch(await (await post('/tryon/webhooks')).text(), /App Proxy/);
    for (const path of ['/tryon/x/webhooks', '/tryon/tryons/webhooks']) {
      const answer = await post(path);
      assert.equal(answer.status, 401, path);
      assert.match(await answer.text(), /App Proxy/, path);
    }
  });
});
