// A typed, tolerant client for the hosted /v1 API (or the sandbox). Every call has a timeout;
// only calls that are safe to repeat are retried (reads, and the try-on submit, which carries an
// idempotency key); the file upload is never retried because nothing dedupes it upstream.
// Upstream failures become our error shape; an upstream body is never passed through.
import { ProxyError, UpstreamRejected } from './errors.js';

export type Status = 'queued' | 'processing' | 'succeeded' | 'failed';

export interface UpstreamJob {
  id: string;
  status: Status;
  /** The state exactly as upstream said it. */
  rawStatus: string;
  type?: string | undefined;
  progress?: number | undefined;
  error?: { code: string; message: string } | undefined;
  /** Catalog children as far as upstream lists them. */
  children?: { id: string; view?: string | undefined; status: Status }[] | undefined;
  parent?: string | undefined;
  /** Every field upstream sent, kept for whoever needs more. */
  raw: Record<string, unknown>;
}

export interface UpstreamOutput {
  fileId: string;
  view: string;
  type: 'image' | 'video';
  contentType?: string | undefined;
}

export interface UpstreamOptions {
  apiKey: string;
  baseUrl: string;
  fetch?: typeof fetch;
  timeoutMs: number;
  uploadTimeoutMs: number;
  retries: number;
  retryBaseMs: number;
  log: (entry: Record<string, unknown>) => void;
}

const FAILED = new Set(['failed', 'error', 'errored', 'canceled', 'cancelled', 'expired', 'rejected', 'timed_out']);
const SUCCEEDED = new Set(['succeeded', 'success', 'completed', 'complete', 'done']);

/** DESIGN.md part 3: unknown non-terminal → processing; failed/error/canceled/expired → failed. */
export function mapStatus(raw: unknown): Status {
  const value = typeof raw === 'string' ? raw.toLowerCase() : '';
  if (value === 'queued' || value === 'pending' || value === 'created') return 'queued';
  if (SUCCEEDED.has(value)) return 'succeeded';
  if (FAILED.has(value)) return 'failed';
  return 'processing';
}

const asRecord = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
const asString = (value: unknown): string | undefined => (typeof value === 'string' && value.length > 0 ? value : undefined);

export function parseJob(body: unknown): UpstreamJob {
  const record = asRecord(body) ?? {};
  const job = asRecord(record.job) ?? asRecord(record.data) ?? record;
  const id = asString(job.id);
  if (!id) throw new ProxyError(502, 'upstream_unavailable', 'The try-on service sent an answer we could not read.', true);
  const rawStatus = asString(job.status) ?? 'queued';
  const progress = typeof job.progress === 'number' && Number.isFinite(job.progress) ? job.progress : undefined;
  const errorRecord = asRecord(job.error);
  const children = Array.isArray(job.children)
    ? job.children.flatMap((child) => {
        const c = asRecord(child);
        const childId = c && asString(c.id);
        return c && childId ? [{ id: childId, view: asString(c.view), status: mapStatus(c.status) }] : [];
      })
    : undefined;
  return {
    id,
    status: mapStatus(rawStatus),
    rawStatus,
    type: asString(job.type),
    progress: progress === undefined ? undefined : progress > 1 ? Math.min(1, progress / 100) : Math.max(0, progress),
    error: errorRecord ? { code: asString(errorRecord.code) ?? 'render_failed', message: asString(errorRecord.message) ?? 'The render failed.' } : undefined,
    children,
    parent: asString(job.parent) ?? asString(job.parent_id) ?? asString(job.parent_job_id),
    raw: job,
  };
}

/** Outputs as a bare array or wrapped in data/outputs/items; the id in file_id, file, id or file.id. */
export function parseOutputs(body: unknown): UpstreamOutput[] {
  const record = asRecord(body);
  const list = Array.isArray(body) ? body
    : Array.isArray(record?.data) ? record.data
    : Array.isArray(record?.outputs) ? record.outputs
    : Array.isArray(record?.items) ? record.items
    : [];
  return list.flatMap((item) => {
    const o = asRecord(item);
    if (!o) return [];
    const fileRecord = asRecord(o.file);
    const fileId = asString(o.file_id) ?? asString(o.file) ?? asString(fileRecord?.id) ?? asString(o.id);
    if (!fileId) return [];
    const contentType = asString(o.content_type) ?? asString(o.mime_type) ?? asString(fileRecord?.content_type);
    const type = o.type === 'video' || contentType?.startsWith('video/') ? 'video' : 'image';
    return [{ fileId, view: asString(o.view) ?? 'front', type, contentType }];
  });
}

export interface FileKind { kind: 'person' | 'garment' }

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class Upstream {
  private readonly fetcher: typeof fetch;
  private readonly base: string;

  constructor(private readonly options: UpstreamOptions) {
    this.fetcher = options.fetch ?? ((input, init) => fetch(input, init));
    this.base = options.baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '');
  }

  /** Streams one upload to /v1/files; never retried. `body` may be a stream (sent half-duplex). */
  async uploadFile(body: ReadableStream<Uint8Array> | Uint8Array, meta: FileKind & { contentType: string; filename: string }): Promise<{ id: string }> {
    const boundary = `----tryon${crypto.randomUUID().replace(/-/g, '')}`;
    const encoder = new TextEncoder();
    const head = encoder.encode(
      `--${boundary}\r\nContent-Disposition: form-data; name="kind"\r\n\r\n${meta.kind}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${meta.filename}"\r\n` +
      `Content-Type: ${meta.contentType}\r\n\r\n`);
    const tail = encoder.encode(`\r\n--${boundary}--\r\n`);
    let touch = () => undefined as void;
    const multipart = concatStreams([head, body, tail]).pipeThrough(new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, sink) {
        touch();
        sink.enqueue(chunk);
      },
    }));
    const response = await this.send('POST /v1/files', '/v1/files', {
      method: 'POST',
      body: multipart,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      duplex: 'half',
      // Without these, fetch clones the request to be able to follow a redirect, and the clone
      // tees the body: the branch kept for the redirect is never read and buffers the whole
      // photo (undici #4058; measured: a 64 MB streamed body held 64 MB). A streamed body could
      // not be replayed across a redirect anyway.
      redirect: 'error',
      window: null,
    } as RequestInit, { retry: false, timeoutMs: this.options.uploadTimeoutMs, onArm: (arm) => { touch = arm; } });
    const record = asRecord(await readJson(response));
    const id = asString(record?.id) ?? asString(asRecord(record?.file)?.id);
    if (!id) throw new ProxyError(502, 'upstream_unavailable', 'The try-on service sent an answer we could not read.', true);
    return { id };
  }

  async submitTryon(kind: 'image' | 'video', body: Record<string, unknown>): Promise<UpstreamJob> {
    const path = kind === 'video' ? '/v1/videos/tryon' : '/v1/images/tryon';
    const response = await this.send(`POST ${path}`, path, {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json' },
    }, { retry: typeof body.idempotency_key === 'string', timeoutMs: this.options.timeoutMs });
    return parseJob(await readJson(response));
  }

  async getJob(jobId: string): Promise<UpstreamJob> {
    const response = await this.send('GET /v1/jobs/{id}', `/v1/jobs/${encodeURIComponent(jobId)}`, { method: 'GET' },
      { retry: true, timeoutMs: this.options.timeoutMs });
    return parseJob(await readJson(response));
  }

  async listOutputs(jobId: string): Promise<UpstreamOutput[]> {
    const response = await this.send('GET /v1/images/{job_id}/outputs', `/v1/images/${encodeURIComponent(jobId)}/outputs`,
      { method: 'GET' }, { retry: true, timeoutMs: this.options.timeoutMs });
    return parseOutputs(await readJson(response));
  }

  /** The response whose body the caller streams on; the timeout covers the headers only. */
  async fileContent(fileId: string, range?: string): Promise<Response> {
    return this.send('GET /v1/files/{file_id}/content', `/v1/files/${encodeURIComponent(fileId)}/content`,
      { method: 'GET', ...(range ? { headers: { range } } : {}) }, { retry: true, timeoutMs: this.options.uploadTimeoutMs, streamBody: true });
  }

  private async send(route: string, path: string, init: RequestInit, how: {
    retry: boolean; timeoutMs: number; streamBody?: boolean;
    /** Receives the timer's re-arm function: a streamed upload calls it on every chunk, so a
     * slow but moving shopper's upload is not cut, while a stalled one is. */
    onArm?: (arm: () => void) => void;
  }): Promise<Response> {
    const attempts = how.retry ? 1 + this.options.retries : 1;
    let lastError: ProxyError | undefined;
    for (let attempt = 0; attempt < attempts; attempt++) {
      if (attempt > 0) {
        const backoff = this.options.retryBaseMs * 2 ** (attempt - 1) * (0.5 + Math.random());
        await sleep(backoff);
      }
      const controller = new AbortController();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const disarm = () => clearTimeout(timer);
      const arm = () => {
        disarm();
        timer = setTimeout(() => controller.abort(new DOMException('upstream timeout', 'TimeoutError')), how.timeoutMs);
      };
      arm();
      how.onArm?.(arm);
      const started = Date.now();
      try {
        const response = await this.fetcher(`${this.base}${path}`, {
          ...init,
          headers: { ...(init.headers as Record<string, string> | undefined), authorization: `Bearer ${this.options.apiKey}`, accept: 'application/json' },
          signal: controller.signal,
        });
        if (response.ok) {
          if (!how.streamBody || !response.body) {
            // Read the body under the same timeout, then let go of the timer.
            const text = await response.text();
            disarm();
            return new Response(text, { status: response.status, headers: response.headers });
          }
          // A download: the timeout becomes an idle timeout between chunks.
          arm();
          const body = response.body.pipeThrough(new TransformStream<Uint8Array, Uint8Array>({
            transform(chunk, sink) {
              arm();
              sink.enqueue(chunk);
            },
            flush: disarm,
          }));
          return new Response(body, { status: response.status, headers: response.headers });
        }
        disarm();
        await response.body?.cancel().catch(() => undefined);
        lastError = this.mapStatus(route, response);
        this.options.log({ event: 'upstream_error', route, status: response.status, attempt: attempt + 1, ms: Date.now() - started });
        if (!lastError.retryable || response.status === 429) throw lastError;
      } catch (error) {
        disarm();
        if (error instanceof ProxyError) {
          if (!error.retryable || error.code === 'rate_limited') throw error;
          lastError = error;
          continue;
        }
        const timedOut = controller.signal.aborted;
        lastError = timedOut
          ? new ProxyError(504, 'upstream_timeout', 'The try-on service took too long to answer; please try again.', true)
          : new ProxyError(502, 'upstream_unavailable', 'The try-on service could not be reached; please try again.', true);
        this.options.log({ event: timedOut ? 'upstream_timeout' : 'upstream_unreachable', route, attempt: attempt + 1, ms: Date.now() - started });
      }
    }
    throw lastError ?? new ProxyError(502, 'upstream_unavailable', 'The try-on service could not be reached.', true);
  }

  private mapStatus(route: string, response: Response): ProxyError {
    const status = response.status;
    if (status === 401 || status === 403) {
      // Loud: this is the shop's configuration, not the shopper's doing.
      this.options.log({ level: 'error', event: 'upstream_auth_failed', route, status, message: 'the try-on service refused the API key; check TRYON_API_KEY' });
      return new ProxyError(502, 'upstream_auth', 'The shop’s try-on service is not set up correctly.', false);
    }
    if (status === 402) return new ProxyError(503, 'out_of_credits', 'Try-on is not available right now.', false);
    if (status === 429) {
      const after = Number(response.headers.get('retry-after'));
      return new ProxyError(429, 'rate_limited', 'Too many try-ons right now; please wait a moment.', true, Number.isFinite(after) && after > 0 ? after : 5);
    }
    if (status === 404) return new ProxyError(404, 'not_found', 'That try-on no longer exists.', false);
    if (status === 413) return new ProxyError(413, 'file_too_large', 'That photo is too large.', false);
    if (status === 415) return new ProxyError(415, 'unsupported_media_type', 'That file is not a photo we can use (PNG, JPEG, WebP or HEIC).', false);
    if (status >= 500) return new ProxyError(502, 'upstream_unavailable', 'The try-on service is having trouble; please try again.', true);
    this.options.log({ level: 'error', event: 'upstream_rejected', route, status });
    return new UpstreamRejected(status);
  }
}

async function readJson(response: Response): Promise<unknown> {
  try {
    return await response.json();
  } catch {
    throw new ProxyError(502, 'upstream_unavailable', 'The try-on service sent an answer we could not read.', true);
  }
}

/** One stream out of byte arrays and streams, read in order, so an upload is never buffered whole. */
export function concatStreams(parts: (Uint8Array | ReadableStream<Uint8Array>)[]): ReadableStream<Uint8Array> {
  let index = 0;
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      for (;;) {
        if (reader) {
          const { done, value } = await reader.read();
          if (!done) {
            controller.enqueue(value);
            return;
          }
          reader = undefined;
        }
        const part = parts[index++];
        if (part === undefined) {
          controller.close();
          return;
        }
        if (part instanceof Uint8Array) {
          controller.enqueue(part);
          return;
        }
        reader = part.getReader();
      }
    },
    async cancel(reason) {
      await reader?.cancel(reason);
      for (const part of parts.slice(index)) if (!(part instanceof Uint8Array)) await part.cancel(reason);
    },
  });
}
