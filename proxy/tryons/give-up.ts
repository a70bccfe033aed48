// When the proxy stops waiting for upstream and ends a try-on in words: a job upstream answers
// not-found for after it accepted it (`upstream_lost`: a restart lost it, and no poll will ever
// find it again), or an upstream whose polls have failed for longer than the try-on's tier's slow
// case, or that still calls a job unfinished long past any time it takes (`upstream_unavailable`,
// `upstreamStuckPercent` of the slow case since it was accepted). Either ends the try-on as `failed`, written through the store
// like any final status, so every instance stops polling and the shopper reads why at once
// instead of a progress line that never ends (docs/upstream-api.md, "Gaps").
import { ProxyError } from '../http/errors.js';
import type { StatusRecord } from './status-store.js';
import type { TryonSnapshot } from './snapshot.js';

/**
 * Each tier's slow case: the p95 time from submit to a result (docs/upstream-api.md, "Time":
 * 25 s standard, 60 s premium; a draft is the quick tier, 10 s). An unknown tier gets standard's.
 */
export const SLOW_CASE_MS: Readonly<Record<string, number>> = { draft: 10_000, standard: 25_000, premium: 60_000 };

/** How long upstream may fail a try-on's polls: `percent` of its tier's slow case (limits.upstreamDownPercent). */
export const downBoundMs = (tier: string | undefined, percent: number): number =>
  ((SLOW_CASE_MS[tier ?? 'standard'] ?? SLOW_CASE_MS.standard!) * percent) / 100;

/** A try-on the proxy ends itself: failed, retryable (a retry is a new render), with what it had. */
function ended(code: string, message: string, outputs: TryonSnapshot['outputs'], now: number): TryonSnapshot {
  return { status: 'failed', error: { code, message, retryable: true }, outputs, at: now };
}

/** A 404 from upstream for a job it accepted: it no longer knows the job. */
const forgotten = (error: unknown): boolean => error instanceof ProxyError && error.code === 'not_found';

/**
 * The final snapshot a failed poll ends the try-on with, or undefined while the proxy waits on:
 * upstream forgot a job it accepted (its `record` is in the store), or it has failed every poll
 * since the one due after the last good read (`record`'s snapshot time, the same on every
 * instance) for longer than the tier's bound.
 */
export function givenUpSnapshot(
  error: unknown,
  record: StatusRecord | undefined,
  now: number,
  downPercent: number,
  /** How often this try-on is polled while all is well (fewer polls once webhooks arrive for it). */
  pollEveryMs: number,
): TryonSnapshot | undefined {
  // Only a job the store knows was accepted (seeded at submit): a handle of a job no store ever
  // held is answered 404 not_found, as before.
  if (!record) return undefined;
  const outputs = record.snapshot.outputs;
  if (forgotten(error)) {
    return ended(
      'upstream_lost',
      'The try-on service lost this try-on before it was finished; please try again.',
      outputs,
      now,
    );
  }
  // Down since the poll that was due after the last good read: with webhooks, polls come seldom,
  // and one failed poll long after a good read is not yet an outage of that length.
  if (now - (record.snapshot.at + pollEveryMs) <= downBoundMs(record.tier, downPercent)) return undefined;
  return ended(
    'upstream_unavailable',
    'The try-on service stopped answering while making this try-on; please try again.',
    outputs,
    now,
  );
}

/**
 * The final snapshot for a try-on upstream still calls unfinished long past its tier's time:
 * `stuckPercent` of the slow case since it was accepted (the store's `acceptedAt`, the same on every
 * instance). Undefined while it may still come, for a finished one, or with no accepted time.
 */
export function stuckSnapshot(
  snapshot: TryonSnapshot,
  record: StatusRecord | undefined,
  now: number,
  stuckPercent: number,
): TryonSnapshot | undefined {
  if (snapshot.status !== 'queued' && snapshot.status !== 'processing') return undefined;
  const acceptedAt = record?.acceptedAt;
  if (acceptedAt === undefined || now - acceptedAt <= downBoundMs(record?.tier, stuckPercent)) return undefined;
  return ended(
    'upstream_unavailable',
    'The try-on service has not finished this try-on in far longer than it takes; please try again.',
    snapshot.outputs,
    now,
  );
}
