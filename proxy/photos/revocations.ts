// "Forget my photo": once the shopper asks, the photo's handle and every try-on and file handle
// made from it answer 404. Every such handle carries the photo's random id, so one record per
// photo id is enough. A record is needed only while some handle naming that photo could still be
// valid; after that the handles have expired anyway, so records are dropped and memory stays
// bounded by the uploads of the last (photo + try-on + file) lifetime.
//
// Forgetting also fences the photo's submits: a try-on checks the photo again at the moment it
// lets its submit out to upstream, in one atomic step with counting that submit as under way, and
// DELETE answers only once every submit let out before the photo was forgotten is decided. So
// after the 204 no job can start from the photo on any instance.
//
// The interface is asynchronous so that a shared store (Redis, Durable Objects) can stand behind
// it; the in-memory one (revocations-memory.ts) serves one process alone, and revocations-redis.ts
// and revocations-durable.ts share it.
import { ProxyError } from '../http/errors.js';
import type { ClaimsOf, HandleKind, HandleSigner } from '../security/handles.js';
import type { RateBucket } from '../limits/rate-limit.js';

export interface PhotoRevocations {
  /** Records the photo as forgotten until `until` (epoch milliseconds). Repeating it is harmless. */
  revoke(photoId: string, until: number): Promise<void>;
  /** Whether the photo was forgotten (and the record has not yet outlived every handle). */
  isRevoked(photoId: string): Promise<boolean>;
  /**
   * Lets one upstream submit from the photo out, unless the photo is forgotten: one atomic step,
   * so a forget comes either before (no ticket: the submit must not be sent) or after (it waits
   * for this submit). The ticket lapses after `ms` should its instance die before ending it.
   */
  beginSubmit(photoId: string, ms: number): Promise<string | undefined>;
  /** The submit of this ticket is decided: upstream answered, or it failed. */
  endSubmit(photoId: string, ticket: string): Promise<void>;
  /** Submits of the photo let out and neither ended nor lapsed. */
  submitsUnderWay(photoId: string): Promise<number>;
  /**
   * Optional, for a store a network hop away (Durable Objects): one read's rate-limit decision and
   * its photo's revocation check in one round trip, in that order (a client out of allowance is
   * told so, whatever its photo). Without it, read-gate.ts asks the two questions one by one.
   */
  takeReadAndCheck?(
    read: { bucket: RateBucket; perMinute: number },
    client: string,
    photoId: string,
  ): Promise<ReadDecision>;
}

/** What one read of a handle was told: seconds to wait (rate limited), or whether its photo is forgotten. */
export interface ReadDecision {
  waitSeconds?: number | undefined;
  revoked: boolean;
}

/** Lifetimes, in seconds, of the handles that can name one photo. */
export interface HandleLifetimes {
  tryonTtlSeconds: number;
  fileTtlSeconds: number;
}

/**
 * Until when (epoch ms) a handle made from a photo that expires at `photoExpiresAt` (epoch s) can
 * still be valid: try-ons are minted up to the photo's expiry and live tryonTtl; file handles are
 * minted while the try-on lives, for fileTtl rounded up to the minute.
 */
export function lastHandleExpiry(photoExpiresAt: number, lifetimes: HandleLifetimes): number {
  return (photoExpiresAt + lifetimes.tryonTtlSeconds + lifetimes.fileTtlSeconds + 60) * 1000;
}

/** How often a forget asks again whether the photo's submits are decided. */
const FENCE_PAUSE_MS = 25;

/**
 * "Forget my photo": records it as forgotten, then waits until every submit from it that was let
 * out before is decided (or has lapsed, should its instance have died), so that once this returns
 * no job can start from the photo anywhere.
 */
export async function forgetPhoto(revocations: PhotoRevocations, photoId: string, until: number): Promise<void> {
  await revocations.revoke(photoId, until);
  while ((await revocations.submitsUnderWay(photoId)) > 0)
    await new Promise((resolve) => setTimeout(resolve, FENCE_PAUSE_MS));
}

/** The photo a handle of any kind was made from. */
export function photoIdOf<K extends HandleKind>(kind: K, claims: ClaimsOf[K]): string {
  return kind === 'photo' ? (claims as ClaimsOf['photo']).id : (claims as ClaimsOf['tryon'] | ClaimsOf['file']).photoId;
}

/**
 * Opens a handle as HandleSigner.open does, and answers a forgotten photo's handles, try-ons and
 * files exactly as a handle the proxy never minted: 404 invalid_handle.
 */
export async function openUnforgotten<K extends HandleKind>(
  services: { handles: HandleSigner; revocations: PhotoRevocations },
  kind: K,
  handle: string,
): Promise<ClaimsOf[K] & { expiresAt: number }> {
  const claims = await services.handles.open(kind, handle);
  if (await services.revocations.isRevoked(photoIdOf(kind, claims))) {
    throw new ProxyError(404, 'invalid_handle', `This ${kind} link is not valid.`);
  }
  return claims;
}
