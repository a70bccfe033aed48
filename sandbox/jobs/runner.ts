// The job runner: creates jobs and walks each through queued → processing → succeeded | failed on
// the clock its tier's latency draws (scaled by SANDBOX_SPEED), rendering the real outputs on the
// way (drawing/render.ts, drawing/video.ts) and emitting the events webhooks send; a catalog job's views are child
// jobs that share the front. Injected outcomes (fail, hold) come from faults.ts. The job's own shape
// and its API answer are in job.ts.
import { newId } from '../api/ids.js';
import { renderLabels } from './job.js';
import type { Job, JobEvent, JobOutcome, JobStatus, JobType, Output } from './job.js';
import { renderFront, renderOver, renderView } from '../drawing/render.js';
import { KeptFronts, KeptResults } from '../drawing/kept-fronts.js';
import type { Front } from '../drawing/picture.js';
import { misdrawnFront } from './misdrawn.js';
import type { Misdraw } from './misdrawn.js';
import { renderVideo } from '../drawing/video.js';
import { drawSeconds, durations, latency } from '../api/tiers.js';
import type { FileStore, StoredFile } from '../files/store.js';
import type { ImageRequest, VideoRequest, View } from '../api/tryon-request.js';
import type { Workspace } from './workspaces.js';

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
  readonly #fronts = new KeptFronts();
  readonly #results = new KeptResults();

  constructor(private readonly options: JobRunnerOptions) {}

  get(workspace: Workspace, id: string): Job | undefined {
    const job = this.#jobs.get(id);
    return job && job.workspace === workspace && !job.vanished ? job : undefined;
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
    misdraw?: Misdraw | undefined;
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
        ...(input.misdraw ? { misdraw: input.misdraw } : {}),
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

  /**
   * Forgets a job mid-render, as a service that restarted and lost it would: from now on /v1
   * answers 404 for it and its children, no event is sent, and its credits go back (a job that
   * never finished is not charged, docs/upstream-api.md).
   */
  #vanish(job: Job): void {
    for (const each of [job, ...job.children]) each.vanished = true;
    job.workspace.credits += job.charged;
    job.charged = 0;
    this.options.log(`sandbox: job ${job.id} vanished (a fault injected in the sandbox)`);
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
    if (job.outcome === 'vanish') {
      await this.#wait(frontSeconds * 0.3);
      if (!this.#closed) this.#vanish(job);
      return;
    }

    await this.#wait(frontSeconds);
    if (this.#closed) return;
    const front = await this.#renderFront(job);
    const labels = (view: View) => renderLabels(job, view);
    // A drawn failure is made from the faithful front (no second look for the person), for the
    // whole job or the one view it names.
    const { misdraw } = job;
    const misdrawn = misdraw ? await misdrawnFront(front, misdraw) : undefined;
    const frontFor = (view: View) => (misdrawn && (!misdraw?.view || misdraw.view === view) ? misdrawn : front);

    if (isVideo && 'fps' in req) {
      const video = await renderVideo(
        frontFor('front'),
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
      this.#addOutput(job, {
        file: this.#keep(job, 'video/mp4', video),
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
      const image = await renderView(frontFor(view), labels(view));
      if (this.#closed) return;
      // A result may come back as a person file, for a piece to be worn over it.
      if (view === 'front') this.#results.remember(image.bytes, front);
      const output: Output = { file: this.#keep(job, 'image/jpeg', image), view, type: 'image' };
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

  /** A rendered output kept as a file of the job's workspace. */
  #keep(job: Job, contentType: string, made: { bytes: Uint8Array; width: number; height: number }): StoredFile {
    const { bytes, width, height } = made;
    return this.options.files.add({ workspace: job.workspace.name, kind: 'output', contentType, bytes, width, height });
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
    const inputs = {
      person: person.bytes,
      garment: garmentSource.bytes,
      garmentFromPerson: req.mode === 'person_to_person',
      background: req.background,
      category: req.garment.category,
      subtype: renderLabels(job, 'front').subtype,
      tier: job.tier,
    };
    const log = (line: string) => this.options.log(`${line} (job ${job.id})`);
    // An earlier result sent back as the person: the garment is drawn over it, not over a photo of it.
    const result = this.#results.of(person.bytes);
    const { front, kept } = this.#fronts.get(inputs, () =>
      result ? renderOver(result, { ...inputs, log }) : renderFront({ ...inputs, log }),
    );
    const drawn = await front;
    // A kept front's notes are this job's too: its log says them as a fresh render would.
    if (kept) for (const note of drawn.notes) log(`sandbox: render: ${note}`);
    return drawn;
  }
}
