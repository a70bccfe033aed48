// A try-on job as the sandbox keeps it, and as the API shows it: the job answer (`jobJson`, with a
// progress read between phases), each output's record, and which provider `auto` resolves to.
// Apart from the runner (runner.ts), so the routes that answer with a job need not import the
// rendering the runner drives.
import type { StoredFile } from '../files/store.js';
import type { Tier } from '../api/tiers.js';
import type { RenderLabels } from '../drawing/picture.js';
import type { Misdraw } from './misdrawn.js';
import { defaultSubtype } from '../api/tryon-request.js';
import type { ImageRequest, VideoRequest, View } from '../api/tryon-request.js';
import type { Workspace } from './workspaces.js';

export type JobType = 'image' | 'catalog' | 'video';
export type JobStatus = 'queued' | 'processing' | 'succeeded' | 'failed';
export type JobOutcome = 'normal' | 'failed' | 'hold' | 'vanish';
export type JobEvent = 'job.processing' | 'job.output_ready' | 'job.succeeded' | 'job.failed';

export interface Output {
  file: StoredFile;
  view: View;
  type: 'image' | 'video';
  duration_seconds?: number;
  fps?: number;
}

export interface Job {
  id: string;
  workspace: Workspace;
  type: JobType;
  status: JobStatus;
  request: ImageRequest | VideoRequest;
  tier: Tier;
  views: View[];
  provider: string;
  createdAt: string;
  updatedAt: string;
  /** Progress at the start of the current phase, and how the phase runs, so reads interpolate. */
  phase: { from: number; to: number; start: number; ms: number };
  error?: { code: string; message: string };
  parent: Job | null;
  children: Job[];
  idempotencyKey: string | null;
  charged: number;
  polls: number;
  /** Submit → front output at SANDBOX_SPEED=1, drawn once for the job from its tier's latency (a catalog's views share it). */
  seconds: number;
  outputs: Output[];
  outcome: JobOutcome;
  /** A failure drawn into its outputs (a colour drift, the wrong variant, the garment missing or half drawn). */
  misdraw?: Misdraw;
  /** Forgotten mid-render (the `vanish` fault): /v1 answers 404 for it; /sandbox/state still lists it. */
  vanished?: boolean;
  release?: () => void;
}

export function progressOf(job: Job, now = Date.now()): number {
  if (job.status === 'queued') return 0;
  if (job.status === 'succeeded') return 1;
  const { from, to, start, ms } = job.phase;
  const share = ms <= 0 ? 1 : Math.min(1, (now - start) / ms);
  return Math.round((from + (to - from) * share * 0.98) * 1000) / 1000;
}

/** The job as the API answers it. */
export function jobJson(job: Job) {
  const req = job.request;
  const video =
    'fps' in req
      ? { video: { duration_seconds: req.duration_seconds, fps: req.fps, motion: req.motion, camera: req.camera } }
      : {};
  return {
    id: job.id,
    object: 'job',
    type: job.type,
    status: job.status,
    mode: req.mode,
    tier: job.tier,
    views: job.views,
    garment: req.garment,
    background: req.background,
    provider: job.provider,
    ...video,
    created_at: job.createdAt,
    updated_at: job.updatedAt,
    progress: progressOf(job),
    ...(job.error ? { error: job.error } : {}),
    ...(job.parent ? { parent: job.parent.id } : {}),
    ...(job.type === 'catalog'
      ? { children: job.children.map((c) => ({ id: c.id, view: c.views[0], status: c.status })) }
      : {}),
  };
}

export function outputJson(output: Output) {
  return {
    id: output.file.id,
    object: 'output',
    file_id: output.file.id,
    view: output.view,
    type: output.type,
    content_type: output.file.contentType,
    width: output.file.width,
    height: output.file.height,
    size_bytes: output.file.bytes.byteLength,
    ...(output.type === 'video' ? { duration_seconds: output.duration_seconds, fps: output.fps } : {}),
    created_at: output.file.createdAt,
  };
}

/** `auto` resolves the way the API document says: specialists for draped garments at premium. */
export function resolveProvider(requested: string, tier: Tier, category: string, general: readonly string[]): string {
  if (requested !== 'auto') return requested;
  if (tier === 'premium' && (category === 'saree' || category === 'lehenga')) return 'catvton';
  return general[0] ?? 'auto';
}

/** What the caption band of a job's output says: garment, view, background, tier and provider. */
export function renderLabels(job: Job, view: View): RenderLabels {
  const { garment, background } = job.request;
  return {
    category: garment.category,
    subtype: garment.subtype ?? defaultSubtype[garment.category],
    view,
    background,
    tier: job.tier,
    provider: job.provider,
  };
}
