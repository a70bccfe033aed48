import { newId } from './ids.js';
import { renderFront, renderView } from './render.js';
import type { Front, RenderLabels } from './render.js';
import { renderVideo } from './video.js';
import { drawSeconds, durations, latency } from './tiers.js';
import type { Tier } from './tiers.js';
import type { FileStore, StoredFile } from './files.js';
import { defaultSubtype } from './tryon-request.js';
import type { ImageRequest, VideoRequest, View } from './tryon-request.js';
import type { Workspace } from './workspaces.js';

export type JobType = 'image' | 'catalog' | 'video';
export type JobStatus = 'queued' | 'processing' | 'succeeded' | 'failed';
export type JobOutcome = 'normal' | 'failed' | 'hold';
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

export interface JobRunnerOptions {
  files: FileStore;
  speed: number;
  /** Each job's time drawn from its tier's log-normal latency (default), or the median exactly (`false`). */
  spread?: boolean;
  emit: (event: JobEvent, job: Job) => void;
  log: (line: string) => void;
}

/** Creates jobs and walks them through queued → processing → succeeded | failed. */
export class JobRunner {
  readonly #jobs = new Map<string, Job>();
  readonly #timers = new Set<{ timer: NodeJS.Timeout; done: () => void }>();
  #closed = false;
  readonly #stop = new AbortController();

  constructor(private readonly options: JobRunnerOptions) {}

  get(workspace: Workspace, id: string): Job | undefined {
    const job = this.#jobs.get(id);
    return job && job.workspace === workspace ? job : undefined;
  }

  /** Any workspace's job: only for the sandbox's own controls, never for /v1. */
  find(id: string): Job | undefined {
    return this.#jobs.get(id);
  }

  all(): Job[] {
    return [...this.#jobs.values()];
  }

  create(input: {
    workspace: Workspace;
    type: JobType;
    request: ImageRequest | VideoRequest;
    views: View[];
    provider: string;
    idempotencyKey: string | null;
    charged: number;
    outcome: JobOutcome;
  }): Job {
    const seconds = drawSeconds((input.type === 'video' ? latency.video : latency.front)[input.request.tier], {
      spread: this.options.spread ?? true,
    });
    const make = (type: JobType, views: View[], parent: Job | null): Job => {
      const now = new Date().toISOString();
      const job: Job = {
        id: newId('job'),
        workspace: input.workspace,
        type,
        status: 'queued',
        request: input.request,
        tier: input.request.tier,
        views,
        provider: input.provider,
        createdAt: now,
        updatedAt: now,
        phase: { from: 0, to: 0, start: Date.now(), ms: 0 },
        parent,
        children: [],
        idempotencyKey: parent ? null : input.idempotencyKey,
        charged: parent ? 0 : input.charged,
        polls: 0,
        seconds,
        outputs: [],
        outcome: input.outcome,
      };
      this.#jobs.set(job.id, job);
      input.workspace.jobIds.push(job.id);
      return job;
    };
    const job = make(input.type, input.views, null);
    if (input.type === 'catalog') job.children = input.views.map((view) => make('image', [view], job));
    // Start after the submit answer is built, so the caller always sees `queued` first.
    setImmediate(() => void this.#run(job));
    return job;
  }

  /** Lets a held job go on; works before it reaches the hold point too. False if it was not held. */
  release(job: Job): boolean {
    if (job.outcome !== 'hold') return false;
    job.outcome = 'normal';
    const release = job.release;
    delete job.release;
    release?.();
    return true;
  }

  releaseAll(): void {
    for (const job of this.#jobs.values()) this.release(job);
  }

  close(): void {
    this.#closed = true;
    this.#stop.abort();
    for (const { timer, done } of this.#timers) {
      clearTimeout(timer);
      done();
    }
    this.#timers.clear();
    this.releaseAll();
  }

  #wait(seconds: number): Promise<void> {
    const ms = seconds * 1000 * this.options.speed;
    if (ms <= 0 || this.#closed) return Promise.resolve();
    return new Promise((resolve) => {
      const entry = {
        timer: setTimeout(() => {
          this.#timers.delete(entry);
          resolve();
        }, ms),
        done: resolve,
      };
      this.#timers.add(entry);
    });
  }

  #set(job: Job, status: JobStatus, phase?: { from: number; to: number; seconds: number }): void {
    job.status = status;
    job.updatedAt = new Date().toISOString();
    if (phase)
      job.phase = { from: phase.from, to: phase.to, start: Date.now(), ms: phase.seconds * 1000 * this.options.speed };
    const event: JobEvent | undefined =
      status === 'processing'
        ? 'job.processing'
        : status === 'succeeded'
          ? 'job.succeeded'
          : status === 'failed'
            ? 'job.failed'
            : undefined;
    if (event) this.options.emit(event, job);
  }

  #fail(job: Job, code: string, message: string): void {
    for (const child of job.children) {
      if (child.status === 'succeeded' || child.status === 'failed') continue;
      child.error = { code, message };
      this.#set(child, 'failed');
    }
    // A failed job gives its credits back: the caller got nothing for them.
    job.workspace.credits += job.charged;
    job.charged = 0;
    job.error = { code, message };
    this.#set(job, 'failed');
  }

  async #run(job: Job): Promise<void> {
    try {
      await this.#steps(job);
    } catch (error) {
      if (this.#closed) return;
      this.options.log(
        `sandbox: job ${job.id} could not be rendered: ${error instanceof Error ? error.message : String(error)}`,
      );
      this.#fail(job, 'render_failed', 'The sandbox could not render this job.');
    }
  }

  async #steps(job: Job): Promise<void> {
    const req = job.request;
    const isVideo = job.type === 'video';
    // Submit → front output, queued time included (drawn at create).
    const total = job.seconds;
    const frontSeconds = total * (1 - durations.queuedShare);
    const viewSeconds = frontSeconds * durations.derivedViewShare;
    const order: View[] = [...job.views].sort((a, b) => Number(b === 'front') - Number(a === 'front'));
    const steps = order.length;

    await this.#wait(total * durations.queuedShare);
    if (this.#closed) return;
    this.#set(job, 'processing', { from: 0, to: 1 / steps, seconds: frontSeconds });
    for (const child of job.children) this.#set(child, 'processing', { from: 0, to: 1, seconds: frontSeconds });

    if (job.outcome === 'hold') {
      await new Promise<void>((resolve) => {
        job.release = resolve;
      });
      job.outcome = 'normal';
      if (this.#closed) return;
      job.phase.start = Date.now();
    }
    if (job.outcome === 'failed') {
      await this.#wait(frontSeconds * 0.3);
      if (!this.#closed) this.#fail(job, 'render_failed', 'The render failed (a fault injected in the sandbox).');
      return;
    }

    await this.#wait(frontSeconds);
    if (this.#closed) return;
    const front = await this.#renderFront(job);
    const labels = (view: View): RenderLabels => ({
      category: req.garment.category,
      subtype: req.garment.subtype ?? defaultSubtype[req.garment.category],
      view,
      background: req.background,
      tier: job.tier,
      provider: job.provider,
    });

    if (isVideo && 'fps' in req) {
      const video = await renderVideo(
        front,
        {
          ...labels('front'),
          duration_seconds: req.duration_seconds,
          fps: req.fps,
          motion: req.motion,
          camera: req.camera,
        },
        this.#stop.signal,
      );
      if (this.#closed) return;
      const file = this.options.files.add({
        workspace: job.workspace.name,
        kind: 'output',
        contentType: 'video/mp4',
        bytes: video.bytes,
        width: video.width,
        height: video.height,
      });
      this.#addOutput(job, {
        file,
        view: 'front',
        type: 'video',
        duration_seconds: req.duration_seconds,
        fps: req.fps,
      });
      this.#set(job, 'succeeded');
      return;
    }

    for (const [index, view] of order.entries()) {
      if (view !== 'front') {
        job.phase = {
          from: index / steps,
          to: (index + 1) / steps,
          start: Date.now(),
          ms: viewSeconds * 1000 * this.options.speed,
        };
        await this.#wait(viewSeconds);
        if (this.#closed) return;
      }
      const image = await renderView(front, labels(view));
      if (this.#closed) return;
      const file = this.options.files.add({
        workspace: job.workspace.name,
        kind: 'output',
        contentType: 'image/jpeg',
        bytes: image.bytes,
        width: image.width,
        height: image.height,
      });
      const output: Output = { file, view, type: 'image' };
      const child = job.children.find((c) => c.views[0] === view);
      if (child) {
        this.#addOutput(child, output);
        this.#set(child, 'succeeded');
      }
      this.#addOutput(job, output);
      job.phase = { from: (index + 1) / steps, to: (index + 1) / steps, start: Date.now(), ms: 0 };
    }
    this.#set(job, 'succeeded');
  }

  #addOutput(job: Job, output: Output): void {
    job.outputs.push(output);
    job.updatedAt = new Date().toISOString();
    this.options.emit('job.output_ready', job);
  }

  /** The identity lock: every view (and every video frame) starts from this one picture. */
  async #renderFront(job: Job): Promise<Front> {
    const req = job.request;
    const fileOf = (id: string | undefined) => (id ? this.options.files.get(job.workspace.name, id) : undefined);
    const person = fileOf(req.person_image);
    const garmentSource =
      req.mode === 'garment_to_person' ? fileOf(req.garment_image) : fileOf(req.reference_person_image);
    if (!person || !garmentSource) throw new Error('an input file has disappeared');
    return renderFront({
      person: person.bytes,
      garment: garmentSource.bytes,
      garmentFromPerson: req.mode === 'person_to_person',
      background: req.background,
      tier: job.tier,
      log: (line) => this.options.log(`${line} (job ${job.id})`),
    });
  }
}
