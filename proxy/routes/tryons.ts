// POST /tryons starts a try-on of a catalog product (or one of its variants) on an uploaded
// photo; GET /tryons/{h} answers its status with signed file URLs; GET /tryons/{h}/events streams
// the same as SSE (routes/tryon-events.ts). The catalog decides mode, garment (a variant's over
// the product's), tier, background, pose and provider; the browser may only name a variant the
// catalog lists, narrow the views the product offers and ask for video where it is offered.
import { Hono } from 'hono';
import { ProxyError, UpstreamRejected } from '../errors.js';
import { creditsFor } from '../prices.js';
import { refusalError } from '../spend-ledger.js';
import { rateLimit } from '../middleware/rate-limit.js';
import { openUnforgotten } from '../photo-revocations.js';
import { logConsent } from '../tryon/consent-log.js';
import { readTryonRequest } from '../tryon/request.js';
import { mountBase, statusBody } from '../tryon/status-body.js';
import { viewsToRender } from '../tryon/views.js';
import { productAsVariant } from '../catalog.js';
import { productImageOf, tryonRequestBody } from '../upstream/tryon-body.js';
import { upstreamStartedNothing } from '../upstream/transport.js';
import { tryonEvents } from './tryon-events.js';
import type { ProxyServices, ProxyEnv } from '../context.js';
import type { ProxyLimits } from '../limits.js';
import type { UpstreamJob } from '../upstream/client.js';

export type { TryonStatusBody } from '../tryon/status-body.js';

/**
 * The longest one submit can take (every attempt timing out, with the backoff between them), and
 * a margin for the store's own calls. A submit's ticket lapses after it, should its instance die
 * mid-submit, so a forget of its photo never waits longer.
 */
const submitWindowMs = (limits: ProxyLimits) =>
  limits.upstreamTimeoutMs * (1 + limits.retries) + limits.retryBaseMs * 1.5 * (2 ** limits.retries - 1) + 5_000;

/** Upstream answers these when it no longer knows a file id we sent it. */
const isUnknownFile = (error: unknown) =>
  error instanceof UpstreamRejected && [400, 404, 422].includes(error.upstreamStatus);

export function tryonRoutes(services: ProxyServices): Hono<ProxyEnv> {
  const app = new Hono<ProxyEnv>();
  const writes = rateLimit(services.writes, services.client);
  const reads = rateLimit(services.reads, services.client);

  app.post('/', writes, async (c) => {
    const request = await readTryonRequest(c.req.raw, services.limits);
    const listed = await services.findProduct(request.product);
    if (!listed) throw new ProxyError(404, 'unknown_product', 'This product has no try-on.');
    // Switched off in the catalog: GET /products says available: false, and nothing is spent on it.
    if (listed.enabled === false) throw new ProxyError(404, 'unknown_product', 'This product has no try-on.');
    const product = productAsVariant(listed, request.variant);
    if (!product) throw new ProxyError(422, 'unknown_variant', 'This colour or size of the product has no try-on.');
    const photo = await openUnforgotten(services, 'photo', request.photo);
    const output = request.output ?? 'image';
    const views = viewsToRender(product, output, request.views);

    // The variant joins the key only when chosen, so a try-on without one keeps the key it always had.
    const key = await services.idempotencyKey([
      photo.fileId, product.id, views.join(','), output, request.requestId,
      ...(product.variant === undefined ? [] : [`variant=${product.variant}`]),
    ]);
    // Reserved in every daily limit before upstream is asked: a burst cannot overspend.
    const credits = creditsFor(services.prices, product.tier, output, views.length);
    const reservation = await services.spend.reserve({
      key, photoId: photo.id, client: services.client(c), credits, keepUntil: photo.expiresAt * 1000,
    });
    if (!reservation.granted) {
      if (services.alerts && (reservation.refusal === 'daily_tryons' || reservation.refusal === 'daily_credits')) {
        services.background(c, services.alerts.check(true), 'budget_alert_failed');
      }
      throw refusalError(reservation.refusal, services.limits, services.now());
    }

    const image = productImageOf(product);
    let productFileId = '';
    // Whether any submit of this request may have started the try-on upstream (a timeout, a 5xx,
    // an unreadable answer, even when a later attempt was refused): then the reservation is never
    // given back, so the budget cannot under-count.
    let mayHaveStarted = false;
    const submit = async () => {
      productFileId = await services.garmentFiles.fileId(image.path, image.kind);
      // The photo may have been forgotten since it was opened (the garment upload can take a
      // while): checked again as the submit is let out, in one step with counting it as under
      // way, so a forget either stops it here or waits for it (forgetPhoto).
      const ticket = await services.revocations.beginSubmit(photo.id, submitWindowMs(services.limits));
      if (!ticket) throw new ProxyError(404, 'invalid_handle', 'This photo link is not valid.');
      try {
        return await services.upstream.submitTryon(output, tryonRequestBody({
          product, personFileId: photo.fileId, productFileId, views, output, idempotencyKey: key,
        }));
      } catch (error) {
        if (!upstreamStartedNothing(error)) mayHaveStarted = true;
        throw error;
      } finally {
        await services.revocations.endSubmit(photo.id, ticket).catch(() => {
          // Its ticket lapses by itself; until then a forget of this photo waits for it.
          services.log({ level: 'warn', event: 'submit_ticket_kept', photo: photo.id, requestId: c.get('requestId') });
        });
      }
    };
    let job: UpstreamJob;
    try {
      try {
        job = await submit();
      } catch (error) {
        // A remembered garment file id can outlive upstream's copy (a restart with a saved cache):
        // upload the garment again and try once more.
        if (!isUnknownFile(error)) throw error;
        await services.garmentFiles.forget(image.path, image.kind, productFileId);
        job = await submit();
      }
    } catch (error) {
      await services.spend.settle(key, mayHaveStarted ? 'unknown' : 'refused');
      throw error;
    }
    await services.spend.settle(key, 'accepted');
    if (!reservation.retry) {
      services.metrics.tryonStarted(product.id, product.tier, credits);
      // For the merchant's GET /usage; a book that cannot be written must not fail a try-on already charged.
      await services.usage.tryonStarted(job.id, product.id, credits, services.limits.tryonTtlSeconds * 1000).catch((error: Error) =>
        services.log({ level: 'warn', event: 'usage_unwritten', requestId: c.get('requestId'), message: error.message }));
      if (services.alerts) services.background(c, services.alerts.check(), 'budget_alert_failed');
    }
    await services.board.seed(job, { product: product.id, tier: product.tier });
    await logConsent(services, {
      product: product.id, photo: photo.id, client: services.client(c), requestId: c.get('requestId'),
      consentVersion: request.consentVersion, consentLanguage: request.consentLanguage,
    });
    const { handle } = await services.handles.mint('tryon',
      { jobId: job.id, product: product.id, views, output, photoId: photo.id }, services.limits.tryonTtlSeconds);
    return c.json({ tryon: handle, status: job.status, views }, 202);
  });

  app.get('/:handle', reads, async (c) => {
    const claims = await openUnforgotten(services, 'tryon', c.req.param('handle'));
    const snapshot = await services.board.read(claims.jobId);
    c.header('cache-control', 'no-store');
    return c.json(await statusBody(services, claims, snapshot, mountBase(services, c.req.path)));
  });

  app.get('/:handle/events', reads, tryonEvents(services));

  return app;
}
