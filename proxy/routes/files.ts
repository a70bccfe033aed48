// GET /files/{handle}: an output of a try-on, streamed from upstream (never buffered whole),
// and only if the file really is among the outputs of the try-on the handle names.
import { Hono } from 'hono';
import { ProxyError } from '../errors.js';
import type { Proxy, ProxyEnv } from '../context.js';

const EXTENSIONS: Record<string, string> = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/webp': 'webp', 'video/mp4': 'mp4' };

export function fileRoutes(proxy: Proxy): Hono<ProxyEnv> {
  const app = new Hono<ProxyEnv>();
  app.get('/:handle', async (c) => {
    proxy.reads.take(proxy.client(c));
    const claims = await proxy.handles.open('file', c.req.param('handle'));
    const belongs = (outputs: { fileId: string }[] | undefined) => outputs?.some((o) => o.fileId === claims.fileId) ?? false;
    let output = proxy.board.peek(claims.jobId)?.outputs.find((o) => o.fileId === claims.fileId);
    if (!output) {
      const snapshot = await proxy.board.read(claims.jobId);
      if (!belongs(snapshot.outputs)) throw new ProxyError(404, 'not_found', 'That file is not part of this try-on.');
      output = snapshot.outputs.find((o) => o.fileId === claims.fileId);
    }
    const upstream = await proxy.upstream.fileContent(claims.fileId);
    const contentType = upstream.headers.get('content-type') ?? output?.contentType ?? (claims.type === 'video' ? 'video/mp4' : 'image/jpeg');
    const maxAge = Math.max(0, Math.floor(claims.expiresAt - proxy.now() / 1000));
    const headers = new Headers({
      'content-type': contentType,
      'cache-control': `private, max-age=${maxAge}, immutable`,
      'content-disposition': `inline; filename="tryon-${claims.view.replace(/[^a-z_]/gi, '')}.${EXTENSIONS[contentType.split(';')[0]!.trim()] ?? 'bin'}"`,
      'x-content-type-options': 'nosniff',
    });
    const length = upstream.headers.get('content-length');
    if (length) headers.set('content-length', length);
    return new Response(upstream.body, { status: 200, headers });
  });
  return app;
}
