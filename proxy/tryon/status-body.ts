// The status answer of a try-on, the same for GET /tryons/{h} and each SSE event: its state, its
// views and a signed, short-lived URL for each finished output (never an upstream id).
import { isTerminal, type TryonSnapshot } from '../tryon-status.js';
import type { ProxyServices } from '../context.js';
import type { TryonClaims } from '../handles.js';

export interface TryonStatusBody {
  status: TryonSnapshot['status'];
  outputs: { view: string; url: string; type: 'image' | 'video'; contentType?: string }[];
  views: string[];
  progress?: number;
  error?: { code: string; message: string; retryable: boolean };
}

/** The path the proxy is mounted at, taken from this request, so URLs work under any mount. */
export function mountBase(services: ProxyServices, path: string): string {
  if (services.publicUrl) return services.publicUrl.replace(/\/+$/, '');
  const at = path.lastIndexOf('/tryons');
  return at >= 0 ? path.slice(0, at) : '';
}

export async function statusBody(services: ProxyServices, claims: TryonClaims & { expiresAt: number }, snapshot: TryonSnapshot, base: string): Promise<TryonStatusBody> {
  // Rounded so the same output keeps the same URL (and the browser's cache) for a while; never
  // beyond the try-on's own end, so "your try-on is kept for a day" holds for its links too.
  const fileExpiry = Math.min(claims.expiresAt, Math.ceil((services.now() / 1000 + services.limits.fileTtlSeconds) / 60) * 60);
  const outputs = await Promise.all(snapshot.outputs.map(async (output) => {
    const { handle } = await services.handles.mint('file',
      { fileId: output.fileId, jobId: claims.jobId, view: output.view, type: output.type, photoId: claims.photoId }, 0, fileExpiry);
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
