// Orders in, through the running proxy over loopback: Shopify's webhooks signed as Shopify signs
// them, the WooCommerce plugin's events signed with Standard Webhooks on the admin listener, the
// widget's exposure reports; what GET /usage's lift makes of them. A wrong signature, a replay, a
// malformed body: refused or ignored, nothing counted twice, never a 500. On Redis and Durable
// Objects, the same order sent to two instances (the same delivery at once, and again under a new
// delivery id) is counted once.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { connectRedisStore } from '../../proxy/store/redis.js';
import { createProxy } from '../../proxy/app.js';
import { CATALOG, SECRET } from './stack.js';
import { SHARED_STORE_KINDS, sharedStores } from './stores.js';
import {
  ADMIN_TOKEN,
  ORIGIN,
  SHOPIFY_SECRET,
  browserId,
  liftOf,
  postExposure,
  postPluginEvent,
  postShopify,
  shopifyHmac,
  shopifyOrder,
  shopifyRefund,
  startOrdersProxy,
  type OrdersProxy,
} from './shop-orders.js';

const KURTA = { id: 11, product_id: 501, quantity: 2, price: '1200.00', tryon: 'kurta-indigo' };
const SCARF = { id: 12, product_id: 502, quantity: 1, price: '400.00' };
const KURTA_PLAIN = { id: 21, product_id: 501, quantity: 1, price: '1200.00' };

describe('orders in, on one proxy (memory store)', () => {
  let proxy: OrdersProxy;
  before(async () => {
    proxy = await startOrdersProxy();
  });
  after(async () => proxy.close());

  const treated = browserId();
  const held = browserId();

  it('takes exposure reports: 204, each browser once a day, a bad body 400, another site 403', async () => {
    for (const body of [
      { product: 'kurta-indigo', group: 'treatment', browser: treated },
      { product: 'kurta-indigo', group: 'treatment', browser: treated },
      { product: 'scarf', group: 'treatment', browser: treated },
      { product: 'kurta-indigo', group: 'holdout', browser: held },
      { product: 'kurta-indigo', group: 'holdout' },
    ]) {
      const response = await postExposure(proxy.url, body);
      assert.equal(response.status, 204, await response.text());
    }
    for (const body of [
      'not json',
      { product: 'kurta-indigo', group: 'control' },
      { product: 'kurta-indigo', group: 'treatment', browser: 'short' },
      { product: 'kurta-indigo', group: 'treatment', browser: `${treated}!` },
      { group: 'treatment' },
      { product: 'kurta-indigo', group: 'treatment', email: 'a@b.c' },
    ]) {
      const response = await postExposure(proxy.url, body);
      assert.equal(response.status, 400, JSON.stringify(body));
      assert.equal(((await response.json()) as { error: { code: string } }).error.code, 'invalid_request');
    }
    const large = await postExposure(proxy.url, { product: 'x'.repeat(2000), group: 'treatment' });
    assert.equal(large.status, 413);
    const elsewhere = await postExposure(
      proxy.url,
      { product: 'kurta-indigo', group: 'treatment' },
      'https://evil.example',
    );
    assert.equal(elsewhere.status, 403);
    const lift = await liftOf(proxy.adminUrl!);
    assert.equal(lift.treatment.exposed, 1, 'one browser, three reports');
    assert.equal(lift.holdout.exposed, 2, 'one browser, and one report without an id');
  });

  it('counts a Shopify order signed as Shopify signs it, once: a replay and a redelivery under a new id are duplicates', async () => {
    const body = shopifyOrder({
      id: 820001,
      total: '2800.00',
      group: 'treatment',
      browser: treated,
      lines: [KURTA, SCARF],
    });
    const webhookId = randomUUID();
    const first = await postShopify(proxy.url, 'orders/create', body, { webhookId });
    assert.equal(first.status, 200);
    assert.deepEqual(await first.json(), { counted: true });
    const replay = await postShopify(proxy.url, 'orders/create', body, { webhookId });
    assert.equal(replay.status, 200);
    assert.deepEqual(await replay.json(), { duplicate: true });
    const again = await postShopify(proxy.url, 'orders/create', body);
    assert.deepEqual(await again.json(), { duplicate: true }, 'the same order under another delivery id');
    const lift = await liftOf(proxy.adminUrl!);
    assert.equal(lift.treatment.ordering, 1);
    assert.equal(lift.treatment.conversion, 1);
    assert.equal(lift.treatment.revenuePerExposed, 2800);
    assert.equal(lift.currency, 'INR');
    assert.deepEqual(lift.orders, { treatment: 1, holdout: 0, none: 0, withTryon: { treatment: 1, holdout: 0 } });
    assert.deepEqual(lift.returns, { triedOn: { lines: 2, refunded: 0 }, other: { lines: 0, refunded: 0 } });
  });

  it('refuses a wrong HMAC (401), a malformed or non-order body (400), ignores other topics (200); nothing counted', async () => {
    const body = shopifyOrder({ id: 820002, total: '100.00', group: 'holdout', browser: held, lines: [SCARF] });
    const raw = JSON.stringify(body);
    const statuses: number[] = [];
    const forged = await postShopify(proxy.url, 'orders/create', body, {
      hmac: shopifyHmac(raw, 'another-apps-secret-0123456789'),
    });
    statuses.push(forged.status);
    assert.equal(forged.status, 401);
    assert.equal(((await forged.json()) as { error: { code: string } }).error.code, 'invalid_signature');
    const unsigned = await fetch(`${proxy.url}/shopify/webhooks`, {
      method: 'POST',
      headers: { 'x-shopify-topic': 'orders/create', 'x-shopify-webhook-id': randomUUID() },
      body: raw,
    });
    statuses.push(unsigned.status);
    assert.equal(unsigned.status, 401);
    // The signature is over the bytes: the same JSON re-spaced does not verify.
    const respaced = await postShopify(proxy.url, 'orders/create', body, {
      raw: JSON.stringify(body, null, 1),
      hmac: shopifyHmac(raw),
    });
    statuses.push(respaced.status);
    assert.equal(respaced.status, 401);
    for (const malformed of [
      '{"id": 820002, "line_items": [',
      '\u00ff\u00fe',
      '[]',
      '{"id": 820002}',
      JSON.stringify({ ...body, line_items: 'none' }),
    ]) {
      const response = await postShopify(proxy.url, 'orders/create', undefined, { raw: malformed });
      statuses.push(response.status);
      assert.equal(response.status, 400, malformed);
      assert.equal(((await response.json()) as { error: { code: string } }).error.code, 'invalid_request');
    }
    const badRefund = await postShopify(proxy.url, 'refunds/create', { id: 5, refund_line_items: [] });
    assert.equal(badRefund.status, 400, 'a refund with no order');
    const other = await postShopify(proxy.url, 'products/update', { id: 1, title: 'Kurta' });
    assert.equal(other.status, 200);
    assert.deepEqual(await other.json(), { ignored: true });
    const noId = await fetch(`${proxy.url}/shopify/webhooks`, {
      method: 'POST',
      headers: { 'x-shopify-topic': 'orders/create', 'x-shopify-hmac-sha256': shopifyHmac(raw) },
      body: raw,
    });
    assert.equal(noId.status, 400, 'no X-Shopify-Webhook-Id');
    const large = 'x'.repeat(1024 * 1024 + 1);
    const tooLarge = await postShopify(proxy.url, 'orders/create', undefined, { raw: large });
    assert.equal(tooLarge.status, 413);
    const lift = await liftOf(proxy.adminUrl!);
    assert.equal(lift.holdout.ordering, 0, 'nothing counted');
    assert.equal(lift.orders.holdout, 0);
    assert.ok(!proxy.logs.some((entry) => entry.status === 500 || entry.event === 'internal_error'), 'no 500');
  });

  it('counts a Shopify refund on its order: refunded units once, never more than ordered, by tried-on or not', async () => {
    const order = shopifyOrder({
      id: 820003,
      total: '2400.00',
      group: 'holdout',
      browser: held,
      lines: [{ ...KURTA_PLAIN, quantity: 2 }],
    });
    assert.deepEqual(await (await postShopify(proxy.url, 'orders/create', order)).json(), { counted: true });
    const refund = shopifyRefund({ id: 930001, order: 820003, lines: [{ ...KURTA_PLAIN, quantity: 2, refunded: 1 }] });
    const webhookId = randomUUID();
    assert.deepEqual(await (await postShopify(proxy.url, 'refunds/create', refund, { webhookId })).json(), {
      counted: true,
    });
    assert.deepEqual(await (await postShopify(proxy.url, 'refunds/create', refund, { webhookId })).json(), {
      duplicate: true,
    });
    assert.deepEqual(
      await (await postShopify(proxy.url, 'refunds/create', refund)).json(),
      { duplicate: true },
      'the same refund, new delivery',
    );
    // A second refund asks for more than is left: only what was ordered comes back.
    const more = shopifyRefund({ id: 930002, order: 820003, lines: [{ ...KURTA_PLAIN, quantity: 2, refunded: 5 }] });
    assert.deepEqual(await (await postShopify(proxy.url, 'refunds/create', more)).json(), { counted: true });
    const tried = shopifyRefund({ id: 930003, order: 820001, lines: [{ ...KURTA, refunded: 1 }] });
    assert.deepEqual(await (await postShopify(proxy.url, 'refunds/create', tried)).json(), { counted: true });
    const unknown = shopifyRefund({ id: 930004, order: 999_999, lines: [{ ...KURTA, refunded: 1 }] });
    assert.deepEqual(await (await postShopify(proxy.url, 'refunds/create', unknown)).json(), { ignored: true });
    const lift = await liftOf(proxy.adminUrl!);
    assert.deepEqual(lift.returns, { triedOn: { lines: 2, refunded: 1 }, other: { lines: 2, refunded: 2 } });
    assert.equal(lift.holdout.ordering, 1);
    assert.equal(lift.holdout.revenuePerExposed, 1200, '2400 over two exposed');
  });

  it('takes the plugin’s signed orders on the admin listener: 204, a retry 200 duplicate, bad signature or stale 401, malformed 400', async () => {
    const browser = browserId();
    const paid = {
      type: 'order.paid',
      timestamp: new Date().toISOString(),
      data: {
        order: 'wc_order_abc123',
        currency: 'INR',
        total: '1234.50',
        group: 'treatment',
        browser,
        lines: [{ line: '7', product: '501', quantity: 1, total: '1234.50', tryon: 'kurta-indigo' }],
      },
    };
    const webhookId = `msg_${randomUUID()}`;
    const first = await postPluginEvent(proxy.adminUrl!, paid, { webhookId });
    assert.equal(first.status, 204, await first.clone().text());
    const retry = await postPluginEvent(proxy.adminUrl!, paid, { webhookId });
    assert.equal(retry.status, 200);
    assert.deepEqual(await retry.json(), { duplicate: true });
    const forged = await postPluginEvent(proxy.adminUrl!, paid, {
      secret: `whsec_${Buffer.from('another secret 0123456789').toString('base64')}`,
    });
    assert.equal(forged.status, 401);
    assert.equal(((await forged.json()) as { error: { code: string } }).error.code, 'unauthorized');
    const stale = await postPluginEvent(
      proxy.adminUrl!,
      { ...paid, data: { ...paid.data, order: 'wc_order_stale' } },
      { at: new Date(Date.now() - 6 * 60_000) },
    );
    assert.equal(stale.status, 401, 'a timestamp older than five minutes');
    const noToken = await postPluginEvent(proxy.adminUrl!, paid, { token: 'wrong-token-0123456789' });
    assert.equal(noToken.status, 401, 'the admin listener’s bearer token too');
    for (const raw of [
      '{',
      JSON.stringify({ type: 'order.paid', data: {} }),
      JSON.stringify({ ...paid, type: 'order.shipped' }),
    ]) {
      const response = await postPluginEvent(proxy.adminUrl!, undefined, { raw });
      assert.equal(response.status, 400, raw);
    }
    const refund = {
      type: 'order.refunded',
      timestamp: new Date().toISOString(),
      data: {
        order: 'wc_order_abc123',
        refund: 'r1',
        lines: [{ line: '7', product: '501', quantity: 1, tryon: 'kurta-indigo' }],
      },
    };
    assert.equal((await postPluginEvent(proxy.adminUrl!, refund)).status, 204);
    assert.deepEqual(await (await postPluginEvent(proxy.adminUrl!, refund)).json(), { duplicate: true });
    const lift = await liftOf(proxy.adminUrl!);
    assert.equal(lift.treatment.ordering, 2, 'the Shopify browser and the plugin’s');
    assert.deepEqual(lift.returns.triedOn, { lines: 3, refunded: 2 });
    const noGroup = { ...paid, data: { ...paid.data, order: 'wc_order_nogroup', group: null, browser: null } };
    assert.equal((await postPluginEvent(proxy.adminUrl!, noGroup)).status, 204);
    assert.equal((await liftOf(proxy.adminUrl!)).orders.none, 1, 'counted, in no group');
  });

  it('answers /usage?window=N for 1 to 90 days, and 400 for anything else', async () => {
    assert.equal((await liftOf(proxy.adminUrl!, 1)).window, 1);
    assert.equal((await liftOf(proxy.adminUrl!)).window, 30);
    for (const window of ['0', '91', 'abc', '1.5', '-3']) {
      const response = await fetch(`${proxy.adminUrl}/usage?window=${window}`, {
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      });
      assert.equal(response.status, 400, window);
    }
    const lift = await liftOf(proxy.adminUrl!, 7);
    assert.equal(lift.enough, false, 'a handful of shoppers is not enough');
    assert.equal(lift.difference.level, 0.95);
    assert.ok(lift.difference.low! <= lift.difference.points! && lift.difference.points! <= lift.difference.high!);
  });
});

describe('behind the App Proxy', () => {
  it('serves POST /shopify/webhooks without an App Proxy signature (Shopify calls it directly), verified by its HMAC under the same secret; /exposures still needs one', async () => {
    const app = createProxy({
      apiKey: 'sk_test_orders',
      baseUrl: 'http://127.0.0.1:9',
      secret: SECRET,
      allowedOrigins: [ORIGIN],
      catalog: CATALOG,
      readAsset: async () => new Uint8Array(),
      clientAddress: () => '127.0.0.1',
      log: () => {},
      shopifyAppProxy: { secret: SHOPIFY_SECRET },
    });
    const raw = JSON.stringify(shopifyOrder({ id: 860001, total: '100.00', group: 'holdout', lines: [SCARF] }));
    const post = (hmac: string) =>
      app.request('/shopify/webhooks', {
        method: 'POST',
        headers: {
          'x-shopify-topic': 'orders/create',
          'x-shopify-webhook-id': randomUUID(),
          'x-shopify-hmac-sha256': hmac,
        },
        body: raw,
      });
    const signed = await post(shopifyHmac(raw));
    assert.equal(signed.status, 200);
    assert.deepEqual(await signed.json(), { counted: true });
    const forged = await post(shopifyHmac(raw, 'another-apps-secret-0123456789'));
    assert.equal(forged.status, 401);
    const exposure = await app.request('/exposures', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: ORIGIN },
      body: JSON.stringify({ product: 'kurta-indigo', group: 'holdout' }),
    });
    assert.equal(exposure.status, 401, 'a page route still needs the App Proxy signature');
  });
});

if (SHARED_STORE_KINDS.includes('redis')) {
  describe('orders while the store cannot be reached', () => {
    it('answers 503 (so Shopify and the plugin retry) and counts nothing, never 500', async (t) => {
      // A Redis that is not there: every operation fails at once (no offline queue).
      const store = await connectRedisStore('redis://127.0.0.1:1', { waitMs: 50, commandTimeoutMs: 500 });
      const proxy = await startOrdersProxy(store);
      t.after(async () => {
        await proxy.close();
        await store.close();
      });
      const order = shopifyOrder({ id: 850001, total: '100.00', group: 'treatment', lines: [SCARF] });
      const shopify = await postShopify(proxy.url, 'orders/create', order);
      assert.equal(shopify.status, 503);
      assert.equal(((await shopify.json()) as { error: { code: string } }).error.code, 'store_unavailable');
      const paid = {
        type: 'order.paid',
        timestamp: new Date().toISOString(),
        data: { order: 'wc_2', currency: 'INR', total: '1.00', group: null, browser: null, lines: [] },
      };
      const plugin = await postPluginEvent(proxy.adminUrl!, paid);
      assert.equal(plugin.status, 503);
      assert.equal(((await plugin.json()) as { error: { code: string } }).error.code, 'store_unavailable');
      assert.equal((await postExposure(proxy.url, { product: 'kurta-indigo', group: 'holdout' })).status, 503);
    });
  });
}

for (const kind of SHARED_STORE_KINDS) {
  describe(`orders on two instances sharing the ${kind} store`, () => {
    const proxies: OrdersProxy[] = [];
    after(async () => Promise.all(proxies.map((proxy) => proxy.close())));

    it('counts the same order once, sent to both at once and again under a new id; one lift from both', async () => {
      for (const store of await sharedStores(kind, 2)) proxies.push(await startOrdersProxy(store));
      const [a, b] = proxies as [OrdersProxy, OrdersProxy];
      const browser = browserId();
      assert.equal((await postExposure(a.url, { product: 'kurta-indigo', group: 'treatment', browser })).status, 204);
      assert.equal((await postExposure(b.url, { product: 'kurta-indigo', group: 'treatment', browser })).status, 204);
      const body = shopifyOrder({ id: 830001, total: '2800.00', group: 'treatment', browser, lines: [KURTA, SCARF] });
      const webhookId = randomUUID();
      const answers = await Promise.all(
        [a, b, a, b].map(async (proxy) => (await postShopify(proxy.url, 'orders/create', body, { webhookId })).json()),
      );
      assert.equal(
        answers.filter((answer) => (answer as { counted?: boolean }).counted).length,
        1,
        JSON.stringify(answers),
      );
      assert.deepEqual(await (await postShopify(b.url, 'orders/create', body)).json(), { duplicate: true });
      const paid = {
        type: 'order.paid',
        timestamp: new Date().toISOString(),
        data: {
          order: 'wc_1',
          currency: 'INR',
          total: '100.00',
          group: 'holdout',
          browser: null,
          lines: [{ line: '1', product: '9', quantity: 1, tryon: null }],
        },
      };
      const pluginId = `msg_${randomUUID()}`;
      const statuses = await Promise.all(
        [a, b].map(async (proxy) => (await postPluginEvent(proxy.adminUrl!, paid, { webhookId: pluginId })).status),
      );
      assert.deepEqual(statuses.sort(), [200, 204]);
      const refund = shopifyRefund({ id: 940001, order: 830001, lines: [{ ...KURTA, refunded: 2 }] });
      const refunds = await Promise.all(
        [a, b].map(async (proxy) => (await postShopify(proxy.url, 'refunds/create', refund)).json()),
      );
      assert.equal(
        refunds.filter((answer) => (answer as { counted?: boolean }).counted).length,
        1,
        JSON.stringify(refunds),
      );
      const [fromA, fromB] = await Promise.all([liftOf(a.adminUrl!), liftOf(b.adminUrl!)]);
      assert.deepEqual(fromA, fromB);
      assert.deepEqual(fromA.treatment, { exposed: 1, ordering: 1, conversion: 1, revenuePerExposed: 2800 });
      assert.deepEqual(fromA.holdout, { exposed: 0, ordering: 1, conversion: 0, revenuePerExposed: 0 });
      assert.deepEqual(fromA.orders, { treatment: 1, holdout: 1, none: 0, withTryon: { treatment: 1, holdout: 0 } });
      assert.deepEqual(fromA.returns, { triedOn: { lines: 2, refunded: 2 }, other: { lines: 0, refunded: 0 } });
    });
  });
}
