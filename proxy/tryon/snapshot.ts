// A try-on's status as everyone watching it sees it, and the one order statuses move in. A leaf
// module: the status board, every store and the answer bodies read it, and it reads none of them.
import type { Status, UpstreamOutput } from '../upstream/answers.js';

export interface TryonSnapshot {
  status: Status;
  progress?: number | undefined;
  error?: { code: string; message: string; retryable: boolean } | undefined;
  outputs: UpstreamOutput[];
  /** Epoch ms when this was read from upstream. */
  at: number;
}

/**
 * The order a status moves in: never backwards, and a finished one (rank 2) never changes. The
 * stores' replaces() and its Lua mirror in store/redis.ts, and the board's listeners, all use it.
 */
export const STATUS_RANK: Readonly<Record<Status, number>> = { queued: 0, processing: 1, succeeded: 2, failed: 2 };

/** Whether a status is final: succeeded or failed. */
export const isTerminal = (status: Status): boolean => STATUS_RANK[status] === 2;
