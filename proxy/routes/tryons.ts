// POST /tryons starts a try-on of a catalog product on an uploaded photo; GET /tryons/{h}
// answers its status with signed file URLs; GET /tryons/{h}/events streams the same as SSE.
// The catalog decides mode, garment, tier, background, pose and provider; the browser may only
// narrow the views the product offers and ask for video where it is offered.
import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { z } from 'zod';
import { ProxyError, UpstreamRejected } from '../errors.js';
import { readBoundedText } from '../photo-upload.js';
import { isTerminal, type TryonSnapshot } from '../tryon-status.js';
import type { Proxy, ProxyContext, ProxyEnv } from '../context.js';
import type { TryonClaims } from '../handles.js';
import type { ProductEntry, View } from '../catalog.js';

const tryonRequest = z.object({
  product: z.string().min(1).max(128),
  photo: z.string().min(1).max(4096),
  consent: z.unknown(),
  requestId: z.string().regex(/^[A-Za-z0-9_-]{8,128}$/, 'requestId must be 8 to 128 letters, digits, - or _'),
  views: z.array(z.string().max(40)).min(1).max(4).optional(),
  output: z.enum(['image', 'video']).optional(),
});

export interface TryonStatusBody {
  status: TryonSnapshot['status'];
  outputs: { view: string; url: string; type: 'image' | 'video'; contentType?: string }[];
  views: string[];
  progress?: number;
  error?: { code: string; message: string; retryable: boolean };
}

async function readJsonBody(c: ProxyContext, maxBytes: number): Promise<unknown> {
  const declared = Number(c.req.header('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) throw new ProxyError(413, 'invalid_request', 'The request is too large.');
  const text = await readBoundedText(c.req.raw.body, maxBytes);
  try {
    return JSON.parse(text);
  } catch {
    throw new ProxyError(400, 'invalid_request', 'The request body must be JSON.');
  }
}

function upstreamBody(product: ProductEntry, personFileId: string, imageFileId: string, views: View[], output: 'image' | 'video', key: string) {
  const images = product.mode === 'garment_to_person'
    ? { garment_image: imageFileId }
    : { reference_person_image: imageFileId };
  if (output === 'video') {
    return {
      mode: product.mode, person_image: personFileId, ...images, garment: product.garment, tier: product.tier,
      consent_token: true, idempotency_key: key,
      duration_seconds: product.video?.durationSeconds ?? 5, fps: product.video?.fps ?? 24,
      motion: product.video?.motion ?? 'twirl', camera: product.video?.camera ?? 'orbit',
    };
  }
  return {
    mode: product.mode, person_image: personFileId, ...images, garment: product.garment, tier: product.tier,
    views, background: product.background, provider: product.provider,
    ...(product.pose ? { pose: product.pose } : {}),
    consent_token: true, idempotency_key: key,
  };
}

/** The path the proxy is mounted at, taken from this request, so URLs work under any mount. */
function mountBase(proxy: Proxy, path: string): string {
  if (proxy.publicUrl) return proxy.publicUrl.replace(/\/+$/, '');
  const at = path.lastIndexOf('/tryons');
  return at >= 0 ? path.slice(0, at) : '';
}

export async function statusBody(proxy: Proxy, claims: TryonClaims & { expiresAt: number }, snapshot: TryonSnapshot, base: string): Promise<TryonStatusBody> {
  // Rounded so the same output keeps the same URL (and the browser's cache) for a while.
  const fileExpiry = Math.ceil((proxy.now() / 1000 + proxy.limits.fileTtlSeconds) / 60) * 60;
  const outputs = await Promise.all(snapshot.outputs.map(async (output) => {
    const { handle } = await proxy.handles.mint('file', { fileId: output.fileId, jobId: claims.jobId, view: output.view, type: output.type }, 0, fileExpiry);
    return { view: output.view, url: `${base}/files/${handle}`, type: output.type, ...(output.contentType ? { contentType: output.contentType } : {}) };
  }));
  return {
    status: snapshot.status,
    outputs,
    views: claims.views,
    ...(snapshot.progress !== undefined && !isTerminal(snapshot.status) ? { progress: snapshot.progress } : {}),
    ...(snapshot.error ? { error: snapshot.error } : {}),
  };
}

export function tryonRoutes(proxy: Proxy): Hono<ProxyEnv> {
  const app = new Hono<ProxyEnv>();

  app.post('/', async (c) => {
    const client = proxy.client(c);
    proxy.writes.take(client);
    const body = await readJsonBody(c, proxy.limits.jsonBytes);
    const parsed = tryonRequest.safeParse(body);
    if (typeof body === 'object' && body !== null && (body as { consent?: unknown }).consent !== true) {
      throw new ProxyError(422, 'consent_required', 'Please confirm that you agree before we use your photo.');
    }
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue?.path.join('.') || 'body';
      throw new ProxyError(422, 'validation_failed', `${field}: ${issue?.message ?? 'is not valid'}`);
    }
    const request = parsed.data;
    const product = await proxy.findProduct(request.product);
    if (!product) throw new ProxyError(404, 'unknown_product', 'This product has no try-on.');
    const photo = await proxy.handles.open('photo', request.photo);

    const output = request.output ?? 'image';
    if (output === 'video' && !product.video) throw new ProxyError(422, 'video_not_offered', 'This product does not offer a video try-on.');
    let views: View[];
    if (output === 'video') {
      views = ['front'];
    } else if (request.views) {
      const offered = new Set<string>(product.views);
      const refused = request.views.filter((v) => !offered.has(v));
      if (refused.length > 0) throw new ProxyError(422, 'view_not_offered', `This product does not offer the view ${refused.join(', ')}.`);
      // Kept in the catalog's order, once each, so the same choice gives the same key.
      views = product.views.filter((v) => request.views!.includes(v));
    } else {
      views = [...product.views];
    }

    const key = await proxy.idempotencyKey([photo.fileId, product.id, views.join(','), output, request.requestId]);
    proxy.budget.check(photo.id, key);

    const [imagePath, imageKind] = product.mode === 'garment_to_person'
      ? [product.garmentImage!, 'garment' as const]
      : [product.referencePersonImage!, 'person' as const];
    const submit = async () => proxy.upstream.submitTryon(output,
      upstreamBody(product, photo.fileId, await proxy.garmentFiles.fileId(imagePath, imageKind), views, output, key));
    let job;
    try {
      job = await submit();
    } catch (error) {
      // A remembered garment file id can outlive upstream's copy (a restart with a saved cache):
      // upload the garment again and try once more.
      if (!(error instanceof UpstreamRejected) || (error.upstreamStatus !== 422 && error.upstreamStatus !== 404 && error.upstreamStatus !== 400)) throw error;
      proxy.garmentFiles.forget(imagePath, imageKind);
      job = await submit();
    }
    proxy.budget.record(photo.id, key);
    proxy.board.seed(job);
    proxy.log({
      event: 'consent', time: new Date(proxy.now()).toISOString(), product: product.id, photo: photo.id,
      client: await proxy.hashClient(client.split('|')[0] ?? client), requestId: c.get('requestId'),
    });
    const { handle } = await proxy.handles.mint('tryon',
      { jobId: job.id, product: product.id, views, output, photoId: photo.id }, proxy.limits.tryonTtlSeconds);
    return c.json({ tryon: handle, status: job.status, views }, 202);
  });

  app.get('/:handle', async (c) => {
    proxy.reads.take(proxy.client(c));
    const claims = await proxy.handles.open('tryon', c.req.param('handle'));
    const snapshot = await proxy.board.read(claims.jobId);
    c.header('cache-control', 'no-store');
    return c.json(await statusBody(proxy, claims, snapshot, mountBase(proxy, c.req.path)));
  });

  app.get('/:handle/events', async (c) => {
    proxy.reads.take(proxy.client(c));
    const claims = await proxy.handles.open('tryon', c.req.param('handle'));
    const base = mountBase(proxy, c.req.path);
    // Read once before streaming, so an upstream failure is an ordinary error answer.
    const first = await proxy.board.read(claims.jobId);
    c.header('cache-control', 'no-store');
    c.header('x-accel-buffering', 'no');
    return streamSSE(c, async (stream) => {
      let last = '';
      const send = async (snapshot: TryonSnapshot) => {
        const text = JSON.stringify(await statusBody(proxy, claims, snapshot, base));
        if (text === last) return;
        last = text;
        await stream.writeSSE({ event: 'status', data: text });
      };
      await send(first);
      if (isTerminal(first.status)) return;

      let pending: TryonSnapshot | undefined;
      let wake: (() => void) | undefined;
      let closed = false;
      const unwatch = proxy.board.watch(claims.jobId, (snapshot) => {
        pending = snapshot;
        wake?.();
      });
      stream.onAbort(() => {
        closed = true;
        wake?.();
      });
      const heartbeat = setInterval(() => {
        void stream.write(': heartbeat\n\n').catch(() => undefined);
      }, proxy.limits.heartbeatMs);
      const deadline = setTimeout(() => {
        closed = true;
        wake?.();
      }, proxy.limits.streamMaxMs);
      try {
        while (!closed) {
          if (!pending) await new Promise<void>((resolve) => { wake = resolve; });
          wake = undefined;
          const snapshot = pending;
          pending = undefined;
          if (snapshot) {
            await send(snapshot);
            if (isTerminal(snapshot.status)) break;
          }
        }
      } finally {
        unwatch();
        clearInterval(heartbeat);
        clearTimeout(deadline);
      }
    }, async (error, stream) => {
      proxy.log({ level: 'error', event: 'sse_failed', message: error.message });
      await stream.writeSSE({ event: 'error', data: JSON.stringify({ error: { code: 'internal_error', message: 'The status stream failed.', retryable: true } }) });
    });
  });

  return app;
}
