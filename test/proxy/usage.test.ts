// GET /usage on the admin listener against the real sandbox over loopback, on every store: after a
// mixed run (an image, a catalog of four views, a video, a failed render, a retry, refused
// requests) the figures equal the sandbox's own counts (its /sandbox/state: parent jobs, credits
// charged, a failed job's credits given back). On Redis and Durable Objects two instances read
// one book. GET /products says when a product cannot be tried on today, and budget alerts are
// sent once per threshold with real parallel requests on two instances sharing Redis.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { startProxy, type StartedProxy } from '../../proxy/node.js';
import type { UsageAnswer } from '../../proxy/admin.js';
import {
  startTestSandbox,
  CATALOG,
  SECRET,
  photoHandle,
  startTryon,
  waitForStatus,
  writeAssets,
  type Stack,
  type TryonAnswer,
} from './stack.js';
import { SHARED_STORE_KINDS, STORE_KINDS, sharedStores, stackOn } from './stores.js';

const TOKEN = 'usage-admin-token-0123456789';
const today = () => new Date().toISOString().slice(0, 10);

async function usageOf(adminUrl: string | undefined): Promise<UsageAnswer> {
  const response = await fetch(`${adminUrl}/usage`, { headers: { authorization: `Bearer ${TOKEN}` } });
  assert.equal(response.status, 200);
  return (await response.json()) as UsageAnswer;
}

async function tryOn(
  stack: { url: string },
  body: Record<string, unknown>,
): Promise<{ tryon: string; status: string }> {
  const response = await startTryon(stack, { photo: await photoHandle(stack), ...body });
  assert.equal(response.status, 202, await response.clone().text());
  const started = (await response.json()) as TryonAnswer;
  const done = await waitForStatus(stack, started.tryon, (s) => s.status === 'succeeded' || s.status === 'failed');
  return { tryon: started.tryon, status: done.status };
}

const CATALOG_WITH_SWITCHED_OFF = {
  ...CATALOG,
  products: {
    ...CATALOG.products,
    'kurta-off': {
      mode: 'garment_to_person',
      garmentImage: 'garments/dress-indigo.png',
      garment: { category: 'kurta' },
      enabled: false,
    },
  },
} as typeof CATALOG;

for (const kind of STORE_KINDS) {
  describe(`GET /usage on the ${kind} store`, () => {
    let stack: Stack;
    after(async () => stack?.close());

    it('after a mixed run, equals the sandbox’s own counts, per day and per product, with the budget left', async () => {
      // A live key: the sandbox charges only those (test keys are never charged).
      stack = await stackOn(kind, {
        apiKey: 'sk_live_b',
        proxy: { adminToken: TOKEN, catalog: CATALOG_WITH_SWITCHED_OFF },
      });
      const empty = await usageOf(stack.adminUrl);
      assert.equal(empty.days.length, 30, '30 days, each listed');
      assert.equal(empty.days[0]!.date, today(), 'today first');
      assert.deepEqual(empty.days[29], {
        date: new Date(Date.now() - 29 * 86_400_000).toISOString().slice(0, 10),
        tryons: 0,
        credits: 0,
        previews: 0,
        errors: {},
        products: {},
        outfits: 0,
        outfitPieces: 0,
        piecesPerOutfit: 0,
        outfitsAddedToCart: 0,
        piecesAddedToCart: 0,
      });

      assert.equal((await tryOn(stack, { product: 'dress-aline-indigo' })).status, 'succeeded');
      assert.equal(
        (await tryOn(stack, { product: 'saree-banarasi-red' })).status,
        'succeeded',
        'a catalog of four views',
      );
      assert.equal(
        (await tryOn(stack, { product: 'saree-banarasi-red', output: 'video', views: ['front'] })).status,
        'succeeded',
        'a video',
      );
      await stack.fault({ jobOutcome: 'failed', times: 1 });
      assert.equal(
        (await tryOn(stack, { product: 'dress-aline-indigo' })).status,
        'failed',
        'a failed render gives its credits back',
      );
      // A retry of one try-on (same request id) is one try-on.
      const photo = await photoHandle(stack);
      const first = await startTryon(stack, { product: 'lehenga-emerald', photo, requestId: 'req_usage_retry_1' });
      const again = await startTryon(stack, { product: 'lehenga-emerald', photo, requestId: 'req_usage_retry_1' });
      assert.deepEqual([first.status, again.status], [202, 202]);
      // Refused requests: counted by code, never as try-ons.
      assert.equal((await startTryon(stack, { product: 'no-such-product', photo })).status, 404);
      assert.equal(
        (await startTryon(stack, { product: 'kurta-off', photo })).status,
        404,
        'a product switched off is not tried on',
      );
      assert.equal(
        (
          await fetch(`${stack.url}/tryons`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: '{"consent":true}',
          })
        ).status,
        422,
      );

      const state = await stack.state();
      const parents = state.workspaces.ws_1!.jobs.filter((job) => job.parent === null);
      const charged = parents.reduce((sum, job) => sum + job.charged, 0);
      const usage = await usageOf(stack.adminUrl);
      const day = usage.days[0]!;
      // Each try-on of a product above the draft tier starts a first look beside it: a draft job of
      // its own in the sandbox, counted as a preview.
      const firstLooks = parents.filter((job) => job.tier !== 'draft').length;
      assert.equal(firstLooks, 2, 'the premium catalog and video each had a first look');
      assert.equal(day.previews, firstLooks, 'previews: the sandbox’s first-look jobs');
      assert.equal(day.tryons, parents.length - firstLooks, 'try-ons: the sandbox’s other jobs');
      assert.equal(day.tryons, 5);
      assert.ok(charged > 0);
      assert.equal(
        day.credits,
        charged,
        'credits: what the sandbox charged (first looks too), a failed job’s given back',
      );
      assert.deepEqual(day.errors, { render_failed: 1, unknown_product: 2, validation_failed: 1 });
      assert.deepEqual(Object.keys(day.products).sort(), [
        'dress-aline-indigo',
        'lehenga-emerald',
        'saree-banarasi-red',
      ]);
      assert.equal(day.products['dress-aline-indigo']!.tryons, 2);
      assert.equal(day.products['saree-banarasi-red']!.tryons, 2);
      assert.equal(day.products['lehenga-emerald']!.tryons, 1);
      assert.equal(
        Object.values(day.products).reduce((sum, p) => sum + p.credits, 0),
        charged,
        'the products’ credits add up to the day’s',
      );
      // The budget counts every try-on started (the failed one too): what the guard reserves.
      const reserved = charged + day.products['dress-aline-indigo']!.credits;
      assert.deepEqual(usage.budget, {
        dailyTryons: 500,
        dailyCredits: 2000,
        tryonsLeft: 495,
        creditsLeft: 2000 - reserved,
      });
      assert.ok(
        usage.days.slice(1).every((d) => d.tryons === 0 && d.credits === 0),
        'nothing on other days',
      );
    });

    it('GET /products says available, or why not: switched off, or no budget left for its price today', async () => {
      await stack.close();
      stack = await stackOn(kind, {
        proxy: { adminToken: TOKEN, catalog: CATALOG_WITH_SWITCHED_OFF, limits: { dailyTryons: 1 } },
      });
      const product = async (id: string) =>
        (await (await fetch(`${stack.url}/products/${id}`)).json()) as {
          available: boolean;
          unavailableReason?: string;
        };
      assert.deepEqual(await product('kurta-off').then((p) => [p.available, p.unavailableReason]), [false, 'disabled']);
      assert.deepEqual(await product('dress-aline-indigo').then((p) => [p.available, p.unavailableReason]), [
        true,
        undefined,
      ]);
      assert.equal((await fetch(`${stack.url}/products/dress-aline-indigo`)).headers.get('cache-control'), 'no-store');
      await tryOn(stack, { product: 'dress-aline-indigo' });
      for (const id of ['dress-aline-indigo', 'saree-banarasi-red']) {
        assert.deepEqual(
          await product(id).then((p) => [p.available, p.unavailableReason]),
          [false, 'daily_budget_reached'],
          id,
        );
      }
      assert.deepEqual(
        await product('kurta-off').then((p) => [p.available, p.unavailableReason]),
        [false, 'disabled'],
        'switched off says so first',
      );
      assert.equal((await usageOf(stack.adminUrl)).budget.tryonsLeft, 0);
    });
  });
}

describe('GET /products against the credit budget', () => {
  let stack: Stack;
  after(async () => stack?.close());
  it('a product whose price the credits left cannot cover is unavailable, a cheaper one still is', async () => {
    // The premium saree (4 views) costs more than the draft dress: 5 credits leave room for the dress only.
    stack = await stackOn('memory', { proxy: { limits: { dailyCredits: 5 } } });
    const saree = (await (await fetch(`${stack.url}/products/saree-banarasi-red`)).json()) as {
      available: boolean;
      unavailableReason?: string;
    };
    const dress = (await (await fetch(`${stack.url}/products/dress-aline-indigo`)).json()) as { available: boolean };
    assert.deepEqual(
      [saree.available, saree.unavailableReason, dress.available],
      [false, 'daily_budget_reached', true],
    );
  });
});

interface Received {
  headers: IncomingMessage['headers'];
  body: string;
}

for (const kind of SHARED_STORE_KINDS) {
  describe(`budget alerts and /usage across two instances on ${kind}`, () => {
    const closers: (() => Promise<void>)[] = [];
    after(async () => {
      for (const close of closers.reverse()) await close();
    });

    it('fires once at 80 % and once at 100 % with parallel try-ons on two instances, signed; both instances read one book', async () => {
      const received: Received[] = [];
      let wake = () => undefined as void;
      const receiver = createServer((request, response) => {
        let body = '';
        request.on('data', (chunk: Buffer) => {
          body += chunk.toString();
        });
        request.on('end', () => {
          received.push({ headers: request.headers, body });
          response.writeHead(204).end();
          wake();
        });
      });
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
      closers.push(() => new Promise((resolve) => receiver.close(() => resolve())));
      const alertUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/budget`;
      const secret = `whsec_${Buffer.from('budget-alert-secret-for-tests!!').toString('base64')}`;

      const sandbox = await startTestSandbox();
      closers.push(async () => sandbox.close());
      const assetsDir = await mkdtemp(join(tmpdir(), 'tryon-usage-test-'));
      closers.push(() => rm(assetsDir, { recursive: true, force: true }));
      await writeAssets(assetsDir);
      const stores = await sharedStores(kind, 2);
      const instances: StartedProxy[] = [];
      for (const store of stores) {
        const proxy = await startProxy({
          apiKey: 'sk_test_a',
          baseUrl: sandbox.url,
          secret: SECRET,
          allowedOrigins: ['https://shop.example'],
          catalog: CATALOG,
          assetsDir,
          log: () => undefined,
          store,
          adminToken: TOKEN,
          budgetAlert: { url: alertUrl, secret },
          limits: { retryBaseMs: 20, pollIntervalMs: 200, dailyTryons: 5, clientDailyTryons: 100, ratePerMinute: 1000 },
        });
        instances.push(proxy);
        closers.push(() => proxy.close());
      }
      const photos = await Promise.all(Array.from({ length: 7 }, (_, i) => photoHandle(instances[i % 2]!)));
      const both = new Promise<void>((resolve) => {
        wake = () => {
          if (received.length >= 2) resolve();
        };
      });
      const answers = await Promise.all(
        photos.map((photo, i) => startTryon(instances[i % 2]!, { product: 'dress-aline-indigo', photo })),
      );
      assert.deepEqual(
        answers.map((a) => a.status).sort(),
        [202, 202, 202, 202, 202, 503, 503],
        'five fit the budget, the rest are refused',
      );
      await both;
      // A further refusal must not send again.
      assert.equal(
        (await startTryon(instances[1]!, { product: 'dress-aline-indigo', photo: await photoHandle(instances[1]!) }))
          .status,
        503,
      );
      const bodies = received.map(
        (r) =>
          JSON.parse(r.body) as {
            type: string;
            data: { threshold: number; date: string; tryons: number; dailyTryons: number };
          },
      );
      assert.deepEqual(bodies.map((b) => b.data.threshold).sort(), [100, 80]);
      assert.ok(
        bodies.every((b) => b.type === 'budget.threshold' && b.data.date === today() && b.data.dailyTryons === 5),
      );
      const webhook = new Webhook(secret);
      for (const { headers, body } of received) {
        assert.match(String(headers['webhook-id']), /^budget_\d{4}-\d\d-\d\d_(80|100)$/);
        webhook.verify(body, {
          'webhook-id': String(headers['webhook-id']),
          'webhook-timestamp': String(headers['webhook-timestamp']),
          'webhook-signature': String(headers['webhook-signature']),
        });
      }
      const [one, two] = await Promise.all(instances.map((proxy) => usageOf(proxy.adminUrl)));
      assert.deepEqual(one, two, 'one book for both instances');
      assert.equal(one!.days[0]!.tryons, 5);
      assert.equal(one!.days[0]!.errors.daily_budget_reached, 3);
      assert.deepEqual(one!.budget, { dailyTryons: 5, dailyCredits: 2000, tryonsLeft: 0, creditsLeft: 1995 });
      assert.equal(received.length, 2, 'no third alert');
    });
  });
}
