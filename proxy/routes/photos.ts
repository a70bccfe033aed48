// POST /photos: the shopper's photo, checked by its first bytes and streamed on to /v1/files
// as kind=person. Answers a photo handle; the upstream file id never reaches the browser.
import { Hono, type MiddlewareHandler } from 'hono';
import { randomId } from '../security/crypto.js';
import { ProxyError } from '../http/errors.js';
import { handoffCodeOf, handoffRefusal, newPairing, receiptFor } from '../photos/phone-handoffs.js';
import { isProxyError } from '../http/errors.js';
import { rateLimit } from '../limits/rate-limit.js';
import { forgetPhoto, lastHandleExpiry } from '../photos/revocations.js';
import { openPhotoPart, tooLargeError, type PhotoPart } from '../photos/upload.js';
import { timedBody, uploadTimeoutError } from '../http/upload-deadlines.js';
import { drainUnread, refuseDeclaredLength } from '../http/streams.js';
import type { ProxyServices } from './services.js';
import type { ProxyEnv } from '../http/request-facts.js';

/** What these routes use of the shared services: no more, so a change elsewhere cannot reach them unseen. */
type PhotoServices = Pick<
  ProxyServices,
  'client' | 'handles' | 'limits' | 'log' | 'now' | 'revocations' | 'store' | 'upstream' | 'writes'
>;

/** Room for the multipart framing around the photo itself. */
const FRAMING_BYTES = 64 * 1024;

/**
 * Whatever refused an upload (a limit, the photo check, upstream), reads what is left of it so the
 * browser gets our answer rather than a reset connection, and closes the connection after it. The
 * reading is bounded in bytes and in time (the upload deadlines), and skipped when the declared
 * length already says it would not end within the bound: then the answer goes out at once.
 */
function answerRefusedUpload(
  drainBudget: number,
  limits: { uploadIdleMs: number; uploadTotalMs: number },
): MiddlewareHandler<ProxyEnv> {
  return async (c, next) => {
    await next();
    if (!c.error) return;
    const body = c.req.raw.body;
    const declared = Number(c.req.header('content-length') ?? undefined);
    const hopeless = Number.isFinite(declared) && declared > drainBudget;
    if (body && !body.locked && !hopeless) await drainUnread(timedBody(body, limits).stream, drainBudget);
    if (isProxyError(c.error)) c.res.headers.set('connection', 'close');
  };
}

/** The small fields a hand-off upload sends before its photo. */
const HANDOFF_FIELDS = ['handoff', 'consent', 'consentVersion', 'consentLanguage'] as const;
const CONSENT_VERSION = /^[0-9a-f]{16,64}$/;
const CONSENT_LANGUAGE = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8}){0,3}$/;

/**
 * A hand-off upload's code (waiting, else 404/409/410 before anything is uploaded) and the consent
 * the shopper gave on the phone, which the desktop's try-on then records as theirs.
 */
async function handoffOf(
  services: PhotoServices,
  fields: Record<string, string>,
): Promise<{ code: string; consent: { version: string; language: string } }> {
  const code = handoffCodeOf(fields.handoff ?? '');
  if (!code) throw handoffRefusal('unknown');
  if (fields.consent !== 'true')
    throw new ProxyError(422, 'consent_required', 'Please confirm that you agree before we use your photo.');
  const version = fields.consentVersion ?? '';
  const language = fields.consentLanguage ?? '';
  if (version !== '' && !CONSENT_VERSION.test(version))
    throw new ProxyError(422, 'validation_failed', 'consentVersion: must be 16 to 64 lowercase hex digits');
  if (language !== '' && !CONSENT_LANGUAGE.test(language))
    throw new ProxyError(422, 'validation_failed', 'consentLanguage: must be a language tag such as hi or bn-IN');
  const receipt = receiptFor(await services.store.handoffByCode(code), services.now());
  if (receipt !== 'waiting') throw handoffRefusal(receipt);
  return { code, consent: { version, language } };
}

export function photoRoutes(services: PhotoServices): Hono<ProxyEnv> {
  const app = new Hono<ProxyEnv>();
  const { limits } = services;
  const maxBody = limits.uploadBytes + FRAMING_BYTES;
  app.post('/', answerRefusedUpload(maxBody, limits), rateLimit(services.writes, services.client), async (c) => {
    const tooLarge = () => tooLargeError(limits.uploadBytes);
    refuseDeclaredLength(c.req.raw.headers, maxBody, tooLarge);
    // Timed from here: an upload that stalls (before or inside the photo) or crawls is cut with 408.
    const body = c.req.raw.body ? timedBody(c.req.raw.body, limits) : undefined;
    let part: PhotoPart | undefined;
    try {
      part = await openPhotoPart(body?.stream ?? null, c.req.header('content-type'), 'photo', limits, HANDOFF_FIELDS);
      // A phone's photo for a desktop's hand-off: its code and consent are judged before anything goes upstream.
      const handoff = part.fields.handoff === undefined ? undefined : await handoffOf(services, part.fields);
      const { id: fileId } = await services.upstream.uploadFile(part.stream, {
        kind: 'person',
        contentType: part.type.contentType,
        filename: `photo.${part.type.extension}`,
      });
      const { handle, expiresAt } = await services.handles.mint(
        'photo',
        {
          id: randomId(),
          fileId,
          ...(handoff ? { phoneConsent: handoff.consent } : {}),
        },
        limits.photoTtlSeconds,
      );
      let pairing: { handoff: 'confirming'; confirmation: string } | undefined;
      if (handoff) {
        // The one atomic step: of two phones (or instances) racing with one code, one gives its
        // photo. The number goes back to this phone only; the desktop must be told it by the shopper.
        const made = newPairing(services.now());
        const receipt = await services.store.receiveHandoff(handoff.code, handle, made, services.now());
        if (receipt !== 'received') throw handoffRefusal(receipt);
        pairing = { handoff: 'confirming', confirmation: made.confirmation };
        services.log({
          event: 'handoff_received',
          time: new Date(services.now()).toISOString(),
          requestId: c.get('requestId'),
        });
      }
      return c.json({ photo: handle, expiresAt: expiresAt.toISOString(), ...pairing }, 201);
    } catch (error) {
      // fetch hides why the photo stream broke: the stream's own flags say.
      if (body?.timedOut()) throw uploadTimeoutError();
      const refusal = part?.refusal();
      if (refusal) throw refusal;
      await drainUnread(body?.stream, maxBody);
      throw error;
    } finally {
      body?.stop();
    }
  });
  // "Forget my photo": the photo and every try-on and file made from it answer 404 from now on.
  // Idempotent (a second call, or one after every handle expired, is 204 too); an expired photo
  // handle is accepted, since its try-ons may still be live. The 204 waits for the photo's
  // submits already let out to upstream, on every instance: after it, no job starts from the
  // photo. Nothing upstream is deleted: the try-on API has no delete endpoint (docs/security.md).
  app.delete('/:handle', rateLimit(services.writes, services.client), async (c) => {
    const photo = await services.handles.openExpired('photo', c.req.param('handle'));
    await forgetPhoto(
      services.revocations,
      photo.id,
      lastHandleExpiry(photo.expiresAt, {
        tryonTtlSeconds: services.limits.tryonTtlSeconds,
        fileTtlSeconds: services.limits.fileTtlSeconds,
      }),
    );
    services.log({
      event: 'photo_forgotten',
      time: new Date(services.now()).toISOString(),
      photo: photo.id,
      requestId: c.get('requestId'),
    });
    return c.body(null, 204);
  });
  return app;
}
