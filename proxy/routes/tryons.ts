// POST /tryons starts a try-on of a catalog product (or one of its variants) on an uploaded
// photo; GET /tryons/{h} answers its status with signed file URLs; GET /tryons/{h}/events streams
// the same as SSE (routes/tryon-events.ts). The catalog decides mode, garment (a variant's over
// the product's), tier, background, pose and provider; the browser may only name a variant the
// catalog lists, narrow the views the product offers and ask for video where it is offered.
import { Hono } from 'hono';
import { ProxyError, UpstreamRejected } from '../http/errors.js';
import { creditsFor } from '../money/prices.js';
import { refusalError } from '../money/spend-ledger.js';
import { rateLimit } from '../limits/rate-limit.js';
import { openForRead } from '../photos/read-gate.js';
import { logConsent } from '../tryons/consent-log.js';
import { readTryonRequest } from '../tryons/request.js';
import { StatusAnswers, mountBase, readPreview } from '../tryons/status-answer.js';
import { viewsToRender } from '../tryons/views.js';
import { productAsVariant, type VariantEntry, type View } from '../catalog/catalog.js';
import {
  asDraft,
  checkColourDraft,
  colourDraftsOf,
  DRAFT_VIEWS,
  firstLookKeyParts,
  firstLookOf,
} from '../tryons/first-look.js';
import { pictureOf } from '../tryons/picture.js';
import { openLayerBase, piecesOf } from '../tryons/outfits/layer.js';
import { readCartReport } from '../tryons/outfits/cart-report.js';
import { cartCounters, outfitCounters } from '../money/usage-book.js';
import { openUnforgotten } from '../photos/revocations.js';
import { productImageOf, tryonRequestBody } from '../tryons/upstream-body.js';
import { upstreamStartedNothing } from '../upstream/transport.js';
import { tryonEvents } from './tryon-events.js';
import type { ProxyServices } from './services.js';
import type { ProxyEnv } from '../http/request-facts.js';
import type { ProxyLimits } from '../limits/limits.js';
import type { UpstreamJob } from '../upstream/client.js';
import type { TryonPlan } from '../tryons/status-store.js';
import { noStoreJsonText } from '../http/no-store-json.js';

/** What these routes use of the shared services: no more, so a change elsewhere cannot reach them unseen. */
type TryonServices = Pick<
  ProxyServices,
  | 'alerts'
  | 'background'
  | 'board'
  | 'client'
  | 'findProduct'
  | 'garmentFiles'
  | 'handles'
  | 'hashClient'
  | 'idempotencyKey'
  | 'limits'
  | 'log'
  | 'metrics'
  | 'now'
  | 'prices'
  | 'publicUrl'
  | 'reads'
  | 'revocations'
  | 'spend'
  | 'upstream'
  | 'usage'
  | 'writes'
>;

export type { TryonStatusBody } from '../tryons/status-answer.js';

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

/** The refusal names the shopper's picture (`person_image`) among the files it does not know. */
const personUnknown = (error: unknown) => error instanceof UpstreamRejected && error.fields.includes('person_image');

/**
 * The refusal may be about the catalog's image: it names it, or names no field at all (then the
 * garment is uploaded again on the chance, as before upstream named fields).
 */
const garmentMaybeUnknown = (error: unknown) =>
  error instanceof UpstreamRejected &&
  (error.fields.length === 0 || error.fields.some((f) => f === 'garment_image' || f === 'reference_person_image'));

/**
 * Upstream no longer knows the shopper's photo (it restarted, or kept it less long than the photo
 * handle lives): only the shopper can send it again. 410, never a 5xx, so the widget asks for it.
 */
const photoExpired = () =>
  new ProxyError(410, 'photo_expired', 'The try-on service no longer has this photo; please send it again.', false);

/** One upstream job a POST /tryons submits: the try-on itself, or its first look. */
interface Submission {
  role: 'tryon' | 'preview';
  key: string;
  product: VariantEntry;
  views: View[];
  output: 'image' | 'video';
  /** Whether any submit of it may have started it upstream (then its reservation is never given back). */
  mayHaveStarted: boolean;
}

/**
 * Submits the jobs one after another (the try-on, then its first look), each with its own
 * idempotency key and its own ticket against a forget of the photo, settles each one's
 * reservation by how its submit ended, and seeds each accepted job on the status board. When the
 * try-on's submit fails, its first look is not submitted at all: its reservation is given back
 * (upstream surely started nothing for it).
 */
async function submitAll(
  services: TryonServices,
  requestId: string,
  photo: {
    id: string;
    fileId: string;
    expiresAt: number;
    catalogImage?: string | undefined;
    output?: string | undefined;
  },
  image: { path: string; kind: 'garment' | 'person' },
  jobs: Submission[],
  /** The client's limit key: kept in the try-on's plan, so a rerender counts where the try-on did. */
  client: string,
): Promise<Map<Submission['role'], { job?: UpstreamJob; error?: unknown }>> {
  let productFileId = '';
  const submit = async (each: Submission): Promise<UpstreamJob> => {
    productFileId = await services.garmentFiles.fileId(image.path, image.kind);
    // The photo may have been forgotten since it was opened (the garment upload can take a
    // while): checked again as the submit is let out, in one step with counting it as under
    // way, so a forget either stops it here or waits for it (forgetPhoto).
    const ticket = await services.revocations.beginSubmit(photo.id, submitWindowMs(services.limits));
    if (!ticket) throw new ProxyError(404, 'invalid_handle', 'This photo link is not valid.');
    try {
      return await services.upstream.submitTryon(
        each.output,
        tryonRequestBody({
          product: each.product,
          personFileId: photo.fileId,
          productFileId,
          views: each.views,
          output: each.output,
          idempotencyKey: each.key,
        }),
      );
    } catch (error) {
      // A timeout, a 5xx, an unreadable answer (even when a later attempt was refused): upstream
      // may have started it, so its reservation is never given back and the budget cannot under-count.
      if (!upstreamStartedNothing(error)) each.mayHaveStarted = true;
      throw error;
    } finally {
      await services.revocations.endSubmit(photo.id, ticket).catch(() => {
        // Its ticket lapses by itself; until then a forget of this photo waits for it.
        services.log({ level: 'warn', event: 'submit_ticket_kept', photo: photo.id, requestId });
      });
    }
  };
  const results = new Map<Submission['role'], { job?: UpstreamJob; error?: unknown }>();
  for (const each of jobs) {
    if (each.role === 'preview' && results.get('tryon')?.error !== undefined) {
      await services.spend.settle(each.key, 'refused');
      continue;
    }
    let job: UpstreamJob;
    try {
      try {
        job = await submit(each);
      } catch (error) {
        // A remembered garment file id can outlive upstream's copy (a restart with a saved cache):
        // upload the garment again and try once more. The shopper's own photo cannot be uploaded
        // again by the proxy (it keeps no copy): 410 photo_expired; a model's picture can.
        if (!isUnknownFile(error)) throw error;
        if (garmentMaybeUnknown(error)) await services.garmentFiles.forget(image.path, image.kind, productFileId);
        if (personUnknown(error)) {
          if (photo.output !== undefined) {
            // An outfit's base result: the proxy can send it again, as it can a model's picture.
            await services.garmentFiles.forgetOutput(photo.output, photo.fileId);
            photo.fileId = await services.garmentFiles.outputAsPerson(photo.output);
          } else {
            if (!photo.catalogImage) throw photoExpired();
            await services.garmentFiles.forget(photo.catalogImage, 'person', photo.fileId);
            photo.fileId = await services.garmentFiles.fileId(photo.catalogImage, 'person');
          }
        }
        try {
          job = await submit(each);
        } catch (again) {
          if (isUnknownFile(again) && personUnknown(again) && !photo.catalogImage && photo.output === undefined)
            throw photoExpired();
          throw again;
        }
      }
    } catch (error) {
      await services.spend.settle(each.key, each.mayHaveStarted ? 'unknown' : 'refused');
      results.set(each.role, { error });
      continue;
    }
    await services.spend.settle(each.key, 'accepted');
    // Seeded at once, before the next submit: upstream's webhooks for it may already be on their
    // way, and only a seeded job's are recognised.
    // The try-on's plan (not its first look's): what its result is checked against and a rerender made from.
    const plan: TryonPlan | undefined =
      each.role === 'tryon'
        ? {
            product: each.product.id,
            ...(each.product.variant === undefined ? {} : { variant: each.product.variant }),
            views: each.views,
            output: each.output,
            photoId: photo.id,
            client,
            personFileId: photo.fileId,
            keepUntil: photo.expiresAt * 1000,
            key: each.key,
            ...(photo.output ? { over: true as const } : {}),
          }
        : undefined;
    await services.board.seed(job, { product: each.product.id, tier: each.product.tier }, plan);
    results.set(each.role, { job });
  }
  return results;
}

export function tryonRoutes(services: TryonServices): Hono<ProxyEnv> {
  const app = new Hono<ProxyEnv>();
  const writes = rateLimit(services.writes, services.client);
  const answers = new StatusAnswers(services, mountBase(services));

  app.post('/', writes, async (c) => {
    const request = await readTryonRequest(c.req.raw, services.limits);
    const listed = await services.findProduct(request.product);
    if (!listed) throw new ProxyError(404, 'unknown_product', 'This product has no try-on.');
    // Switched off in the catalog: GET /products says available: false, and nothing is spent on it.
    if (listed.enabled === false) throw new ProxyError(404, 'unknown_product', 'This product has no try-on.');
    const chosen = productAsVariant(listed, request.variant);
    if (!chosen) throw new ProxyError(422, 'unknown_variant', 'This colour or size of the product has no try-on.');
    const colourDraft = request.quality === 'preview';
    if (colourDraft) checkColourDraft(chosen, request);
    // A piece of an outfit is put on the base try-on's result, and is of its photo.
    if (request.over !== undefined && request.output === 'video')
      throw new ProxyError(422, 'video_not_offered', 'A piece added to an outfit is shown as a picture, not a video.');
    const layer =
      request.over === undefined ? undefined : await openLayerBase(services, request.over, chosen, request.views);
    const photo = layer
      ? {
          id: layer.claims.photoId,
          fileId: layer.personFileId,
          expiresAt: layer.claims.expiresAt,
          output: layer.outputFileId,
        }
      : await pictureOf(services, services.client(c), chosen, request);
    // A colour draft is a draft of the front view, whatever the product's own tier and views.
    const product = colourDraft ? asDraft(chosen) : chosen;
    const output = request.output ?? 'image';
    const views = colourDraft ? DRAFT_VIEWS : (layer?.views ?? viewsToRender(product, output, request.views));

    // The variant joins the key only when chosen, so a try-on without one keeps the key it always had;
    // a colour draft's part keeps the request's own word (`quality=preview`), since upstream holds
    // the keys made with it.
    const key = await services.idempotencyKey([
      photo.fileId,
      product.id,
      views.join(','),
      output,
      request.requestId,
      ...(product.variant === undefined ? [] : [`variant=${product.variant}`]),
      ...(colourDraft ? ['quality=preview'] : []),
      ...(request.model === undefined ? [] : [`model=${request.model}`]),
      ...(layer ? [`over=${layer.claims.jobId}`] : []),
    ]);
    // The first look: the catalog's choice, which the browser may only turn off.
    const firstLook =
      !colourDraft && firstLookOf(product) === 'draft' && request.preview !== 'off'
        ? {
            key: await services.idempotencyKey(firstLookKeyParts(key)),
            credits: creditsFor(services.prices, 'draft', 'image', DRAFT_VIEWS.length),
          }
        : undefined;
    // Reserved in every daily limit before upstream is asked: a burst cannot overspend. The first
    // look in the same step, and only if the credits still cover it.
    const credits = creditsFor(services.prices, product.tier, output, views.length);
    const reservation = await services.spend.reserve({
      key,
      photoId: photo.id,
      client: services.client(c),
      credits,
      keepUntil: photo.expiresAt * 1000,
      ...(colourDraft ? { kind: 'colour_preview' as const, colourPreviewCap: colourDraftsOf(chosen) } : {}),
      ...(firstLook ? { preview: firstLook } : {}),
    });
    if (!reservation.granted) {
      if (services.alerts && (reservation.refusal === 'daily_tryons' || reservation.refusal === 'daily_credits')) {
        services.background(c, services.alerts.check(true), 'budget_alert_failed');
      }
      throw refusalError(reservation.refusal, services.limits, services.now());
    }
    if (firstLook && !reservation.preview) {
      // A retry never reserves anything new: its first request went without one, or gave it back.
      services.log({
        level: 'warn',
        event: 'first_look_skipped',
        reason: reservation.retry ? 'not_held_for_retry' : 'daily_credits',
        product: product.id,
        requestId: c.get('requestId'),
      });
    }

    const jobs: Submission[] = [
      // The try-on first, then its first look (a fixed order upstream sees): a try-on upstream
      // refuses starts no first look, and a fault injected for "the next job" meets the try-on.
      { role: 'tryon', key, product, views, output, mayHaveStarted: false },
      ...(firstLook && reservation.preview
        ? [
            {
              role: 'preview' as const,
              key: firstLook.key,
              product: asDraft(product),
              views: DRAFT_VIEWS,
              output: 'image' as const,
              mayHaveStarted: false,
            },
          ]
        : []),
    ];
    const submitted = await submitAll(
      services,
      c.get('requestId'),
      photo,
      productImageOf(product),
      jobs,
      services.client(c),
    );
    const main = submitted.get('tryon')!;
    const preview = submitted.get('preview');
    if (main.error !== undefined) throw main.error;
    if (preview?.error !== undefined) {
      services.log({
        level: 'warn',
        event: 'first_look_failed',
        code: (preview.error as { code?: string }).code ?? 'unknown',
        product: product.id,
        requestId: c.get('requestId'),
      });
    }
    const job = main.job!;
    // For the merchant's GET /usage; a book that cannot be written must not fail a try-on already charged.
    const unwritten = (error: Error) =>
      services.log({ level: 'warn', event: 'usage_unwritten', requestId: c.get('requestId'), message: error.message });
    const keepMs = services.limits.tryonTtlSeconds * 1000;
    if (!reservation.retry) {
      services.metrics.tryonStarted(product.id, product.tier, credits);
      await services.usage.tryonStarted(job.id, product.id, credits, keepMs).catch(unwritten);
      if (layer) await services.usage.count(outfitCounters(layer.pieces)).catch(unwritten);
    }
    if (preview?.job && !reservation.preview?.retry) {
      services.metrics.tryonStarted(product.id, 'draft', firstLook!.credits);
      await services.usage.previewStarted(preview.job.id, product.id, firstLook!.credits, keepMs).catch(unwritten);
    }
    if (services.alerts && (!reservation.retry || (preview?.job && !reservation.preview?.retry))) {
      services.background(c, services.alerts.check(), 'budget_alert_failed');
    }
    // A photo given by a hand-off carries the consent the shopper gave on their phone: that is the one recorded.
    const phone = 'phoneConsent' in photo ? photo.phoneConsent : undefined;
    await logConsent(services, {
      product: product.id,
      photo: photo.id,
      client: services.client(c),
      requestId: c.get('requestId'),
      consentVersion:
        request.model !== undefined || layer ? undefined : phone ? phone.version || undefined : request.consentVersion,
      consentLanguage:
        request.model !== undefined || layer
          ? undefined
          : phone
            ? phone.language || undefined
            : request.consentLanguage,
      source: layer ? 'outfit' : request.model !== undefined ? 'model' : phone ? 'handoff' : 'photo',
      ...(request.model !== undefined ? { model: request.model } : {}),
    });
    const { handle } = await services.handles.mint(
      'tryon',
      {
        jobId: job.id,
        product: product.id,
        views,
        output,
        photoId: photo.id,
        ...(preview?.job ? { previewJobId: preview.job.id } : {}),
        ...(product.variant === undefined ? {} : { variant: product.variant }),
        ...(layer ? { pieces: layer.pieces } : {}),
      },
      services.limits.tryonTtlSeconds,
      // A piece lives no longer than the try-on it is on: its photo's retention holds for it too.
      layer
        ? Math.min(layer.claims.expiresAt, Math.floor(services.now() / 1000) + services.limits.tryonTtlSeconds)
        : undefined,
    );
    return c.json({ tryon: handle, status: job.status, views, ...(layer ? { pieces: layer.pieces } : {}) }, 202);
  });

  // One rate-limit decision and one revocation check (one store round trip where the store is remote).
  app.get('/:handle', async (c) => {
    const handle = c.req.param('handle');
    const claims = await openForRead(services, c, 'tryon', handle);
    const [snapshot, preview] = await Promise.all([services.board.read(claims.jobId), readPreview(services, claims)]);
    return noStoreJsonText(await answers.text(handle, claims, snapshot, preview));
  });

  app.get('/:handle/events', tryonEvents(services));

  // The cart report: "Add the look to cart" put this outfit's pieces in the cart (docs/proxy.md,
  // "Outfits"). Counted for GET /usage; the try-on's handle proves which outfit, and only its own
  // pieces are counted.
  app.post('/:handle/cart', writes, async (c) => {
    const claims = await openUnforgotten(services, 'tryon', c.req.param('handle'));
    const added = await readCartReport(c.req.raw, services.limits, piecesOf(claims));
    await services.usage.count(cartCounters(added)).catch((error: Error) =>
      services.log({
        level: 'warn',
        event: 'usage_unwritten',
        requestId: c.get('requestId'),
        message: error.message,
      }),
    );
    return c.body(null, 204);
  });

  return app;
}
