// POST /orders on the admin listener (admin.ts): the WooCommerce plugin's paid orders and refunds
// for the lift report (orders/). Behind the admin token like everything on that listener, and
// signed with Standard Webhooks under TRYON_ORDERS_SECRET (whsec_…): the token says who may call,
// the signature proves the body and its time (more than five minutes off is refused, so a captured
// event cannot be replayed later). A delivery is counted once by its `webhook-id` and an order once
// by its hash, in the same atomic step as the counting; a store that cannot be reached is 503, so
// the plugin retries.
import { Hono } from 'hono';
import { ProxyError } from '../http/errors.js';
import { readRequestText } from '../http/streams.js';
import { webhookVerifier } from '../security/webhook-signature.js';
import { pluginEvent, pluginFacts } from '../orders/order-marks.js';
import type { OrderIntake } from '../orders/orders-in.js';
import type { ProxyEnv } from '../http/request-facts.js';
import type { Log } from '../operator/log.js';

export const MAX_ORDER_EVENT_BYTES = 256 * 1024;

export interface OrderRouteOptions {
  intake: OrderIntake;
  /** TRYON_ORDERS_SECRET (whsec_<base64>); without it every event is refused 503, so the plugin keeps it for later. */
  secret?: string | undefined;
  log: Log;
}

export function orderRoutes(options: OrderRouteOptions): Hono<ProxyEnv> {
  const verify = options.secret ? webhookVerifier(options.secret) : undefined;
  const app = new Hono<ProxyEnv>();
  app.post('/orders', async (c) => {
    if (!verify)
      throw new ProxyError(
        503,
        'proxy_misconfigured',
        'Orders are not enabled on this proxy (no TRYON_ORDERS_SECRET): the event was not counted.',
        true,
      );
    const body = await readRequestText(
      c.req.raw,
      MAX_ORDER_EVENT_BYTES,
      () => new ProxyError(413, 'invalid_request', 'The event is too large.'),
    );
    if (!verify(c.req.raw.headers, body)) {
      options.log({ level: 'warn', event: 'orders_refused', reason: 'signature' });
      throw new ProxyError(
        401,
        'unauthorized',
        'The event signature did not verify (or its timestamp is more than five minutes off).',
      );
    }
    const delivery = c.req.header('webhook-id')!;
    if (delivery.length > 200) throw new ProxyError(400, 'invalid_request', 'The webhook-id is too long.');
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      throw new ProxyError(400, 'invalid_request', 'The event is not JSON.');
    }
    const parsed = pluginEvent.safeParse(json);
    if (!parsed.success)
      throw new ProxyError(
        400,
        'invalid_request',
        `The event is not an order.paid or order.refunded: ${parsed.error.issues
          .slice(0, 3)
          .map((issue) => `${issue.path.join('.') || '(body)'} ${issue.message}`)
          .join('; ')}`,
      );
    const facts = pluginFacts(parsed.data);
    const outcome =
      facts.kind === 'order'
        ? await options.intake.order('shop', delivery, facts.order)
        : await options.intake.refund('shop', delivery, facts.refund);
    options.log({ event: 'orders_event', type: parsed.data.type, outcome });
    c.header('cache-control', 'no-store');
    if (outcome === 'duplicate') return c.json({ duplicate: true });
    if (outcome === 'unknown_order') return c.json({ ignored: true, reason: 'unknown_order' });
    return c.body(null, 204);
  });
  return app;
}
