// The status of each try-on, shared by everyone watching it: one upstream poll per try-on per
// interval however many browsers ask (in-flight promise reuse plus a cache as old as the
// interval), one poll loop per try-on while anyone listens over SSE, and a webhook that updates
// the cache and wakes the listeners at once. A finished try-on is never polled again. Once a
// webhook has arrived for a try-on, its later changes are pushed too, so it is polled only now and
// then, as a safety net for an event that gets lost.
import type { Status, Upstream, UpstreamJob, UpstreamOutput } from './upstream/client.js';

export interface TryonSnapshot {
  status: Status;
  progress?: number | undefined;
  error?: { code: string; message: string; retryable: boolean } | undefined;
  outputs: UpstreamOutput[];
  /** Epoch ms when this was read from upstream. */
  at: number;
}

interface Entry {
  snapshot?: TryonSnapshot;
  inflight?: Promise<TryonSnapshot>;
  listeners: Set<(snapshot: TryonSnapshot) => void>;
  loop?: boolean;
  wake?: () => void;
  /** Upstream sends events for this job itself, so events of its children add nothing. */
  ownEvents?: boolean;
  /** Version used to decide whether an SSE listener needs a new event. */
  signature?: string;
  /** A verified webhook has come for this try-on: upstream pushes its changes. */
  pushed?: boolean;
}

const TERMINAL = new Set<Status>(['succeeded', 'failed']);
export const isTerminal = (status: Status) => TERMINAL.has(status);

const MAX_ENTRIES = 20_000;

export class TryonStatusBoard {
  private entries = new Map<string, Entry>();

  constructor(
    private readonly upstream: Upstream,
    private readonly options: {
      intervalMs: number;
      /** How long a snapshot stays fresh once webhooks are known to arrive for its try-on. */
      pushedIntervalMs?: number;
      now: () => number;
      log: (entry: Record<string, unknown>) => void;
    },
  ) {}

  private freshFor(entry: Entry): number {
    return entry.pushed ? (this.options.pushedIntervalMs ?? this.options.intervalMs) : this.options.intervalMs;
  }

  private entry(jobId: string): Entry {
    let entry = this.entries.get(jobId);
    if (!entry) {
      entry = { listeners: new Set() };
      this.entries.set(jobId, entry);
      if (this.entries.size > MAX_ENTRIES) this.evict();
    }
    return entry;
  }

  private evict(): void {
    for (const [id, entry] of this.entries) {
      if (entry.listeners.size === 0 && !entry.inflight) this.entries.delete(id);
      if (this.entries.size <= MAX_ENTRIES * 0.9) return;
    }
  }

  /** The current status: from the cache if fresh (or final), else one shared upstream read. */
  read(jobId: string): Promise<TryonSnapshot> {
    const entry = this.entry(jobId);
    const cached = entry.snapshot;
    if (cached && (isTerminal(cached.status) || this.options.now() - cached.at < this.freshFor(entry))) {
      return Promise.resolve(cached);
    }
    return this.refresh(jobId, entry);
  }

  /** Known without asking upstream (for a file check that must not cost a poll). */
  peek(jobId: string): TryonSnapshot | undefined {
    return this.entries.get(jobId)?.snapshot;
  }

  private refresh(jobId: string, entry: Entry, known?: UpstreamJob): Promise<TryonSnapshot> {
    if (entry.inflight && !known) return entry.inflight;
    const previous = entry.snapshot;
    const run = (async () => {
      const job = known ?? (await this.upstream.getJob(jobId));
      let outputs = previous?.outputs ?? [];
      if (this.outputsMayHaveChanged(job, outputs)) outputs = await this.upstream.listOutputs(jobId);
      return this.snapshotOf(job, outputs);
    })();
    const tracked = run.then((snapshot) => {
      entry.snapshot = snapshot;
      this.publish(entry, snapshot);
      return snapshot;
    }).finally(() => {
      if (entry.inflight === tracked) entry.inflight = undefined;
    });
    entry.inflight = tracked;
    return tracked;
  }

  private outputsMayHaveChanged(job: UpstreamJob, outputs: UpstreamOutput[]): boolean {
    if (job.status === 'succeeded') return true;
    if (job.status !== 'processing' && job.status !== 'queued') return false;
    // A catalog shows each view as it finishes: ask for outputs only when a child finished
    // (or, if upstream does not list children, on every poll while it renders).
    if (job.children) return job.children.filter((c) => c.status === 'succeeded').length > outputs.length;
    return job.type === 'catalog';
  }

  private snapshotOf(job: UpstreamJob, outputs: UpstreamOutput[]): TryonSnapshot {
    // "Succeeded" with nothing to show yet (outputs listed a moment later) is still rendering to
    // the shopper, and must not be cached as final.
    const status = job.status === 'succeeded' && outputs.length === 0 ? 'processing' : job.status;
    return {
      status,
      progress: job.progress,
      error: job.status === 'failed'
        ? { code: 'render_failed', message: 'The try-on could not be made from this photo; please try another.', retryable: false }
        : undefined,
      outputs,
      at: this.options.now(),
    };
  }

  private publish(entry: Entry, snapshot: TryonSnapshot): void {
    const signature = JSON.stringify([snapshot.status, snapshot.progress, snapshot.outputs.map((o) => o.fileId)]);
    if (signature === entry.signature) return;
    entry.signature = signature;
    for (const listener of entry.listeners) listener(snapshot);
  }

  /**
   * Calls `listener` with the latest snapshot known, at once, and then with every change until
   * unsubscribed. While anyone listens, one loop per try-on polls upstream once per interval (and
   * sleeps early-woken by webhooks). The first call matters: a caller that read the status a moment
   * ago may have missed a change published since (the final one included, which is published only
   * once), and would otherwise wait for a change that never comes.
   */
  watch(jobId: string, listener: (snapshot: TryonSnapshot) => void): () => void {
    const entry = this.entry(jobId);
    entry.listeners.add(listener);
    if (entry.snapshot) listener(entry.snapshot);
    if (!entry.loop) void this.loop(jobId, entry);
    return () => {
      entry.listeners.delete(listener);
      if (entry.listeners.size === 0) entry.wake?.();
    };
  }

  private async loop(jobId: string, entry: Entry): Promise<void> {
    entry.loop = true;
    try {
      while (entry.listeners.size > 0) {
        try {
          const snapshot = await this.read(jobId);
          if (isTerminal(snapshot.status)) {
            this.publish(entry, snapshot);
            break;
          }
        } catch (error) {
          this.options.log({ event: 'poll_failed', code: (error as { code?: string }).code ?? 'unknown' });
        }
        const age = entry.snapshot ? this.options.now() - entry.snapshot.at : 0;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Math.max(10, this.freshFor(entry) - age));
          entry.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        entry.wake = undefined;
      }
    } finally {
      entry.loop = false;
    }
  }

  /** A verified webhook said this job changed: update the cache and wake listeners now. */
  async update(job: UpstreamJob): Promise<boolean> {
    const jobId = this.entries.has(job.id) ? job.id : job.parent && this.entries.has(job.parent) ? job.parent : undefined;
    if (!jobId) return false;
    const entry = this.entry(jobId);
    entry.pushed = true;
    // Webhooks may arrive late or out of order: a finished try-on stays finished.
    if (entry.snapshot && isTerminal(entry.snapshot.status)) return true;
    if (jobId === job.id) {
      entry.ownEvents = true;
      await this.refresh(jobId, entry, job);
    } else if (!entry.ownEvents) {
      await this.refresh(jobId, entry); // only a child's event: read the parent once
    }
    entry.wake?.();
    return true;
  }

  /** Remembers a freshly submitted job so webhooks about it are recognised. */
  seed(job: UpstreamJob): void {
    const entry = this.entry(job.id);
    if (!entry.snapshot) entry.snapshot = this.snapshotOf(job, []);
  }
}
