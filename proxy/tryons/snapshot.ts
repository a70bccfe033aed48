// A try-on's status as everyone watching it sees it, how it is made from an upstream job, and the
// one order statuses move in. A leaf module: the status board, every store and the answer bodies
// read it, and it reads none of them.
import type { Status, UpstreamJob, UpstreamOutput } from '../upstream/answers.js';

/**
 * What the check of a result against the product's garment found (the proxy's `results/`), as the
 * status body carries it: `unchecked` when the check could not run or was switched off, never `true`.
 * `rerender`: a differing view rendered once more, under way (`running`, the status `processing`),
 * or ended (`done`: these are the new outputs, checked again; `failed`: the first result stands).
 */
export interface TryonFidelity {
  verdict: 'true' | 'differs' | 'unchecked';
  views: { view: string; colour: { deltaE: number }; coverage: 'ok' | 'missing' | 'partial' }[];
  rerender?: 'running' | 'done' | 'failed' | undefined;
  /** Why it is unchecked, or what differed: for the log line, never in a status body. */
  reason?: string | undefined;
}

/** A rerender under way: its upstream job, the views it renders again, and the first result, which stands should it fail. */
export interface TryonRerender {
  jobId: string;
  /** When it was submitted (epoch ms): one that stays unfinished past its tier's bound ends as failed. */
  startedAt: number;
  views: string[];
  first: { outputs: UpstreamOutput[]; fidelity: TryonFidelity };
  /** Why it ended without a result (`render_failed`: upstream failed it and gave its credits back). */
  failed?: string | undefined;
}

export interface TryonSnapshot {
  status: Status;
  progress?: number | undefined;
  error?: { code: string; message: string; retryable: boolean } | undefined;
  outputs: UpstreamOutput[];
  /** Epoch ms when this was read from upstream. */
  at: number;
  /** A succeeded try-on's check against the garment (set before it is written as succeeded). */
  fidelity?: TryonFidelity | undefined;
  /** Kept while a rerender runs (never in a status body): what the board polls instead of the try-on's own job. */
  rerender?: TryonRerender | undefined;
}

/**
 * The order a status moves in: never backwards, and a finished one (rank 2) never changes. The
 * stores' replaces() and its Lua mirror in status-store-redis.ts, and the board's listeners, all use it.
 */
export const STATUS_RANK: Readonly<Record<Status, number>> = { queued: 0, processing: 1, succeeded: 2, failed: 2 };

/** Whether a status is final: succeeded or failed. */
export const isTerminal = (status: Status): boolean => STATUS_RANK[status] === 2;

/** What the shopper is shown of an upstream job, read at `at` (epoch ms). */
export function snapshotOf(job: UpstreamJob, outputs: UpstreamOutput[], at: number): TryonSnapshot {
  // "Succeeded" with nothing to show yet (outputs listed a moment later) is still rendering to
  // the shopper, and must not be cached as final.
  const status = job.status === 'succeeded' && outputs.length === 0 ? 'processing' : job.status;
  return {
    status,
    progress: job.progress,
    error:
      job.status === 'failed'
        ? {
            code: 'render_failed',
            message: 'The try-on could not be made from this photo; please try another.',
            retryable: false,
          }
        : undefined,
    outputs,
    at,
  };
}

/** Whether a poll must list the job's outputs again (a request upstream of its own). */
export function outputsMayHaveChanged(job: UpstreamJob, outputs: UpstreamOutput[]): boolean {
  if (job.status === 'succeeded') return true;
  if (job.status !== 'processing' && job.status !== 'queued') return false;
  // A catalog shows each view as it finishes: ask for outputs only when a child finished
  // (or, if upstream does not list children, on every poll while it renders).
  if (job.children) return job.children.filter((c) => c.status === 'succeeded').length > outputs.length;
  return job.type === 'catalog';
}
