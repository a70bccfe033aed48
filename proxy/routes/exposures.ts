// POST /exposures: the widget says a shopper in a group was shown a product page (with the try-on
// in the treatment, without it in the holdout), for the lift report's exposed browsers (orders/).
// A page's route: behind the origin check, and rate limited against the reads allowance (a page
// view is cheap; it must not spend the try-on's writes). Counted once per browser per day; with no
// browser id (no consent to measure), once per request.
import { Hono } from 'hono';
import { ProxyError } from '../http/errors.js';
import { readRequestText } from '../http/streams.js';
import { rateLimit } from '../limits/rate-limit.js';
import { exposureReport } from '../orders/order-marks.js';
import type { ProxyServices } from './services.js';
import type { ProxyEnv } from '../http/request-facts.js';

type ExposureServices = Pick<ProxyServices, 'orders' | 'reads' | 'client'>;

export const MAX_EXPOSURE_BYTES = 1024;

export function exposureRoutes(services: ExposureServices): Hono<ProxyEnv> {
  const app = new Hono<ProxyEnv>();
  app.post('/', rateLimit(services.reads, services.client), async (c) => {
    const text = await readRequestText(
      c.req.raw,
      MAX_EXPOSURE_BYTES,
      () => new ProxyError(413, 'invalid_request', 'An exposure report is at most 1 KB.'),
    );
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new ProxyError(400, 'invalid_request', 'The exposure report is not JSON.');
    }
    const parsed = exposureReport.safeParse(json);
    if (!parsed.success)
      throw new ProxyError(
        400,
        'invalid_request',
        'An exposure report is {"product", "group": "treatment" | "holdout", "browser"?: 22–64 characters of [A-Za-z0-9_-]}.',
      );
    await services.orders.exposure(parsed.data.group, parsed.data.browser);
    return c.body(null, 204);
  });
  return app;
}
