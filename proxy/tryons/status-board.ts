// The status of each try-on, shared by everyone watching it, on every instance: one upstream poll
// per try-on per interval however many browsers and instances ask (the store grants the right to
// poll to one caller per interval; an instance also shares its own in-flight read), one poll loop
// per try-on per instance while anyone listens over SSE, and a webhook that updates the shared
// snapshot and wakes the listeners of every instance at once (the store's fan-out). A finished
// try-on is never polled again, and a status never goes backwards (the store refuses it). Once a
// webhook has arrived for a try-on, its later changes are pushed too, so it is polled only now
// and then, as a safety net for an event that gets lost.
import type { Upstream, UpstreamJob } from '../upstream/client.js';
import type { StatusRecord, TryonPlan, TryonStatusStore } from './status-store.js';
import { noMetrics, type ProxyMetrics } from '../operator/metrics.js';
import type { UsageBook } from '../money/usage-book.js';
import type { TryonTimes } from '../timings/tryon-times.js';
import {
  STATUS_RANK,
  isTerminal,
  outputsMayHaveChanged,
  snapshotOf,
  type TryonRerender,
  type TryonSnapshot,
} from './snapshot.js';
import { givenUpSnapshot, stuckSnapshot } from './give-up.js';

/**
 * What happens to a result before any shopper sees it (the proxy's `results/`): the check against
 * the garment, and a rerender of a differing view. Given to the board, which sits below it. None
 * of its calls throws: what cannot be checked is `unchecked`, a rerender that cannot run `failed`.
 */
export interface ResultCheck {
  /**
   * Upstream says the try-on succeeded, its outputs listed: the snapshot to write instead, checked
   * (or `processing` while a rerender of a differing view runs). Until it answers the store keeps
   * the try-on unfinished, so no shopper sees `succeeded` before its check.
   */
  checked(jobId: string, record: StatusRecord | undefined, snapshot: TryonSnapshot): Promise<TryonSnapshot>;
  /** The try-on's rerender is under way: its job read, the snapshot to write (still `processing`, or the final one). */
  rerendering(jobId: string, record: StatusRecord, rerender: TryonRerender): Promise<TryonSnapshot>;
  /** After the one write that finished the try-on in the cluster: the check's log line, the usage book. */
  finished(jobId: string, record: StatusRecord): Promise<void>;
}

/** What one instance keeps about a try-on: its own listeners and reads, nothing others need. */
interface Local {
  inflight?: Promise<StatusRecord>;
  listeners: Set<(snapshot: TryonSnapshot) => void>;
  loop?: boolean;
  wake?: () => void;
  /** Version last sent to this instance's listeners. */
  signature?: string;
  /** Status last sent to this instance's listeners (a late fan-out message must not undo it). */
  delivered?: TryonSnapshot;
  /**
   * The check of the try-on's result and its write, while they run: a webhook or a forced read
   * that finds upstream done meanwhile waits for them instead of checking the same result again.
   */
  finishing?: Promise<StatusRecord>;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** How refresh() reads a try-on. */
interface RefreshOptions {
  /** A job a webhook brought: written without a poll. */
  known?: UpstreamJob | undefined;
  /** Polls without asking for the right to (a child's webhook, or another's poll that never came). */
  force?: boolean;
  /** Marks written with the snapshot (pushed, ownEvents). */
  flags?: Partial<StatusRecord>;
}

/** Finished try-ons remembered by one instance: a final snapshot never changes, so no instance can disagree. */
const MAX_FINISHED = 10_000;

export class TryonStatusBoard {
  private readonly local = new Map<string, Local>();
  private readonly finished = new Map<string, StatusRecord>();
  private readonly store: TryonStatusStore;
  private readonly metrics: ProxyMetrics;

  constructor(
    private readonly upstream: Upstream,
    private readonly options: {
      intervalMs: number;
      /** How long a snapshot stays fresh once webhooks are known to arrive for its try-on. */
      pushedIntervalMs?: number;
      now: () => number;
      log: (entry: Record<string, unknown>) => void;
      /** Where snapshots are shared between instances (given by whoever builds the board: no default store here). */
      store: TryonStatusStore;
      metrics?: ProxyMetrics;
      /** Where a failed try-on's credits are given back for GET /usage. */
      usage?: UsageBook;
      /** How long snapshots are kept in the store (the try-on handle's life). */
      keepMs?: number;
      /**
       * How long upstream may fail a try-on's polls before it ends as `upstream_unavailable`, in
       * percent of its tier's slow case (give-up.ts; limits.upstreamDownPercent). Default 100.
       */
      downPercent?: number;
      /**
       * How long after it was accepted a try-on upstream still calls unfinished ends as
       * `upstream_unavailable`, in percent of its tier's slow case (limits.upstreamStuckPercent). Default 1000.
       */
      stuckPercent?: number;
      /** Where each finished try-on's time is counted, for the typical time the widget shows. */
      times?: TryonTimes;
      /** What a succeeded result goes through before it is written (absent: written as upstream says). */
      results?: ResultCheck;
    },
  ) {
    this.store = options.store;
    this.metrics = options.metrics ?? noMetrics;
    this.store.onPublished((jobId, snapshot) => this.deliver(jobId, snapshot, true));
  }

  private get keepMs(): number {
    return this.options.keepMs ?? 86_400_000;
  }

  private freshFor(record: StatusRecord | undefined): number {
    // A rerender's job is polled at the usual pace: upstream's webhooks name the try-on's own job, not it.
    const pushed = record?.pushed && !record.snapshot.rerender;
    return pushed ? (this.options.pushedIntervalMs ?? this.options.intervalMs) : this.options.intervalMs;
  }

  private isFresh(record: StatusRecord): boolean {
    return isTerminal(record.snapshot.status) || this.options.now() - record.snapshot.at < this.freshFor(record);
  }

  private localOf(jobId: string): Local {
    let local = this.local.get(jobId);
    if (!local) {
      local = { listeners: new Set() };
      this.local.set(jobId, local);
    }
    return local;
  }

  /** Drops what this instance keeps about a try-on nobody here listens to or reads. */
  private release(jobId: string): void {
    const local = this.local.get(jobId);
    if (local && local.listeners.size === 0 && !local.inflight && !local.finishing && !local.loop)
      this.local.delete(jobId);
  }

  /** The current status: from the store if fresh (or final), else one shared upstream read. */
  async read(jobId: string): Promise<TryonSnapshot> {
    return (await this.readRecord(jobId)).snapshot;
  }

  private async readRecord(jobId: string): Promise<StatusRecord> {
    const done = this.finished.get(jobId);
    if (done) return done;
    const record = await this.store.readStatus(jobId);
    if (record && this.isFresh(record)) return this.remember(jobId, record);
    return this.refresh(jobId, record);
  }

  /** Keeps a finished try-on's record in this instance, so reading it again costs no store round trip. */
  private remember(jobId: string, record: StatusRecord): StatusRecord {
    if (!isTerminal(record.snapshot.status) || this.finished.has(jobId)) return record;
    this.finished.set(jobId, record);
    if (this.finished.size > MAX_FINISHED) this.finished.delete(this.finished.keys().next().value as string);
    return record;
  }

  /** Known without asking upstream (for a file check that must not cost a poll). */
  async known(jobId: string): Promise<TryonSnapshot | undefined> {
    return (this.finished.get(jobId) ?? (await this.store.readStatus(jobId)))?.snapshot;
  }

  /**
   * Reads upstream if this caller wins the right to poll; otherwise the poll is another's, and
   * the last snapshot (never newer than the interval allows) stands.
   */
  private refresh(jobId: string, record: StatusRecord | undefined, how: RefreshOptions = {}): Promise<StatusRecord> {
    const { known, force = false, flags = {} } = how;
    const local = this.localOf(jobId);
    if (local.inflight && !known && !force) return local.inflight;
    const run = (async (): Promise<StatusRecord> => {
      if (!known && !force && !(await this.store.claimPoll(jobId, this.freshFor(record)))) {
        return record ?? this.awaitOthersPoll(jobId);
      }
      let snapshot: TryonSnapshot;
      const results = this.options.results;
      const rerender = record?.snapshot.rerender;
      // A rerender runs: the try-on's own job is done, and its rerender's job is what is read.
      if (rerender && results && record && !isTerminal(record.snapshot.status)) {
        snapshot = await results.rerendering(jobId, record, rerender);
        return this.write(jobId, snapshot, flags);
      }
      try {
        const job = known ?? (await this.upstream.getJob(jobId));
        let outputs = record?.snapshot.outputs ?? [];
        if (outputsMayHaveChanged(job, outputs)) outputs = await this.upstream.listOutputs(jobId);
        snapshot = snapshotOf(job, outputs, this.options.now());
        // Upstream answers, but has kept the job unfinished far past any time it takes: it ends too.
        snapshot = stuckSnapshot(snapshot, record, this.options.now(), this.options.stuckPercent ?? 1000) ?? snapshot;
      } catch (error) {
        // Upstream forgot the job, or has failed for longer than the tier's bound: the try-on ends
        // here, through the store like any final status, so no instance polls it again.
        const ended = givenUpSnapshot(
          error,
          record,
          this.options.now(),
          this.options.downPercent ?? 100,
          this.freshFor(record),
        );
        if (!ended) {
          if (!known && !force) await this.store.releasePoll(jobId).catch(() => undefined);
          throw error;
        }
        snapshot = ended;
      }
      // Checked before it is written: the store's succeeded is always a checked one. Once per
      // process: a caller that comes while a check runs (its poll right ran out, a webhook crossed
      // it) or after it was written answers that one, so no second verdict is ever made here.
      if (snapshot.status === 'succeeded' && results && !snapshot.fidelity) {
        const running = this.finished.get(jobId) ?? local.finishing;
        if (running) return this.marked(jobId, await running, flags);
        const unchecked = snapshot;
        const finishing = (async () =>
          this.write(jobId, await results.checked(jobId, record, unchecked), flags))().finally(() => {
          if (local.finishing === finishing) local.finishing = undefined;
        });
        local.finishing = finishing;
        return finishing;
      }
      return this.write(jobId, snapshot, flags);
    })();
    const tracked = run.finally(() => {
      if (local.inflight === tracked) local.inflight = undefined;
      this.release(jobId);
    });
    local.inflight = tracked;
    return tracked;
  }

  /** The marks a caller brought (a webhook's `pushed`), kept on a record another caller wrote. */
  private async marked(jobId: string, record: StatusRecord, flags: Partial<StatusRecord>): Promise<StatusRecord> {
    if ((!flags.pushed || record.pushed) && (!flags.ownEvents || record.ownEvents)) return record;
    const written = await this.store.writeStatus(jobId, { snapshot: record.snapshot, ...flags }, this.keepMs);
    return written.record;
  }

  /** Writes a snapshot through the store, and tells this instance's listeners and the others. */
  private async write(jobId: string, snapshot: TryonSnapshot, flags: Partial<StatusRecord>): Promise<StatusRecord> {
    const written = await this.store.writeStatus(jobId, { snapshot, ...flags }, this.keepMs);
    if (written.finished) await this.onFinished(jobId, written.record);
    this.deliver(jobId, written.record.snapshot, false);
    await this.store.publish(jobId, written.record.snapshot);
    return this.remember(jobId, written.record);
  }

  /** What the one write that finished a try-on (in the whole cluster) does: metrics, the usage book, the log. */
  private async onFinished(jobId: string, record: StatusRecord): Promise<void> {
    const { product = 'unknown', tier = 'unknown', snapshot } = record;
    await this.options.times?.tryonFinished(record);
    this.metrics.tryonFinished(product, tier, snapshot.status);
    if (snapshot.status === 'succeeded') {
      await this.options.results
        ?.finished(jobId, record)
        .catch((error: Error) =>
          this.options.log({ level: 'warn', event: 'fidelity_unrecorded', message: error.message }),
        );
    }
    if (snapshot.status !== 'failed') return;
    const code = snapshot.error?.code ?? 'render_failed';
    if (code === 'upstream_lost' || code === 'upstream_unavailable')
      this.options.log({ level: 'warn', event: 'tryon_given_up', code, product, tier });
    const unwritten = (error: Error) =>
      this.options.log({ level: 'warn', event: 'usage_unwritten', code, message: error.message });
    // Upstream gives a failed job's credits back, and a job it forgot is taken as never charged
    // (docs/upstream-api.md): the usage book gives them back too. A job the proxy stopped waiting
    // for while upstream was down may still finish there and be charged: its credits stay
    // counted, and only its code is.
    if (code === 'upstream_unavailable') await this.options.usage?.errorAnswered(code).catch(unwritten);
    else await this.options.usage?.jobFailed(jobId, code).catch(unwritten);
  }

  /** Another instance holds the right to poll a try-on this one has never seen: wait for its answer. */
  private async awaitOthersPoll(jobId: string): Promise<StatusRecord> {
    // Counted in looks, not by the clock: a test's clock may stand still.
    const step = Math.max(1, Math.min(50, this.options.intervalMs));
    for (let looks = Math.ceil(this.options.intervalMs / step); looks > 0; looks--) {
      await sleep(step);
      const record = await this.store.readStatus(jobId);
      if (record) return record;
    }
    return this.refresh(jobId, undefined, { force: true });
  }

  /**
   * Hands a snapshot to this instance's listeners of the try-on, once per change, never one that
   * would take the status back; and wakes its poll loop (a fan-out message may be the news).
   */
  private deliver(jobId: string, snapshot: TryonSnapshot, fromOthers: boolean): void {
    const local = this.local.get(jobId);
    if (!local) return;
    if (fromOthers) local.wake?.();
    const last = local.delivered;
    if (last && (isTerminal(last.status) || STATUS_RANK[snapshot.status] < STATUS_RANK[last.status])) return;
    const signature = JSON.stringify([
      snapshot.status,
      snapshot.progress,
      snapshot.outputs.map((o) => o.fileId),
      snapshot.fidelity?.verdict,
      snapshot.fidelity?.rerender,
    ]);
    if (signature === local.signature) return;
    local.signature = signature;
    local.delivered = snapshot;
    for (const listener of local.listeners) listener(snapshot);
  }

  /**
   * Calls `listener` with the latest snapshot this instance knows, at once, and then with every
   * change until unsubscribed. While anyone listens here, one loop per try-on reads it once per
   * interval (polling upstream only when this instance holds the right), woken early by webhooks
   * and by the other instances' news. The loop's first read is at once: a caller that read the
   * status a moment ago may have missed a change published since (the final one included, which is
   * published only once), and would otherwise wait for a change that never comes.
   */
  watch(jobId: string, listener: (snapshot: TryonSnapshot) => void): () => void {
    const local = this.localOf(jobId);
    local.listeners.add(listener);
    if (local.delivered) listener(local.delivered);
    if (!local.loop) void this.loop(jobId, local);
    // Per watcher, not per try-on: on Workers the stream is tied to the request that opened it.
    const unfollow = this.store.follow?.(jobId);
    return () => {
      unfollow?.();
      local.listeners.delete(listener);
      if (local.listeners.size === 0) local.wake?.();
    };
  }

  private async loop(jobId: string, local: Local): Promise<void> {
    local.loop = true;
    try {
      while (local.listeners.size > 0) {
        let delay = this.options.intervalMs;
        try {
          const record = await this.readRecord(jobId);
          this.deliver(jobId, record.snapshot, false);
          if (isTerminal(record.snapshot.status)) break;
          // Fresh: sleep until it is due. Stale: another instance is polling; its news wakes us.
          const due = record.snapshot.at + this.freshFor(record) - this.options.now();
          delay = due > 0 ? due : this.freshFor(record);
        } catch (error) {
          this.options.log({ event: 'poll_failed', code: (error as { code?: string }).code ?? 'unknown' });
        }
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Math.max(10, delay));
          local.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        local.wake = undefined;
      }
    } finally {
      local.loop = false;
      this.release(jobId);
    }
  }

  /** A verified webhook said this job changed: update the shared snapshot and wake listeners now. */
  async update(job: UpstreamJob): Promise<boolean> {
    let jobId = job.id;
    let record = await this.store.readStatus(job.id);
    if (!record && job.parent) {
      jobId = job.parent;
      record = await this.store.readStatus(job.parent);
    }
    if (!record) return false;
    const own = jobId === job.id;
    // Webhooks may arrive late or out of order: a finished try-on stays finished.
    if (isTerminal(record.snapshot.status)) {
      if (!record.pushed) await this.store.writeStatus(jobId, { snapshot: record.snapshot, pushed: true }, this.keepMs);
      return true;
    }
    if (own) {
      await this.refresh(jobId, record, { known: job, flags: { pushed: true, ownEvents: true } });
    } else if (!record.ownEvents) {
      await this.refresh(jobId, record, { force: true, flags: { pushed: true } }); // only a child's event: read the parent once
    } else if (!record.pushed) {
      await this.store.writeStatus(jobId, { snapshot: record.snapshot, pushed: true }, this.keepMs);
    }
    this.local.get(jobId)?.wake?.();
    return true;
  }

  /**
   * Remembers a freshly submitted job so webhooks about it are recognised on every instance; with
   * the try-on's plan when its result is to be checked (a first look's job has none).
   */
  async seed(job: UpstreamJob, labels: { product: string; tier: string }, plan?: TryonPlan): Promise<void> {
    const snapshot = snapshotOf(job, [], this.options.now());
    await this.store.seedStatus(
      job.id,
      { snapshot, ...labels, acceptedAt: snapshot.at, ...(plan ? { plan } : {}) },
      this.keepMs,
    );
  }
}
