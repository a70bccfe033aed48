// POST /webhooks: upstream job events, trusted only once their Standard Webhooks signature
// verifies. A verified event updates the shared status and wakes SSE listeners at once.
import { Hono } from 'hono';
import { ProxyError } from '../http/errors.js';
import { readRequestText } from '../http/streams.js';
import { parseJob } from '../upstream/answers.js';
import { webhookVerifier } from '../security/webhook-signature.js';
import type { ProxyServices } from './services.js';
import type { ProxyEnv } from '../http/request-facts.js';

/** What these routes use of the shared services: no more, so a change elsewhere cannot reach them unseen. */
type WebhookServices = Pick<ProxyServices, 'board' | 'log' | 'store' | 'webhookSecret'>;

const MAX_EVENT_BYTES = 256 * 1024;

/** How long a webhook id is remembered (in the store, for every instance) to drop redeliveries and replays. */
const REMEMBER_IDS_MS = 24 * 3600_000;

export function webhookRoutes(services: WebhookServices): Hono<ProxyEnv> {
  const app = new Hono<ProxyEnv>();
  const verify = services.webhookSecret ? webhookVerifier(services.webhookSecret) : undefined;
  app.post('/', async (c) => {
    // Without a secret nothing can be verified, so nothing is trusted.
    if (!verify)
      throw new ProxyError(
        401,
        'invalid_signature',
        'Webhooks are not enabled on this proxy (no TRYON_WEBHOOK_SECRET).',
      );
    const body = await readRequestText(
      c.req.raw,
      MAX_EVENT_BYTES,
      () => new ProxyError(413, 'invalid_request', 'The event is too large.'),
    );
    if (!verify(c.req.raw.headers, body)) {
      services.log({ level: 'warn', event: 'webhook_refused', reason: 'signature' });
      throw new ProxyError(401, 'invalid_signature', 'The webhook signature did not verify.');
    }
    // Upstream retries keep the webhook-id: a delivery seen before is acknowledged, not re-applied.
    const id = c.req.header('webhook-id')!;
    if (!(await services.store.firstDelivery(id, REMEMBER_IDS_MS))) {
      services.log({ event: 'webhook_duplicate' });
      return c.body(null, 204);
    }
    let event: { type?: unknown; data?: unknown };
    try {
      event = JSON.parse(body) as typeof event;
    } catch {
      throw new ProxyError(400, 'invalid_request', 'The event is not JSON.');
    }
    let known = false;
    try {
      const job = parseJob(event.data);
      known = await services.board.update(job);
    } catch (error) {
      // A signed event we cannot use is acknowledged anyway: retrying it would not help.
      services.log({
        level: 'warn',
        event: 'webhook_unusable',
        type: String(event.type ?? ''),
        code: (error as { code?: string }).code ?? 'unknown',
      });
    }
    services.log({ event: 'webhook', type: String(event.type ?? ''), known });
    return c.body(null, 204);
  });
  return app;
}
