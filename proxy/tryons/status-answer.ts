// The status answer of a try-on, the same for GET /tryons/{h} and each SSE event: its state, its
// views and a signed, short-lived URL for each finished output (never an upstream id); and, when a
// first look was started beside it, `preview` with that draft's own state and, once it succeeded,
// its one output (`status` and `outputs` always mean the try-on itself). `preview` is the answer's
// field name on the wire, which the widget reads.
//
// GET /tryons/{h}'s answer is also kept as text per try-on handle (StatusAnswers) for as long as
// nothing it is made of changes: the try-on's snapshot and its first look's (the board hands out
// the same snapshot object until a newer one replaces it), and the minute its file URLs expire at.
// A widget polls a finished try-on every few seconds, and each read would otherwise mint its file
// handles and serialise the same body again. The handle's own checks (signature, expiry, a
// forgotten photo, the rate limit) run on every read before this is asked.
import { isTerminal, type TryonSnapshot } from './snapshot.js';
import type { HandleSigner, OutfitPiece, TryonClaims } from '../security/handles.js';
import type { UpstreamOutput } from '../upstream/client.js';
import type { ProxyLimits } from '../limits/limits.js';
import type { Log } from '../operator/log.js';
import type { TryonStatusBoard } from './status-board.js';

/** What a status body needs: the clock and limits for its file handles' lifetimes, and the signer. */
export interface FileUrlSigning {
  now: () => number;
  limits: Pick<ProxyLimits, 'fileTtlSeconds'>;
  handles: HandleSigner;
}

export interface TryonStatusBody {
  status: TryonSnapshot['status'];
  outputs: { view: string; url: string; type: 'image' | 'video'; contentType?: string }[];
  views: string[];
  progress?: number;
  error?: { code: string; message: string; retryable: boolean };
  /** The first look: failed → no outputs (nothing is shown for it), and the try-on goes on. */
  preview?: { status: TryonSnapshot['status']; outputs: { view: string; type: 'image' | 'video'; url: string }[] };
  /** A piece over another try-on: the outfit's pieces, base first, this one last. */
  pieces?: OutfitPiece[];
}

/**
 * What output URLs start with: `publicUrl` with a trailing slash when it is set, else nothing, so
 * they are relative to the mount (`files/v1.file.…`) and the client resolves them against the
 * proxy's own address (the widget: its endpoint). The proxy cannot know its mount from a request's
 * path: a reverse proxy that strips `/tryon` (nginx's `location /tryon/ { proxy_pass http://up/; }`,
 * Caddy's `handle_path`, Shopify's App Proxy) shows it `/tryons/…`, and a path-absolute `/files/…`
 * would then point outside the mount at a blank image. Relative URLs work behind any of them.
 */
export function mountBase(services: { publicUrl?: string | undefined }): string {
  return services.publicUrl ? services.publicUrl.replace(/\/+$/, '') + '/' : '';
}

/**
 * When a status answer's file URLs expire: rounded up to the minute so the same output keeps the
 * same URL (and the browser's cache) for a while; never beyond the try-on's own end, so "your
 * try-on is kept for a day" holds for its links too.
 */
export function fileExpiryOf(services: Omit<FileUrlSigning, 'handles'>, claims: { expiresAt: number }): number {
  return Math.min(claims.expiresAt, Math.ceil((services.now() / 1000 + services.limits.fileTtlSeconds) / 60) * 60);
}

/** A signed file URL for one output of one job of the try-on (the files route checks it is that job's). */
async function fileUrl(
  services: FileUrlSigning,
  claims: TryonClaims & { expiresAt: number },
  jobId: string,
  output: UpstreamOutput,
  base: string,
): Promise<string> {
  const { handle } = await services.handles.mint(
    'file',
    { fileId: output.fileId, jobId, view: output.view, type: output.type, photoId: claims.photoId },
    0,
    fileExpiryOf(services, claims),
  );
  return `${base}files/${handle}`;
}

export async function statusBody(
  services: FileUrlSigning,
  claims: TryonClaims & { expiresAt: number },
  snapshot: TryonSnapshot,
  base: string,
  /** The first look's snapshot, when the try-on has one and it could be read. */
  preview?: TryonSnapshot,
): Promise<TryonStatusBody> {
  const outputs = await Promise.all(
    snapshot.outputs.map(async (output) => ({
      view: output.view,
      url: await fileUrl(services, claims, claims.jobId, output, base),
      type: output.type,
      ...(output.contentType ? { contentType: output.contentType } : {}),
    })),
  );
  return {
    status: snapshot.status,
    outputs,
    views: claims.views,
    ...(snapshot.progress !== undefined && !isTerminal(snapshot.status) ? { progress: snapshot.progress } : {}),
    ...(snapshot.error ? { error: snapshot.error } : {}),
    ...(preview && claims.previewJobId
      ? { preview: await previewBody(services, claims, claims.previewJobId, preview, base) }
      : {}),
    ...(claims.pieces ? { pieces: claims.pieces } : {}),
  };
}

async function previewBody(
  services: FileUrlSigning,
  claims: TryonClaims & { expiresAt: number },
  jobId: string,
  preview: TryonSnapshot,
  base: string,
): Promise<NonNullable<TryonStatusBody['preview']>> {
  // Only a succeeded first look shows anything; its one output is the front view's image.
  const shown = preview.status === 'succeeded' ? preview.outputs.filter((o) => o.type === 'image').slice(0, 1) : [];
  return {
    status: preview.status,
    outputs: await Promise.all(
      shown.map(async (output) => ({
        view: output.view,
        type: output.type,
        url: await fileUrl(services, claims, jobId, output, base),
      })),
    ),
  };
}

/**
 * The first look's snapshot for a status answer. Reading it never fails the try-on's own answer:
 * should upstream not answer for it, the last snapshot the store holds stands (said in the log).
 */
export async function readPreview(
  services: { board: TryonStatusBoard; log: Log },
  claims: TryonClaims,
): Promise<TryonSnapshot | undefined> {
  if (!claims.previewJobId) return undefined;
  try {
    return await services.board.read(claims.previewJobId);
  } catch (error) {
    services.log({ level: 'warn', event: 'preview_read_failed', code: (error as { code?: string }).code ?? 'unknown' });
    return services.board.known(claims.previewJobId);
  }
}

interface Kept {
  snapshot: TryonSnapshot;
  preview: TryonSnapshot | undefined;
  fileExpiry: number;
  text: string;
}

/** At most this many answers are kept (a few hundred bytes each); the oldest goes first. */
const KEPT_ANSWERS = 4096;

export class StatusAnswers {
  private readonly kept = new Map<string, Kept>();

  constructor(
    private readonly services: FileUrlSigning,
    private readonly base: string,
  ) {}

  async text(
    handle: string,
    claims: TryonClaims & { expiresAt: number },
    snapshot: TryonSnapshot,
    preview: TryonSnapshot | undefined,
  ): Promise<string> {
    const fileExpiry = fileExpiryOf(this.services, claims);
    const known = this.kept.get(handle);
    if (known && known.snapshot === snapshot && known.preview === preview && known.fileExpiry === fileExpiry) {
      return known.text;
    }
    const text = JSON.stringify(await statusBody(this.services, claims, snapshot, this.base, preview));
    this.kept.delete(handle);
    if (this.kept.size >= KEPT_ANSWERS) this.kept.delete(this.kept.keys().next().value as string);
    this.kept.set(handle, { snapshot, preview, fileExpiry, text });
    return text;
  }
}
