// A typed, tolerant client for the hosted /v1 API (or the sandbox): one method per call the proxy
// makes. Only calls that are safe to repeat are retried (reads, and the try-on submit, which
// carries an idempotency key); the file upload is never retried because nothing dedupes it upstream.
import { ProxyError } from '../http/errors.js';
import { concatStreams, observeChunks } from '../http/streams.js';
import {
  asRecord,
  asString,
  parseJob,
  parseOutputs,
  readJson,
  type UpstreamJob,
  type UpstreamOutput,
} from './answers.js';
import { UpstreamTransport, type TransportOptions } from './transport.js';

export type { Status, UpstreamJob, UpstreamOutput } from './answers.js';

export interface UpstreamOptions extends TransportOptions {
  /** Timeout of each JSON call. */
  timeoutMs: number;
  /** Timeout of an upload, and of the start of a download (then between its chunks). */
  uploadTimeoutMs: number;
}

export interface FileKind {
  kind: 'person' | 'garment';
}

export class Upstream {
  private readonly transport: UpstreamTransport;

  constructor(private readonly options: UpstreamOptions) {
    this.transport = new UpstreamTransport(options);
  }

  /** Streams one upload to /v1/files; never retried. `body` may be a stream (sent half-duplex). */
  async uploadFile(
    body: ReadableStream<Uint8Array> | Uint8Array,
    meta: FileKind & { contentType: string; filename: string },
  ): Promise<{ id: string }> {
    const boundary = `----tryon${crypto.randomUUID().replace(/-/g, '')}`;
    const encoder = new TextEncoder();
    const head = encoder.encode(
      `--${boundary}\r\nContent-Disposition: form-data; name="kind"\r\n\r\n${meta.kind}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${meta.filename}"\r\n` +
        `Content-Type: ${meta.contentType}\r\n\r\n`,
    );
    const tail = encoder.encode(`\r\n--${boundary}--\r\n`);
    let touch = () => undefined as void;
    const multipart = observeChunks(concatStreams([head, body, tail]), () => touch());
    const response = await this.transport.send(
      'POST /v1/files',
      '/v1/files',
      {
        method: 'POST',
        body: multipart,
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
        duplex: 'half',
        // Without `window: null` (and the transport's `redirect: 'error'` on Node), fetch clones the
        // request to be able to follow a redirect, and the clone tees the body: the branch kept for
        // the redirect is never read, so undici buffers the whole photo in it, however large. A
        // streamed body could not be replayed across a redirect anyway.
        window: null,
      } as RequestInit,
      {
        retry: false,
        timeoutMs: this.options.uploadTimeoutMs,
        onArm: (arm) => {
          touch = arm;
        },
      },
    );
    const record = asRecord(await readJson(response));
    const id = asString(record?.id) ?? asString(asRecord(record?.file)?.id);
    if (!id)
      throw new ProxyError(502, 'upstream_unavailable', 'The try-on service sent an answer we could not read.', true);
    return { id };
  }

  async submitTryon(kind: 'image' | 'video', body: Record<string, unknown>): Promise<UpstreamJob> {
    const path = kind === 'video' ? '/v1/videos/tryon' : '/v1/images/tryon';
    const response = await this.transport.send(
      `POST ${path}`,
      path,
      {
        method: 'POST',
        body: JSON.stringify(body),
        headers: { 'content-type': 'application/json' },
      },
      { retry: typeof body.idempotency_key === 'string', timeoutMs: this.options.timeoutMs },
    );
    return parseJob(await readJson(response));
  }

  async getJob(jobId: string): Promise<UpstreamJob> {
    const response = await this.transport.send(
      'GET /v1/jobs/{id}',
      `/v1/jobs/${encodeURIComponent(jobId)}`,
      { method: 'GET' },
      { retry: true, timeoutMs: this.options.timeoutMs },
    );
    return parseJob(await readJson(response));
  }

  async listOutputs(jobId: string): Promise<UpstreamOutput[]> {
    const response = await this.transport.send(
      'GET /v1/images/{job_id}/outputs',
      `/v1/images/${encodeURIComponent(jobId)}/outputs`,
      { method: 'GET' },
      { retry: true, timeoutMs: this.options.timeoutMs },
    );
    return parseOutputs(await readJson(response));
  }

  /** The response whose body the caller streams on; the timeout covers the headers only. */
  async fileContent(fileId: string, range?: string): Promise<Response> {
    return this.transport.send(
      'GET /v1/files/{file_id}/content',
      `/v1/files/${encodeURIComponent(fileId)}/content`,
      { method: 'GET', ...(range ? { headers: { range } } : {}) },
      { retry: true, timeoutMs: this.options.uploadTimeoutMs, streamBody: true },
    );
  }
}
