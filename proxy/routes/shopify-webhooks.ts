// POST /shopify/webhooks: Shopify's `orders/create` and `refunds/create` for the lift report
// (orders/). Called by Shopify's servers, so not behind the origin check or the App Proxy
// signature: its own proof is `X-Shopify-Hmac-Sha256` over the raw body under the app's client
// secret (TRYON_SHOPIFY_APP_SECRET), checked before a byte is parsed. A delivery is counted once
// by `X-Shopify-Webhook-Id` and its order once by the order's hash, both in the shared store, in
// the same atomic step as the counting. Shopify retries anything but a 2xx for 48 hours: a topic
// the proxy does not count is answered 200 and ignored; a body that is not an order is 400.
import { Hono } from 'hono';
import { ProxyError } from '../http/errors.js';
import { readRequestBytes } from '../http/streams.js';
import { shopifyWebhookSigned } from '../security/shopify-webhook.js';
import { shopifyOrder, shopifyRefund } from '../orders/order-marks.js';
import type { ProxyServices } from './services.js';
import type { ProxyEnv } from '../http/request-facts.js';

type ShopifyWebhookServices = Pick<ProxyServices, 'orders' | 'log' | 'shopifyAppSecret'>;

/** An order with a thousand lines is well under this; more is not an order Shopify sends. */
export const MAX_SHOPIFY_WEBHOOK_BYTES = 1024 * 1024;

const COUNTED_TOPICS = ['orders/create', 'refunds/create'] as const;

export function shopifyWebhookRoutes(services: ShopifyWebhookServices): Hono<ProxyEnv> {
  const app = new Hono<ProxyEnv>();
  app.post('/webhooks', async (c) => {
    const secret = services.shopifyAppSecret;
    if (!secret)
      throw new ProxyError(
        401,
        'invalid_signature',
        "Shopify webhooks are not enabled on this proxy (no TRYON_SHOPIFY_APP_SECRET, the app's client secret).",
      );
    const body = await readRequestBytes(
      c.req.raw,
      MAX_SHOPIFY_WEBHOOK_BYTES,
      () => new ProxyError(413, 'invalid_request', 'The webhook is too large.'),
    );
    if (!(await shopifyWebhookSigned(secret, body, c.req.header('x-shopify-hmac-sha256')))) {
      services.log({ level: 'warn', event: 'shopify_webhook_refused', reason: 'signature' });
      throw new ProxyError(401, 'invalid_signature', 'The Shopify webhook signature did not verify.');
    }
    const topic = c.req.header('x-shopify-topic') ?? '';
    if (!(COUNTED_TOPICS as readonly string[]).includes(topic)) {
      services.log({ event: 'shopify_webhook', topic: topic.slice(0, 64), outcome: 'ignored' });
      return c.json({ ignored: true });
    }
    const delivery = c.req.header('x-shopify-webhook-id') ?? '';
    if (!/^[\x21-\x7e]{1,200}$/.test(delivery))
      throw new ProxyError(400, 'invalid_request', 'The webhook has no X-Shopify-Webhook-Id.');
    let json: unknown;
    try {
      json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
    } catch {
      throw new ProxyError(400, 'invalid_request', 'The webhook body is not JSON.');
    }
    const parsed = topic === 'orders/create' ? shopifyOrder.safeParse(json) : shopifyRefund.safeParse(json);
    if (!parsed.success)
      throw new ProxyError(
        400,
        'invalid_request',
        `The webhook body is not a Shopify ${topic === 'orders/create' ? 'order' : 'refund'}: ${parsed.error.issues
          .slice(0, 3)
          .map((issue) => `${issue.path.join('.') || '(body)'} ${issue.message}`)
          .join('; ')}`,
      );
    const outcome =
      'total' in parsed.data
        ? await services.orders.order('shopify', delivery, parsed.data)
        : await services.orders.refund('shopify', delivery, parsed.data);
    services.log({ event: 'shopify_webhook', topic, outcome });
    return c.json(
      outcome === 'counted' ? { counted: true } : outcome === 'duplicate' ? { duplicate: true } : { ignored: true },
    );
  });
  return app;
}
