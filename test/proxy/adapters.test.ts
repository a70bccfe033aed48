// The proxy's ready-made adapters: createNodeHandler (tryon-proxy/node) under Node's own http, the
// Next.js route handlers (tryon-proxy/next) called as Next calls them, each made on its first
// request; the client address each reads; and defineCatalog. Whole try-ons through Express and a
// built Next app are in test/integrations/bundlers.test.ts.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CatalogError } from '../../proxy/catalog/catalog.js';
import { createNodeHandler, defineCatalog } from '../../proxy/node.js';
import { createNextPagesHandler, createNextRouteHandlers, platformClientAddress } from '../../proxy/next.js';
import type { ProxyOptions } from '../../proxy/app.js';
import Fastify from 'fastify';
import { CATALOG, SECRET, personPhoto, photoHandle, startTestSandbox, writeAssets } from './stack.js';

let sandbox: Awaited<ReturnType<typeof startTestSandbox>>;
let assetsDir: string;
const logged: Record<string, unknown>[] = [];

const options = (): ProxyOptions => ({
  apiKey: 'sk_test_a',
  baseUrl: sandbox.url,
  secret: SECRET,
  allowedOrigins: [],
  catalog: CATALOG,
  assetsDir,
  mode: 'production',
  log: (entry) => logged.push(entry),
});

before(async () => {
  sandbox = await startTestSandbox();
  assetsDir = await mkdtemp(join(tmpdir(), 'tryon-adapters-'));
  await writeAssets(assetsDir);
});
after(async () => {
  await sandbox.close();
  await rm(assetsDir, { recursive: true, force: true });
});

/** Serves `listener` on a free loopback port for the test's length. */
async function listen(listener: Parameters<typeof createServer>[1]): Promise<{ url: string; server: Server }> {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, server };
}

describe('createNodeHandler (tryon-proxy/node)', () => {
  it('serves the proxy under a base path on Node http, made on the first request, the client from the socket', async () => {
    let made = 0;
    const handler = createNodeHandler(
      () => {
        made += 1;
        return options();
      },
      { basePath: '/tryon' },
    );
    assert.equal(made, 0, 'nothing is made before a request');
    const { url, server } = await listen((request, response) => void handler(request, response));
    try {
      const health = await fetch(`${url}/tryon/health`);
      assert.equal(health.status, 200, await health.clone().text());
      const product = await fetch(`${url}/tryon/products/dress-aline-indigo`);
      assert.equal(product.status, 200, await product.clone().text());
      assert.equal(((await product.json()) as { product: string }).product, 'dress-aline-indigo');
      assert.equal(made, 1, 'made once, on the first request');
      // In production an unknown client is refused: a 200 means the socket's address was read.
      assert.ok(!logged.some((entry) => entry['event'] === 'client_unknown'), JSON.stringify(logged));
    } finally {
      server.close();
    }
  });

  it('answers 503 proxy_misconfigured while the proxy cannot be made, and is made once it can', async () => {
    let key = '';
    const handler = createNodeHandler(() => ({ ...options(), apiKey: key }));
    const { url, server } = await listen((request, response) => void handler(request, response));
    try {
      const refused = await fetch(`${url}/health`);
      assert.equal(refused.status, 503);
      assert.equal(((await refused.json()) as { error: { code: string } }).error.code, 'proxy_misconfigured');
      key = 'sk_test_a';
      assert.equal((await fetch(`${url}/health`)).status, 200, 'tried again at the next request');
    } finally {
      server.close();
    }
  });
});

describe('createNodeHandler under Fastify', () => {
  it('serves the proxy from a plugin that parses no body, a photo upload included', async () => {
    const handler = createNodeHandler(options, { basePath: '/tryon' });
    const fastify = Fastify();
    await fastify.register(async (scope) => {
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', (_request, _payload, done) => done(null));
      scope.all('/tryon/*', async (request, reply) => {
        reply.hijack();
        await handler(request.raw, reply.raw);
      });
    });
    const url = await fastify.listen({ port: 0, host: '127.0.0.1' });
    try {
      const product = await fetch(`${url}/tryon/products/dress-aline-indigo`);
      assert.equal(product.status, 200, await product.clone().text());
      const photo = await photoHandle({ url: `${url}/tryon` }, await personPhoto());
      assert.match(photo, /^v1\.photo\./, 'the upload went through, its body read by the proxy');
    } finally {
      await fastify.close();
    }
  });
});

describe('tryon-proxy/next', () => {
  it("the App Router's handlers: made on the first request, mounted where the catch-all says, the client from the host's header", async () => {
    let made = 0;
    const { GET } = createNextRouteHandlers(() => {
      made += 1;
      return options();
    });
    assert.equal(made, 0, 'importing the route makes nothing (next build)');
    const request = new Request('http://shop.example/shop/tryon/products/dress-aline-indigo', {
      headers: { 'x-forwarded-for': '203.0.113.7' },
    });
    const answer = await GET(request, { params: Promise.resolve({ path: ['products', 'dress-aline-indigo'] }) });
    assert.equal(answer.status, 200, await answer.clone().text());
    assert.equal(((await answer.json()) as { product: string }).product, 'dress-aline-indigo');
    const noAddress = await GET(new Request('http://shop.example/api/tryon/health'), {
      params: Promise.resolve({ path: ['health'] }),
    });
    assert.equal(noAddress.status, 200, 'health needs no client');
    assert.equal(made, 1);
  });

  it('answers 503 proxy_misconfigured without the environment, never throwing', async () => {
    const { GET } = createNextRouteHandlers(() => ({ ...options(), apiKey: '' }));
    const answer = await GET(new Request('http://shop.example/api/tryon/health'), {
      params: Promise.resolve({ path: ['health'] }),
    });
    assert.equal(answer.status, 503);
    assert.equal(((await answer.json()) as { error: { code: string } }).error.code, 'proxy_misconfigured');
  });

  it("the Pages Router's handler serves under /api/tryon by default", async () => {
    const handler = createNextPagesHandler(options);
    const { url, server } = await listen((request, response) => void handler(request, response));
    try {
      const answer = await fetch(`${url}/api/tryon/products/dress-aline-indigo`, {
        headers: { 'x-forwarded-for': '198.51.100.4' },
      });
      assert.equal(answer.status, 200, await answer.clone().text());
    } finally {
      server.close();
    }
  });

  it('reads the address from the header the host sets', () => {
    const headers = new Headers({
      'x-real-ip': '192.0.2.1',
      'x-nf-client-connection-ip': '192.0.2.2',
      'x-forwarded-for': '10.9.9.9, 192.0.2.3',
    });
    assert.equal(platformClientAddress(headers, { VERCEL: '1' }), '192.0.2.1');
    assert.equal(platformClientAddress(headers, { NETLIFY: 'true' }), '192.0.2.2');
    assert.equal(
      platformClientAddress(headers, {}),
      '192.0.2.3',
      'next start: the right-most entry, which the nearest proxy wrote',
    );
    assert.equal(platformClientAddress(new Headers(), {}), undefined);
    assert.equal(platformClientAddress(new Headers(), { VERCEL: '1' }), undefined, 'no header, no address');
  });
});

describe('defineCatalog', () => {
  it('takes a catalog typed as a JSON file is, and refuses a bad one naming product and field', () => {
    // As TypeScript infers `import catalog from './catalog.json'`: every string a string (mode too).
    const fromJson = (mode: string) => ({
      defaults: { tier: 'draft', views: ['front'] },
      products: {
        'dress-aline-indigo': { mode, garmentImage: 'garments/dress-indigo.png', garment: { category: 'dress' } },
      },
    });
    const json = fromJson('garment_to_person');
    assert.equal(defineCatalog(json), json);
    const bad = fromJson('garment_to_robot');
    assert.throws(
      () => defineCatalog(bad),
      (error: unknown) => error instanceof CatalogError && /dress-aline-indigo.*mode/.test(error.message),
    );
  });
});
