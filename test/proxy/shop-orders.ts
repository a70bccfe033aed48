// What the order tests share: a proxy (public and admin listeners, over loopback) that takes
// orders, Shopify-shaped order and refund bodies signed as Shopify signs them (node:crypto's HMAC,
// not the proxy's own code), the WooCommerce plugin's events signed with Standard Webhooks, the
// widget's exposure reports, and the lift read back from GET /usage.
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { startProxy, type StartedProxy } from '../../proxy/node.js';
import type { ProxyStore } from '../../proxy/store/store.js';
import type { Lift } from '../../proxy/orders/lift.js';
import { CATALOG, SECRET } from './stack.js';

export const SHOPIFY_SECRET = 'shpss_test-app-client-secret-0123456789';
export const ORDERS_SECRET = `whsec_${randomBytes(24).toString('base64')}`;
export const ADMIN_TOKEN = 'orders-admin-token-0123456789';
export const ORIGIN = 'https://shop.example';

export interface OrdersProxy extends StartedProxy {
  logs: Record<string, unknown>[];
}

/** A proxy taking orders on `store` (default memory); no upstream is ever called by these routes. */
export async function startOrdersProxy(store?: ProxyStore): Promise<OrdersProxy> {
  const logs: Record<string, unknown>[] = [];
  const proxy = await startProxy({
    apiKey: 'sk_test_orders',
    // Nothing here calls upstream: a closed port, so a call would fail loudly.
    baseUrl: 'http://127.0.0.1:9',
    secret: SECRET,
    allowedOrigins: [ORIGIN],
    catalog: CATALOG,
    shopifyAppSecret: SHOPIFY_SECRET,
    adminToken: ADMIN_TOKEN,
    ordersSecret: ORDERS_SECRET,
    log: (entry) => logs.push(entry),
    // Every simulated shopper comes from 127.0.0.1: no allowance may stand in the way.
    limits: { readsPerMinute: 1_000_000_000 },
    ...(store ? { store } : {}),
  });
  return Object.assign(proxy, { logs });
}

export interface ShopifyLine {
  id: number;
  product_id: number;
  quantity: number;
  price: string;
  tryon?: string;
}

/** An `orders/create` body shaped as Shopify sends it (trimmed of what the proxy never reads, plus a customer it must not keep). */
export function shopifyOrder(order: {
  id: number;
  total: string;
  currency?: string;
  group?: string;
  browser?: string;
  lines: ShopifyLine[];
}): Record<string, unknown> {
  const noteAttributes = [
    ...(order.group ? [{ name: '_tryon_group', value: order.group }] : []),
    ...(order.browser ? [{ name: '_tryon_browser', value: order.browser }] : []),
  ];
  return {
    id: order.id,
    admin_graphql_api_id: `gid://shopify/Order/${order.id}`,
    name: `#${1000 + (order.id % 100_000)}`,
    order_number: 1000 + (order.id % 100_000),
    email: 'asha@example.com',
    created_at: new Date().toISOString(),
    currency: order.currency ?? 'INR',
    total_price: order.total,
    financial_status: 'paid',
    customer: { id: 1, email: 'asha@example.com', first_name: 'Asha', last_name: 'Rao' },
    shipping_address: { name: 'Asha Rao', address1: '1 MG Road', city: 'Bengaluru', zip: '560001' },
    note_attributes: noteAttributes,
    line_items: order.lines.map((line) => ({
      id: line.id,
      product_id: line.product_id,
      variant_id: line.product_id * 10,
      title: `Product ${line.product_id}`,
      quantity: line.quantity,
      price: line.price,
      properties: line.tryon ? [{ name: '_tryon', value: line.tryon }] : [],
    })),
  };
}

/** A `refunds/create` body: each refunded line carries its line item, properties and all, as Shopify's does. */
export function shopifyRefund(refund: {
  id: number;
  order: number;
  lines: (ShopifyLine & { refunded: number })[];
}): Record<string, unknown> {
  return {
    id: refund.id,
    order_id: refund.order,
    created_at: new Date().toISOString(),
    note: 'Too small',
    refund_line_items: refund.lines.map((line, i) => ({
      id: refund.id * 10 + i,
      line_item_id: line.id,
      quantity: line.refunded,
      subtotal: Number(line.price) * line.refunded,
      line_item: {
        id: line.id,
        product_id: line.product_id,
        variant_id: line.product_id * 10,
        quantity: line.quantity,
        price: line.price,
        properties: line.tryon ? [{ name: '_tryon', value: line.tryon }] : [],
      },
    })),
  };
}

/** Shopify's signature: base64 HMAC-SHA256 of the raw body under the app's client secret. */
export const shopifyHmac = (body: string | Buffer, secret = SHOPIFY_SECRET) =>
  createHmac('sha256', secret).update(body).digest('base64');

/** POSTs a webhook as Shopify does; `hmac` overrides the signature, `raw` the body. */
export async function postShopify(
  proxyUrl: string,
  topic: string,
  body: unknown,
  options: { webhookId?: string; hmac?: string; raw?: string } = {},
): Promise<Response> {
  const raw = options.raw ?? JSON.stringify(body);
  return fetch(`${proxyUrl}/shopify/webhooks`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-shopify-topic': topic,
      'x-shopify-hmac-sha256': options.hmac ?? shopifyHmac(raw),
      'x-shopify-shop-domain': 'tryon-test.myshopify.com',
      'x-shopify-webhook-id': options.webhookId ?? randomUUID(),
      'x-shopify-api-version': '2025-10',
    },
    body: raw,
  });
}

/** POSTs the plugin's event to the admin listener, signed with Standard Webhooks (and its bearer token). */
export async function postPluginEvent(
  adminUrl: string,
  event: unknown,
  options: { webhookId?: string; secret?: string; at?: Date; raw?: string; token?: string } = {},
): Promise<Response> {
  const raw = options.raw ?? JSON.stringify(event);
  const id = options.webhookId ?? `msg_${randomUUID()}`;
  const at = options.at ?? new Date();
  const signature = new Webhook(options.secret ?? ORDERS_SECRET).sign(id, at, raw);
  return fetch(`${adminUrl}/orders`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${options.token ?? ADMIN_TOKEN}`,
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': signature,
    },
    body: raw,
  });
}

export async function postExposure(proxyUrl: string, body: unknown, origin = ORIGIN): Promise<Response> {
  return fetch(`${proxyUrl}/exposures`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** GET /usage's `lift` over `window` days. */
export async function liftOf(adminUrl: string, window?: number): Promise<Lift> {
  const response = await fetch(`${adminUrl}/usage${window === undefined ? '' : `?window=${window}`}`, {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
  });
  if (response.status !== 200) throw new Error(`GET /usage: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { lift: Lift }).lift;
}

/** A browser id as the widget makes one: 16 random bytes, base64url (22 characters). */
export const browserId = () => randomBytes(16).toString('base64url');

/** Runs `work` over `items` with at most `parallel` at once. */
export async function inParallel<T>(
  items: readonly T[],
  parallel: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(parallel, items.length) }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}
