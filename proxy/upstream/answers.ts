// What upstream answers, read tolerantly (docs/upstream-api.md, "Gaps"): a job in any of the
// shapes upstream may wrap it in, its outputs, and its state mapped onto the four the widget knows.
// An answer we cannot read is a retryable 502, never passed through.
import { ProxyError } from '../http/errors.js';

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

const FAILED = new Set(['failed', 'error', 'errored', 'canceled', 'cancelled', 'expired', 'rejected', 'timed_out']);
const SUCCEEDED = new Set(['succeeded', 'success', 'completed', 'complete', 'done']);

/** docs/upstream-api.md: unknown non-terminal → processing; failed/error/canceled/expired → failed. */
export function jobStatusOf(raw: unknown): Status {
  const value = typeof raw === 'string' ? raw.toLowerCase() : '';
  if (value === 'queued' || value === 'pending' || value === 'created') return 'queued';
  if (SUCCEEDED.has(value)) return 'succeeded';
  if (FAILED.has(value)) return 'failed';
  return 'processing';
}

export const asRecord = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
export const asString = (value: unknown): string | undefined =>
  typeof value === 'string' && value.length > 0 ? value : undefined;

export function parseJob(body: unknown): UpstreamJob {
  const record = asRecord(body) ?? {};
  const job = asRecord(record.job) ?? asRecord(record.data) ?? record;
  const id = asString(job.id);
  if (!id)
    throw new ProxyError(502, 'upstream_unavailable', 'The try-on service sent an answer we could not read.', true);
  const rawStatus = asString(job.status) ?? 'queued';
  const progress = typeof job.progress === 'number' && Number.isFinite(job.progress) ? job.progress : undefined;
  const errorRecord = asRecord(job.error);
  const children = Array.isArray(job.children)
    ? job.children.flatMap((child) => {
        const c = asRecord(child);
        const childId = c && asString(c.id);
        return c && childId ? [{ id: childId, view: asString(c.view), status: jobStatusOf(c.status) }] : [];
      })
    : undefined;
  return {
    id,
    status: jobStatusOf(rawStatus),
    rawStatus,
    type: asString(job.type),
    progress: progress === undefined ? undefined : progress > 1 ? Math.min(1, progress / 100) : Math.max(0, progress),
    error: errorRecord
      ? {
          code: asString(errorRecord.code) ?? 'render_failed',
          message: asString(errorRecord.message) ?? 'The render failed.',
        }
      : undefined,
    children,
    parent: asString(job.parent) ?? asString(job.parent_id) ?? asString(job.parent_job_id),
    raw: job,
  };
}

/** Outputs as a bare array or wrapped in data/outputs/items; the id in file_id, file, id or file.id. */
export function parseOutputs(body: unknown): UpstreamOutput[] {
  const record = asRecord(body);
  const list = Array.isArray(body)
    ? body
    : Array.isArray(record?.data)
      ? record.data
      : Array.isArray(record?.outputs)
        ? record.outputs
        : Array.isArray(record?.items)
          ? record.items
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

/** The JSON body of an answer; an unreadable one is upstream's fault (502, retryable). */
export async function readJson(response: Response): Promise<unknown> {
  try {
    return await response.json();
  } catch {
    throw new ProxyError(502, 'upstream_unavailable', 'The try-on service sent an answer we could not read.', true);
  }
}
