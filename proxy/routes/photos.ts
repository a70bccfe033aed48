// POST /photos: the shopper's photo, checked by its first bytes and streamed on to /v1/files
// as kind=person. Answers a photo handle; the upstream file id never reaches the browser.
import { Hono, type MiddlewareHandler } from 'hono';
import { randomId } from '../crypto.js';
import { ProxyError, isProxyError } from '../errors.js';
import { rateLimit } from '../middleware/rate-limit.js';
import { openPhotoPart, tooLargeError } from '../photo-upload.js';
import { drainBody, refuseDeclaredLength } from '../streams.js';
import type { ProxyServices, ProxyEnv } from '../context.js';

/** Room for the multipart framing around the photo itself. */
const FRAMING_BYTES = 64 * 1024;

/**
 * Whatever refused an upload (a limit, the photo check, upstream), reads what is left of it
 * (bounded) so the browser gets our answer rather than a reset connection, and closes the
 * connection after it.
 */
function answerRefusedUpload(drainBudget: number): MiddlewareHandler<ProxyEnv> {
  return async (c, next) => {
    await next();
    if (!c.error) return;
    const body = c.req.raw.body;
    if (body && !body.locked) await drainBody(body.getReader(), drainBudget);
    if (isProxyError(c.error)) c.res.headers.set('connection', 'close');
  };
}

export function photoRoutes(services: ProxyServices): Hono<ProxyEnv> {
  const app = new Hono<ProxyEnv>();
  const maxBody = services.limits.uploadBytes + FRAMING_BYTES;
  app.post('/', answerRefusedUpload(maxBody), rateLimit(services.writes, services.client), async (c) => {
    const tooLarge = () => tooLargeError(services.limits.uploadBytes);
    refuseDeclaredLength(c.req.raw.headers, maxBody, tooLarge);
    const part = await openPhotoPart(c.req.raw.body, c.req.header('content-type'), 'photo', services.limits);
    let fileId: string;
    try {
      ({ id: fileId } = await services.upstream.uploadFile(part.stream, {
        kind: 'person', contentType: part.type.contentType, filename: `photo.${part.type.extension}`,
      }));
    } catch (error) {
      if (part.tooLarge()) throw tooLarge();
      throw error;
    }
    const { handle, expiresAt } = await services.handles.mint('photo', { id: randomId(), fileId }, services.limits.photoTtlSeconds);
    return c.json({ photo: handle, expiresAt: expiresAt.toISOString() }, 201);
  });
  app.all('/', () => {
    throw new ProxyError(400, 'invalid_request', 'Upload a photo with POST.');
  });
  return app;
}
