// Every answer's fixed headers (security headers, request id, no X-Powered-By) are the same whether the
// proxy's Node listener writes them into the head (proxy/http/node-response.ts) or the middleware sets them on
// the Response (Workers, app.fetch), and appear once each, whatever the route itself set.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, request as httpRequest, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createProxy } from '../../proxy/app.js';
import { SECURITY_HEADERS } from '../../proxy/http/fixed-headers.js';
import { ProxyAnswer } from '../../proxy/http/node-response.js';
import { CATALOG, SECRET, startStack, writeAssets, type Stack } from './stack.js';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

interface Head {
  status: number;
  raw: string[];
  headers: IncomingHttpHeaders;
}

/** One request over loopback, with the head exactly as it came (repeated names kept). */
function rawRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string | string[]> } = {},
): Promise<Head> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(url, { method: options.method ?? 'GET', headers: options.headers }, (incoming) => {
      incoming.resume();
      incoming.on('end', () =>
        resolve({ status: incoming.statusCode ?? 0, raw: incoming.rawHeaders, headers: incoming.headers }),
      );
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

/** How many times each name (lower case) appears in a raw head. */
function nameCounts(raw: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (let index = 0; index < raw.length; index += 2) {
    const name = raw[index]!.toLowerCase();
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return counts;
}

/** The headers an answer carries that do not depend on how it travelled (no date, length or connection). */
function comparable(entries: Iterable<[string, string]>): Record<string, string> {
  const hop = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding', 'x-request-id']);
  return Object.fromEntries([...entries].filter(([name]) => !hop.has(name.toLowerCase())).sort());
}

function assertFixedOnce(head: Head, label: string): void {
  const counts = nameCounts(head.raw);
  for (const [name, value] of SECURITY_HEADERS) {
    assert.equal(counts.get(name.toLowerCase()), 1, `${label}: ${name} once`);
    assert.equal(head.headers[name.toLowerCase()], value, `${label}: ${name}`);
  }
  assert.equal(counts.get('x-request-id'), 1, `${label}: one request id`);
  assert.equal(counts.get('x-powered-by'), undefined, `${label}: no X-Powered-By`);
}

describe('answer heads: the Node listener and the Web path agree', () => {
  let stack: Stack;
  let assetsDir: string;
  let app: ReturnType<typeof createProxy>;
  before(async () => {
    stack = await startStack();
    assetsDir = await mkdtemp(join(tmpdir(), 'tryon-fixed-headers-'));
    await writeAssets(assetsDir);
    // The same app as the stack's, answering through app.fetch: the path Workers take.
    app = createProxy({
      apiKey: 'sk_test_a',
      baseUrl: stack.sandboxUrl,
      secret: SECRET,
      allowedOrigins: ['https://shop.example'],
      catalog: CATALOG,
      assetsDir,
      log: () => undefined,
      clientAddress: () => '127.0.0.1',
      readAsset: async (path) => new Uint8Array(await readFile(join(assetsDir, path))),
    });
  });
  after(async () => {
    await stack.close();
    await rm(assetsDir, { recursive: true, force: true });
  });

  const cases: { label: string; path: string; method?: string; headers?: Record<string, string>; status: number }[] = [
    { label: 'health', path: '/health', status: 200 },
    { label: 'a product', path: '/products/dress-aline-indigo', status: 200 },
    {
      label: 'a product, cross-origin',
      path: '/products/dress-aline-indigo',
      headers: { origin: 'https://shop.example' },
      status: 200,
    },
    {
      label: 'a foreign origin',
      path: '/products/dress-aline-indigo',
      headers: { origin: 'https://evil.example' },
      status: 403,
    },
    { label: 'an unknown route', path: '/nowhere', status: 404 },
    { label: 'a wrong method', path: '/health', method: 'DELETE', status: 405 },
    { label: 'a forged handle', path: '/tryons/v1.tryon.AAAA.BBBB', status: 404 },
    {
      label: 'a preflight',
      path: '/tryons',
      method: 'OPTIONS',
      headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST' },
      status: 204,
    },
  ];

  for (const { label, path, method, headers, status } of cases) {
    it(`${label}: each fixed header once on the wire, as the Web path sets them`, async () => {
      const wire = await rawRequest(`${stack.url}${path}`, { method, headers });
      const web = await app.fetch(new Request(`http://127.0.0.1${path}`, { method, headers }));
      await web.arrayBuffer();
      assert.equal(wire.status, status);
      assert.equal(web.status, status);
      assertFixedOnce(wire, label);
      const wireEntries: [string, string][] = [];
      for (let index = 0; index < wire.raw.length; index += 2) {
        wireEntries.push([wire.raw[index]!.toLowerCase(), wire.raw[index + 1]!]);
      }
      assert.deepEqual(comparable(wireEntries), comparable(web.headers.entries()));
    });
  }

  it("keeps a client's plain request id and replaces one that is not plain", async () => {
    const kept = await rawRequest(`${stack.url}/health`, { headers: { 'x-request-id': 'shop-trace_42' } });
    assert.equal(kept.headers['x-request-id'], 'shop-trace_42');
    const replaced = await rawRequest(`${stack.url}/health`, { headers: { 'x-request-id': 'a b<script>' } });
    assert.match(String(replaced.headers['x-request-id']), /^[0-9a-f-]{36}$/);
    const logged = stack.logs.filter((entry) => entry.event === 'request').map((entry) => entry.requestId);
    assert.ok(logged.includes('shop-trace_42'));
    assert.ok(logged.includes(replaced.headers['x-request-id']));
  });

  it('reads a repeated request id header as Headers.get does (joined, so not plain): a fresh id', async () => {
    // The Node listener reads the id from Node's own request, not the adapter's Headers.
    const repeated = await rawRequest(`${stack.url}/health`, { headers: { 'x-request-id': ['one', 'two'] } });
    assert.match(String(repeated.headers['x-request-id']), /^[0-9a-f-]{36}$/);
    const web = await app.fetch(
      new Request('https://proxy.example/health', {
        headers: [
          ['x-request-id', 'one'],
          ['x-request-id', 'two'],
        ],
      }),
    );
    assert.match(String(web.headers.get('x-request-id')), /^[0-9a-f-]{36}$/);
  });
});

describe('ProxyAnswer: the fixed headers win over what a handler writes', () => {
  let url: string;
  let close: () => Promise<void>;
  const handlers = new Map<string, (res: ServerResponse) => void>([
    [
      '/record',
      (res) =>
        res.writeHead(200, {
          'X-Frame-Options': 'ALLOWALL',
          'x-powered-by': 'something',
          'X-Request-Id': 'from-the-route',
          'content-type': 'text/plain',
        }),
    ],
    ['/flat', (res) => res.writeHead(201, ['Content-Security-Policy', 'default-src *', 'x-route', 'kept'])],
    [
      '/pairs',
      (res) =>
        res.writeHead(202, 'Fine', [
          ['X-Content-Type-Options', 'sniff'],
          ['x-route', 'kept'],
        ] as never),
    ],
    [
      '/implicit',
      (res) => {
        res.setHeader('Referrer-Policy', 'unsafe-url');
        res.setHeader('X-Powered-By', 'something');
        res.setHeader('x-route', 'kept');
      },
    ],
  ]);
  before(async () => {
    const server = createServer({ ServerResponse: ProxyAnswer }, (req, res) => {
      (res as ProxyAnswer).requestId = 'id-1';
      handlers.get(req.url ?? '')?.(res);
      res.end('ok');
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => new Promise((done) => server.close(() => done()));
  });
  after(() => close());

  for (const path of ['/record', '/flat', '/pairs', '/implicit']) {
    it(`${path}: fixed values once, the handler's other headers kept`, async () => {
      const head = await rawRequest(`${url}${path}`);
      assertFixedOnce(head, path);
      assert.equal(head.headers['x-request-id'], 'id-1');
      if (path !== '/record') assert.equal(head.headers['x-route'], 'kept');
      else assert.equal(head.headers['content-type'], 'text/plain');
    });
  }

  it('keeps the status line a handler gave', async () => {
    const head = await new Promise<string>((resolve, reject) => {
      httpRequest(`${url}/pairs`, (incoming) => {
        incoming.resume();
        resolve(`${incoming.statusCode} ${incoming.statusMessage}`);
      })
        .on('error', reject)
        .end();
    });
    assert.equal(head, '202 Fine');
  });
});
