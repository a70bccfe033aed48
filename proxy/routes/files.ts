// GET /files/{handle}: an output of a try-on, streamed from upstream (never buffered whole),
// and only if the file really is among the outputs of the try-on the handle names. Byte ranges
// are served (Safari plays video only with them): passed to upstream, or cut from its stream.
import { Hono } from 'hono';
import { ProxyError } from '../http/errors.js';
import { openForRead } from '../photos/read-gate.js';
import type { ProxyServices } from './services.js';
import type { ProxyEnv } from '../http/request-facts.js';

/** What these routes use of the shared services: no more, so a change elsewhere cannot reach them unseen. */
type FileServices = Pick<ProxyServices, 'board' | 'client' | 'handles' | 'now' | 'reads' | 'revocations' | 'upstream'>;

const EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'video/mp4': 'mp4',
};

/** One `bytes=start-end` / `bytes=start-` / `bytes=-suffix` range; anything else is ignored (whole file). */
export function parseRange(
  header: string | undefined,
  length: number,
): { start: number; end: number } | 'unsatisfiable' | undefined {
  const match = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  let start: number;
  let end: number;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0) return 'unsatisfiable';
    start = Math.max(0, length - suffix);
    end = length - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === '' ? length - 1 : Math.min(Number(match[2]), length - 1);
  }
  if (start >= length || end < start) return 'unsatisfiable';
  return { start, end };
}

function slice(body: ReadableStream<Uint8Array>, start: number, end: number): ReadableStream<Uint8Array> {
  let offset = 0;
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, sink) {
        const from = Math.max(start - offset, 0);
        const to = Math.min(end + 1 - offset, chunk.length);
        offset += chunk.length;
        if (to > from) sink.enqueue(chunk.subarray(from, to));
        // Past the range: stop reading upstream.
        if (offset > end) sink.terminate();
      },
    }),
  );
}

export function fileRoutes(services: FileServices): Hono<ProxyEnv> {
  const app = new Hono<ProxyEnv>();
  app.get('/:handle', async (c) => {
    const claims = await openForRead(services, c, 'file', c.req.param('handle'));
    let output = (await services.board.known(claims.jobId))?.outputs.find((o) => o.fileId === claims.fileId);
    if (!output) {
      const snapshot = await services.board.read(claims.jobId);
      output = snapshot.outputs.find((o) => o.fileId === claims.fileId);
      if (!output) throw new ProxyError(404, 'not_found', 'That file is not part of this try-on.');
    }
    const rangeHeader = c.req.header('range');
    const upstream = await services.upstream.fileContent(claims.fileId, rangeHeader);
    const contentType =
      upstream.headers.get('content-type') ??
      output.contentType ??
      (claims.type === 'video' ? 'video/mp4' : 'image/jpeg');
    const maxAge = Math.max(0, Math.floor(claims.expiresAt - services.now() / 1000));
    const headers = new Headers({
      'content-type': contentType,
      'cache-control': `private, max-age=${maxAge}, immutable`,
      'content-disposition': `inline; filename="tryon-${claims.view.replace(/[^a-z_]/gi, '')}.${EXTENSIONS[contentType.split(';')[0]!.trim()] ?? 'bin'}"`,
      'x-content-type-options': 'nosniff',
      'accept-ranges': 'bytes',
    });
    const length = upstream.headers.get('content-length');
    if (upstream.status === 206) {
      // Upstream served the range itself.
      for (const name of ['content-range', 'content-length']) {
        const value = upstream.headers.get(name);
        if (value) headers.set(name, value);
      }
      return new Response(upstream.body, { status: 206, headers });
    }
    const total = length !== null && /^\d+$/.test(length) ? Number(length) : undefined;
    const range = total !== undefined && upstream.body ? parseRange(rangeHeader, total) : undefined;
    if (range === 'unsatisfiable') {
      await upstream.body?.cancel().catch(() => undefined);
      headers.set('content-range', `bytes */${total}`);
      return new Response(null, { status: 416, headers });
    }
    if (range && upstream.body) {
      headers.set('content-range', `bytes ${range.start}-${range.end}/${total}`);
      headers.set('content-length', String(range.end - range.start + 1));
      return new Response(slice(upstream.body, range.start, range.end), { status: 206, headers });
    }
    if (length) headers.set('content-length', length);
    return new Response(upstream.body, { status: 200, headers });
  });
  return app;
}
