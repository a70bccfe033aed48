// The proxy as a Cloudflare Worker, bundled by scripts/worker.ts and run in real workerd
// (Miniflare from npm) against the real sandbox over loopback.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { createServer as createHttpServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { startSandbox } from '../../sandbox/server.js';
import { HandleSigner } from '../../proxy/security/handles.js';
import {
  COMPATIBILITY_DATE,
  DURABLE_OBJECTS,
  buildWorker,
  serveWorker,
  type ServedWorker,
  type WorkerBundle,
} from '../../scripts/worker.js';
import sharp from 'sharp';
import { colourDistance, torsoColour } from './garment-colour.js';
import {
  startTestSandbox,
  CATALOG,
  SECRET,
  personPhoto,
  startTryon,
  waitForStatus,
  writeAssets,
  uploadPhoto,
  type SandboxState,
  type StatusAnswer,
  type TryonAnswer,
} from './stack.js';
import { readEvents } from './sse.js';
import { ORDERS_SECRET, postPluginEvent } from './shop-orders.js';

const WEBHOOK_SECRET = `whsec_${randomBytes(24).toString('base64')}`;
const ORIGIN = 'https://shop.example';
const RUST = { r: 170, g: 80, b: 30 };
/** The stack's catalog with one variant that brings its own picture, which the bundle must carry too. */
const WORKER_CATALOG = {
  ...CATALOG,
  products: {
    ...CATALOG.products,
    'dress-aline-indigo': {
      ...CATALOG.products['dress-aline-indigo']!,
      variants: { rust: { name: 'Rust', garmentImage: 'garments/dress-rust.png' } },
    },
  },
};

describe('the proxy in workerd', () => {
  let dir: string;
  let bundle: WorkerBundle;
  let sandbox: Awaited<ReturnType<typeof startSandbox>>;
  let relay: ReturnType<typeof serve>;
  let worker: ServedWorker;
  let target = '';
  const answers: string[] = [];
  const lines: string[] = [];
  const workers: ServedWorker[] = [];
  let imageServer: ReturnType<typeof createHttpServer>;
  let elsewhere: ReturnType<typeof createHttpServer>;
  const elsewhereHits: string[] = [];

  /** fetch, keeping every answer's headers and body for the no-secret check. */
  const call = async (url: string, init?: RequestInit): Promise<Response> => {
    const response = await fetch(url, init);
    const body = new Uint8Array(await response.arrayBuffer());
    answers.push(`${JSON.stringify([...response.headers])}\n${new TextDecoder().decode(body)}`);
    return new Response(body, { status: response.status, headers: response.headers });
  };
  const state = async () => (await (await fetch(`${sandbox.url}/sandbox/state`)).json()) as SandboxState;
  const env = (extra: Record<string, string | number> = {}) => ({
    TRYON_API_KEY: 'sk_test_a',
    TRYON_BASE_URL: sandbox.url,
    TRYON_PROXY_SECRET: SECRET,
    TRYON_ALLOWED_ORIGINS: ORIGIN,
    ...extra,
  });
  const serveMore = async (extra: Record<string, string | number>) => {
    const served = await serveWorker(bundle, env(extra), 0, { onLine: (line) => lines.push(line) });
    workers.push(served);
    return served;
  };

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tryon-workerd-'));
    await writeAssets(dir);
    await writeFile(
      join(dir, 'garments/dress-rust.png'),
      await sharp({ create: { width: 200, height: 300, channels: 3, background: RUST } })
        .png()
        .toBuffer(),
    );
    // Catalog images given as URLs, fetched by the Worker itself: from a shop server that serves
    // one, redirects another to a different origin, and streams a third past the size cap.
    elsewhere = createHttpServer((request, response) => {
      elsewhereHits.push(request.url!);
      response.writeHead(200, { 'content-type': 'image/png' }).end(png);
    });
    await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
    const png = await sharp({ create: { width: 200, height: 300, channels: 3, background: RUST } })
      .png()
      .toBuffer();
    imageServer = createHttpServer((request, response) => {
      if (request.url === '/dress.png') return void response.writeHead(200, { 'content-type': 'image/png' }).end(png);
      if (request.url === '/huge.png') {
        response.writeHead(200, { 'content-type': 'image/png' });
        let written = 0;
        const more = () => {
          while (written < 40 * 1024 * 1024 && !response.destroyed) {
            written += 64 * 1024;
            if (
              !response.write(
                written === 64 * 1024 ? Buffer.concat([png, Buffer.alloc(64 * 1024)]) : Buffer.alloc(64 * 1024),
              )
            )
              return void response.once('drain', more);
          }
          response.end();
        };
        return more();
      }
      response
        .writeHead(302, { location: `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}/dress.png` })
        .end();
    });
    await new Promise<void>((resolve) => imageServer.listen(0, '127.0.0.1', resolve));
    const images = `http://127.0.0.1:${(imageServer.address() as AddressInfo).port}`;
    const byUrl = (path: string) => ({ ...CATALOG.products['dress-aline-indigo']!, garmentImage: `${images}${path}` });
    await writeFile(
      join(dir, 'catalog.json'),
      JSON.stringify({
        ...WORKER_CATALOG,
        products: {
          ...WORKER_CATALOG.products,
          'url-dress': byUrl('/dress.png'),
          'url-dress-elsewhere': byUrl('/elsewhere.png'),
          'url-dress-huge': byUrl('/huge.png'),
        },
      }),
    );
    bundle = await buildWorker({ catalogPath: join(dir, 'catalog.json'), outFile: join(dir, 'worker.js') });
    const relayUrl = await new Promise<string>((resolve) => {
      relay = serve(
        {
          port: 0,
          hostname: '127.0.0.1',
          fetch: async (request) =>
            fetch(`${target}${new URL(request.url).pathname}`, {
              method: request.method,
              headers: request.headers,
              body: await request.text(),
            }),
        },
        (info: AddressInfo) => resolve(`http://127.0.0.1:${info.port}`),
      );
    });
    sandbox = await startTestSandbox({
      webhookUrl: `${relayUrl}/webhooks`,
      webhookSecret: WEBHOOK_SECRET,
    });
    // Polling far slower than the test: only a webhook can bring news in time.
    worker = await serveMore({ TRYON_WEBHOOK_SECRET: WEBHOOK_SECRET, TRYON_POLL_INTERVAL_MS: 120_000 });
    target = worker.url;
  });
  after(async () => {
    await Promise.all(workers.map((served) => served.close()));
    await new Promise<void>((resolve) => relay.close(() => resolve()));
    for (const server of [imageServer, elsewhere]) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
    await sandbox.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('bundles the catalog and its images, with no Node built-in', async () => {
    assert.deepEqual(bundle.missingImages, []);
    const code = await readFile(bundle.path, 'utf8');
    assert.doesNotMatch(code, /from\s*["']node:|require\(["']node:|ioredis|prom-client|rate-limiter-flexible/);
    assert.deepEqual(bundle.images.sort(), [
      'garments/banarasi-red.png',
      'garments/dress-indigo.png',
      'garments/dress-rust.png',
      'models/lehenga-emerald.jpg',
    ]);
    assert.ok(bundle.gzipBytes < 3 * 1024 * 1024, `${bundle.gzipBytes} bytes gzip: under the Workers free plan's 3 MB`);
  });

  it('the whole flow: upload, submit, status, SSE woken by a signed webhook, the file streamed and a byte range', async () => {
    const uploaded = await call(`${worker.url}/photos`, { method: 'POST', body: new FormData() });
    assert.equal(uploaded.status, 400, 'a request without a photo is the client’s mistake, not a 500');
    const photoAnswer = await uploadPhoto({ url: worker.url }, await personPhoto());
    assert.equal(photoAnswer.status, 201);
    const { photo } = (await photoAnswer.json()) as { photo: string };
    await (
      await fetch(`${sandbox.url}/sandbox/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jobOutcome: 'hold', times: 1 }),
      })
    ).text();
    const submitted = await startTryon({ url: worker.url }, { product: 'saree-banarasi-red', photo });
    assert.equal(submitted.status, 202, await submitted.clone().text());
    const started = (await submitted.json()) as TryonAnswer;
    const { jobId } = await new HandleSigner(SECRET).open('tryon', started.tryon);
    const status = await call(`${worker.url}/tryons/${started.tryon}`);
    assert.equal(status.status, 200);
    assert.match(((await status.json()) as StatusAnswer).status, /queued|processing/);

    let opened!: () => void;
    const firstEvent = new Promise<void>((resolve) => {
      opened = resolve;
    });
    const stream = readEvents(
      `${worker.url}/tryons/${started.tryon}/events`,
      () => opened(),
      AbortSignal.timeout(20_000),
    );
    await firstEvent;
    await fetch(`${sandbox.url}/sandbox/jobs/${jobId}/release`, { method: 'POST' });
    const events = (await stream).map((event) => {
      answers.push(event.data);
      return JSON.parse(event.data) as StatusAnswer;
    });
    const last = events.at(-1)!;
    assert.equal(last.status, 'succeeded');
    assert.equal(last.outputs.length, 4);
    const job = (await state()).workspaces.ws_1!.jobs.find((j) => j.id === jobId)!;
    assert.equal(job.polls, 0, 'the webhook, not a poll, brought the result');

    const fileUrl = new URL(last.outputs[0]!.url, worker.url).href;
    const whole = await call(fileUrl);
    assert.equal(whole.status, 200);
    const bytes = new Uint8Array(await whole.arrayBuffer());
    assert.ok(bytes.length > 100);
    const part = await call(fileUrl, { headers: { range: 'bytes=10-29' } });
    assert.equal(part.status, 206);
    assert.deepEqual(new Uint8Array(await part.arrayBuffer()), bytes.slice(10, 30));
  });

  it('a variant is tried on with its own picture, bundled with the deployment', async () => {
    const plain = await serveMore({});
    const photo = ((await (await uploadPhoto({ url: plain.url })).json()) as { photo: string }).photo;
    const front = async (variant?: string) => {
      const submitted = await startTryon(
        { url: plain.url },
        { product: 'dress-aline-indigo', photo, ...(variant ? { variant } : {}) },
      );
      assert.equal(submitted.status, 202, await submitted.clone().text());
      const done = await waitForStatus(
        { url: plain.url },
        ((await submitted.json()) as TryonAnswer).tryon,
        (s) => s.status === 'succeeded',
      );
      const file = await call(new URL(done.outputs[0]!.url, plain.url).href);
      return torsoColour(new Uint8Array(await file.arrayBuffer()));
    };
    const rust = await front('rust');
    const indigo = await front();
    assert.ok(
      colourDistance(rust, RUST) < colourDistance(indigo, RUST) && rust.r > indigo.r + 60,
      `rust ${JSON.stringify(rust)} vs own ${JSON.stringify(indigo)}`,
    );
    const unknown = await startTryon({ url: plain.url }, { product: 'dress-aline-indigo', photo, variant: 'mauve' });
    assert.equal(unknown.status, 422);
    assert.equal(((await unknown.json()) as { error: { code: string } }).error.code, 'unknown_variant');
  });

  it('a catalog image by URL is fetched with bounds: the same origin only, within the size cap', async () => {
    const plain = await serveMore({});
    const photo = ((await (await uploadPhoto({ url: plain.url })).json()) as { photo: string }).photo;
    const ordinary = await startTryon({ url: plain.url }, { product: 'url-dress', photo });
    assert.equal(ordinary.status, 202, await ordinary.clone().text());
    for (const [product, reason] of [
      ['url-dress-elsewhere', 'redirect to another origin'],
      ['url-dress-huge', 'larger than'],
    ] as const) {
      const before = lines.length;
      const refused = await startTryon({ url: plain.url }, { product, photo });
      assert.equal(refused.status, 500, await refused.clone().text());
      assert.equal(((await refused.json()) as { error: { code: string } }).error.code, 'internal_error');
      assert.ok(
        lines.slice(before).some((line) => line.includes('catalog_image_unreadable') && line.includes(reason)),
        lines.slice(before).join('\n'),
      );
    }
    assert.deepEqual(elsewhereHits, [], 'the other origin was never asked');
  });

  it('a daily budget given as a number is exact under a burst of distinct submits', async () => {
    const budgeted = await serveMore({ TRYON_DAILY_TRYONS: 2 });
    const photo = ((await (await uploadPhoto({ url: budgeted.url })).json()) as { photo: string }).photo;
    const roots = async () => (await state()).workspaces.ws_1!.jobs.filter((job) => job.parent === null).length;
    const jobsBefore = await roots();
    const answered = await Promise.all(
      Array.from({ length: 6 }, () => startTryon({ url: budgeted.url }, { product: 'dress-aline-indigo', photo })),
    );
    const statuses = answered.map((response) => response.status);
    assert.equal(statuses.filter((s) => s === 202).length, 2, statuses.join(','));
    for (const response of answered.filter((r) => r.status !== 202)) {
      const body = (await response.json()) as { error: { code: string; retryable: boolean } };
      assert.deepEqual([response.status, body.error.code, body.error.retryable], [503, 'daily_budget_reached', false]);
    }
    assert.equal((await roots()) - jobsBefore, 2, 'exactly two try-ons reached upstream');
  });

  it('an unsafe configuration answers every request with 503 proxy_misconfigured and one clear log line', async () => {
    const before = lines.length;
    const unsafe = await serveMore({ TRYON_PROXY_SECRET: 'short', TRYON_BASE_URL: 'http://api.example.com' });
    for (const path of ['/health', '/photos', '/tryons/x']) {
      const response = await call(`${unsafe.url}${path}`);
      assert.equal(response.status, 503);
      const body = (await response.json()) as { error: { code: string; message: string; retryable: boolean } };
      assert.deepEqual([body.error.code, body.error.retryable], ['proxy_misconfigured', false]);
    }
    const said = lines.slice(before).filter((line) => line.includes('proxy_misconfigured'));
    assert.equal(said.length, 1, lines.slice(before).join('\n'));
    assert.match(said[0]!, /TRYON_PROXY_SECRET must be at least 32 characters/);
    assert.match(said[0]!, /TRYON_BASE_URL must use https/);
    assert.doesNotMatch(lines.slice(before).join('\n'), /sk_test_a|\bat \w+ \(|Error:/, 'no key, no stack');
  });

  it('refuses to serve without Durable Objects outside development: a forgotten photo must be forgotten by every isolate', async () => {
    const before = lines.length;
    const alone = await serveWorker(bundle, env(), 0, { onLine: (line) => lines.push(line) }, { durable: false });
    workers.push(alone);
    for (const path of ['/health', '/products/dress-aline-indigo', '/photos']) {
      const response = await call(`${alone.url}${path}`);
      assert.equal(response.status, 503, path);
      assert.equal(((await response.json()) as { error: { code: string } }).error.code, 'proxy_misconfigured');
    }
    const said = lines.slice(before).filter((line) => line.includes('proxy_misconfigured'));
    assert.equal(said.length, 1, lines.slice(before).join('\n'));
    assert.match(said[0]!, /no Durable Object bindings \(TRYON_TRYONS and TRYON_SHOP\).*forget/);
    // Trying the Worker out without them stays possible, and is said.
    const trying = await serveWorker(
      bundle,
      env({ NODE_ENV: 'development' }),
      0,
      { onLine: (line) => lines.push(line) },
      { durable: false },
    );
    workers.push(trying);
    assert.deepEqual(await (await call(`${trying.url}/health`)).json(), { ok: true, upstream: 'test' });
    assert.ok(lines.some((line) => line.includes('development without Durable Objects')));
  });

  it('GET /usage answers the operator with TRYON_ADMIN_TOKEN bound, to that token only; /metrics is never served', async () => {
    const token = 'usage-token-for-workers-0123456789';
    const admin = await serveMore({
      TRYON_ADMIN_TOKEN: token,
      TRYON_DAILY_TRYONS: 7,
      TRYON_ORDERS_SECRET: ORDERS_SECRET,
    });
    const unknown = await call(`${admin.url}/no-such-page`);
    assert.equal(unknown.status, 404);
    const notFound = await unknown.text();
    const refused = await call(`${admin.url}/usage`, { headers: { authorization: 'Bearer not-the-token-at-all-000' } });
    assert.equal(refused.status, 401);
    assert.equal(((await refused.json()) as { error: { code: string } }).error.code, 'unauthorized');
    const usage = await call(`${admin.url}/usage`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(usage.status, 200);
    const body = (await usage.json()) as { days: { date: string; tryons: number }[]; budget: Record<string, number> };
    assert.equal(body.days[0]!.date, new Date().toISOString().slice(0, 10));
    assert.equal(body.budget.dailyTryons, 7);
    assert.equal(body.budget.tryonsLeft, 7 - body.days[0]!.tryons);
    // The plugin's orders reach the Worker's own address too, to the token and signed; /usage has the lift.
    const paid = {
      type: 'order.paid',
      timestamp: new Date().toISOString(),
      data: { order: 'wc_worker_1', currency: 'INR', total: '500.00', group: 'holdout', browser: null, lines: [] },
    };
    const webhookId = `msg_${randomUUID()}`;
    assert.equal((await postPluginEvent(admin.url, paid, { token, webhookId })).status, 204);
    assert.deepEqual(await (await postPluginEvent(admin.url, paid, { token, webhookId })).json(), { duplicate: true });
    assert.equal((await postPluginEvent(admin.url, paid, { token: 'not-the-token-at-all-000' })).status, 401);
    const withLift = await call(`${admin.url}/usage?window=7`, { headers: { authorization: `Bearer ${token}` } });
    const lift = (
      (await withLift.json()) as {
        lift: { window: number; orders: { holdout: number }; holdout: { ordering: number } };
      }
    ).lift;
    assert.deepEqual([lift.window, lift.orders.holdout, lift.holdout.ordering], [7, 1, 1]);
    const metrics = await call(`${admin.url}/metrics`, { headers: { authorization: `Bearer ${token}` } });
    assert.deepEqual([metrics.status, await metrics.text()], [404, notFound]);
    // Without the token binding /usage is any unknown path.
    const without = await call(`${worker.url}/usage`, { headers: { authorization: `Bearer ${token}` } });
    assert.deepEqual([without.status, await without.text()], [404, notFound]);
  });

  it('an upstream redirect is refused with 502 upstream_unavailable, never followed with the key', async () => {
    const seen: string[] = [];
    const elsewhere = createHttpServer((request, response) => {
      seen.push(`${request.method} ${request.url} ${request.headers.authorization ?? ''}`);
      response.end('{}');
    });
    await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
    const redirecting = createHttpServer((request, response) => {
      request.resume();
      request.on('end', () =>
        response
          .writeHead(302, { location: `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}${request.url}` })
          .end(),
      );
    });
    await new Promise<void>((resolve) => redirecting.listen(0, '127.0.0.1', resolve));
    try {
      const before = lines.length;
      const moved = await serveMore({
        TRYON_BASE_URL: `http://127.0.0.1:${(redirecting.address() as AddressInfo).port}`,
      });
      const upload = await uploadPhoto({ url: moved.url });
      const body = (await upload.json()) as { error: { code: string } };
      assert.deepEqual([upload.status, body.error.code], [502, 'upstream_unavailable']);
      assert.deepEqual(seen, [], 'the redirect target never saw a request, so never the key');
      // Seen as a 302 answer: workerd was asked for `manual` (it refuses `error`), and the transport refused it.
      assert.ok(
        lines.slice(before).some((line) => line.includes('upstream_redirect_refused') && line.includes('"status":302')),
        lines.slice(before).join('\n'),
      );
    } finally {
      await Promise.all([elsewhere, redirecting].map((server) => new Promise((resolve) => server.close(resolve))));
    }
  });

  it('an unknown route is answered with the error shape', async () => {
    const response = await call(`${worker.url}/no/such/route`);
    assert.equal(response.status, 404);
    const body = (await response.json()) as { error: { code: string; message: string; retryable: boolean } };
    assert.deepEqual(Object.keys(body.error).sort(), ['code', 'message', 'retryable']);
  });

  it('no answer carried the key or a raw upstream id', async () => {
    const upstreamIds = (await state()).workspaces.ws_1!.jobs.map((job) => job.id);
    assert.ok(upstreamIds.length > 0 && answers.length > 5);
    const all = answers.join('\n');
    assert.ok(!all.includes('sk_test_a'));
    for (const id of upstreamIds) assert.ok(!all.includes(id), `${id} leaked`);
    assert.doesNotMatch(all, /\bfile_[A-Za-z0-9]/);
  });
});

describe('npm run worker', () => {
  it('wrangler.toml deploys with the compatibility date the local workerd runs', async () => {
    const toml = await readFile(new URL('../../wrangler.toml', import.meta.url), 'utf8');
    assert.equal(toml.match(/^compatibility_date = "([\d-]+)"/m)?.[1], COMPATIBILITY_DATE);
    assert.match(toml, /^main = "\.cache\/worker\/worker\.js"/m);
    assert.doesNotMatch(
      toml,
      /^TRYON_(API_KEY|PROXY_SECRET|WEBHOOK_SECRET)\s*=/m,
      'secrets go through wrangler secret',
    );
  });

  it('wrangler.toml binds the Durable Objects npm run worker binds, as SQLite-backed classes', async () => {
    const toml = await readFile(new URL('../../wrangler.toml', import.meta.url), 'utf8');
    const bindings = [
      ...toml.matchAll(/^\[\[durable_objects\.bindings\]\]\nname = "(\w+)"\nclass_name = "(\w+)"/gm),
    ].map((m) => [m[1], m[2]]);
    assert.deepEqual(Object.fromEntries(bindings), DURABLE_OBJECTS);
    const sqlite = JSON.parse(toml.match(/^new_sqlite_classes = (\[.*\])$/m)?.[1] ?? '[]') as string[];
    assert.deepEqual(sqlite.sort(), Object.values(DURABLE_OBJECTS).sort());
  });

  it('builds the Worker with TRYON_CATALOG and serves it in workerd on WORKER_PORT, answering /health', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tryon-npm-worker-'));
    await writeAssets(dir);
    await writeFile(join(dir, 'catalog.json'), JSON.stringify(CATALOG));
    const sandbox = await startTestSandbox();
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as AddressInfo;
        probe.close(() => resolve(free));
      });
    });
    const child = spawn('npm', ['run', '--silent', 'worker'], {
      cwd: new URL('../..', import.meta.url).pathname,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        WORKER_PORT: String(port),
        TRYON_CATALOG: join(dir, 'catalog.json'),
        TRYON_API_KEY: 'sk_test_a',
        TRYON_BASE_URL: sandbox.url,
        TRYON_PROXY_SECRET: SECRET,
        TRYON_ALLOWED_ORIGINS: ORIGIN,
      },
    });
    let output = '';
    try {
      await new Promise<void>((resolve, reject) => {
        const hear = (chunk: Buffer) => {
          output += chunk.toString();
          if (output.includes(`tryon worker: http://127.0.0.1:${port}`)) resolve();
        };
        child.stdout.on('data', hear);
        child.stderr.on('data', hear);
        child.once('exit', (code) => reject(new Error(`npm run worker exited ${code}: ${output}`)));
      });
      assert.match(output, /3 catalog images/);
      const health = await fetch(`http://127.0.0.1:${port}/health`);
      assert.equal(health.status, 200);
      assert.deepEqual(
        await health.json(),
        { ok: true, upstream: 'test', store: 'up' },
        'served with the Durable Objects store, which answers',
      );
      const products = await fetch(`http://127.0.0.1:${port}/products/dress-aline-indigo`);
      assert.equal(products.status, 200, 'the bundled catalog is served');
      assert.ok(!output.includes('sk_test_a'));
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      process.kill(-child.pid!, 'SIGTERM');
      await exited;
      await sandbox.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
