// POST /photos: the shopper's photo, checked by its first bytes and streamed on to /v1/files
// as kind=person. Answers a photo handle; the upstream file id never reaches the browser.
import { Hono } from 'hono';
import { ProxyError } from '../errors.js';
import { randomId } from '../handles.js';
import { drainBody, openPhotoPart, tooLargeError } from '../photo-upload.js';
import type { Proxy, ProxyContext, ProxyEnv } from '../context.js';

/** Room for the multipart framing around the photo itself. */
const FRAMING_BYTES = 64 * 1024;

export function photoRoutes(proxy: Proxy): Hono<ProxyEnv> {
  const app = new Hono<ProxyEnv>();
  app.post('/', async (c) => {
    try {
      return await upload(c);
    } catch (error) {
      // Read what is left of a refused upload (bounded) so the browser gets our answer rather
      // than a reset connection, and close the connection after it.
      const body = c.req.raw.body;
      if (body && !body.locked) await drainBody(body.getReader(), proxy.limits.uploadBytes + FRAMING_BYTES);
      if (error instanceof ProxyError) return error.toResponse({ connection: 'close', 'x-request-id': c.get('requestId') });
      throw error;
    }
  });

  const upload = async (c: ProxyContext) => {
    proxy.writes.take(proxy.client(c));
    const declared = Number(c.req.header('content-length'));
    if (Number.isFinite(declared) && declared > proxy.limits.uploadBytes + FRAMING_BYTES) {
      throw tooLargeError(proxy.limits.uploadBytes);
    }
    const part = await openPhotoPart(c.req.raw.body, c.req.header('content-type'), 'photo', proxy.limits);
    let fileId: string;
    try {
      ({ id: fileId } = await proxy.upstream.uploadFile(part.stream, {
        kind: 'person', contentType: part.type.contentType, filename: `photo.${part.type.extension}`,
      }));
    } catch (error) {
      if (part.tooLarge()) throw tooLargeError(proxy.limits.uploadBytes);
      throw error;
    }
    const { handle, expiresAt } = await proxy.handles.mint('photo', { id: randomId(), fileId }, proxy.limits.photoTtlSeconds);
    return c.json({ photo: handle, expiresAt: expiresAt.toISOString() }, 201);
  };
  app.all('/', () => {
    throw new ProxyError(400, 'invalid_request', 'Upload a photo with POST.');
  });
  return app;
}
