// "Forget my photo": once the shopper asks, the photo's handle and every try-on and file handle
// made from it answer 404. Every such handle carries the photo's random id, so one record per
// photo id is enough. A record is needed only while some handle naming that photo could still be
// valid; after that the handles have expired anyway, so records are dropped and memory stays
// bounded by the uploads of the last (photo + try-on + file) lifetime.
//
// The interface is asynchronous so that a shared store (Redis, for several instances) can stand
// behind it; the in-memory one below serves one process alone.
import { ProxyError } from './errors.js';
import type { ClaimsOf, HandleKind } from './handles.js';
import type { ProxyServices } from './context.js';

export interface PhotoRevocations {
  /** Records the photo as forgotten until `until` (epoch milliseconds). Repeating it is harmless. */
  revoke(photoId: string, until: number): Promise<void>;
  /** Whether the photo was forgotten (and the record has not yet outlived every handle). */
  isRevoked(photoId: string): Promise<boolean>;
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

/** How often, at most, the in-memory store sweeps out records that have outlived their handles. */
const SWEEP_EVERY_MS = 60_000;

export class PhotoRevocationsInMemory implements PhotoRevocations {
  private readonly until = new Map<string, number>();
  private nextSweep = 0;

  constructor(private readonly now: () => number = Date.now) {}

  async revoke(photoId: string, until: number): Promise<void> {
    this.sweep();
    if (until <= this.now()) return;
    this.until.set(photoId, Math.max(this.until.get(photoId) ?? 0, until));
  }

  async isRevoked(photoId: string): Promise<boolean> {
    const until = this.until.get(photoId);
    if (until === undefined) return false;
    if (until > this.now()) return true;
    this.until.delete(photoId);
    return false;
  }

  /** Records held now (for tests and metrics). */
  get size(): number {
    return this.until.size;
  }

  private sweep(): void {
    const now = this.now();
    if (now < this.nextSweep) return;
    this.nextSweep = now + SWEEP_EVERY_MS;
    for (const [photoId, until] of this.until) if (until <= now) this.until.delete(photoId);
  }
}

/** The photo a handle of any kind was made from. */
export function photoIdOf<K extends HandleKind>(kind: K, claims: ClaimsOf[K]): string {
  return kind === 'photo' ? (claims as ClaimsOf['photo']).id : (claims as ClaimsOf['tryon'] | ClaimsOf['file']).photoId;
}

/**
 * Opens a handle as HandleSigner.open does, and answers a forgotten photo's handles, try-ons and
 * files exactly as a handle the proxy never minted: 404 invalid_handle.
 */
export async function openUnforgotten<K extends HandleKind>(services: Pick<ProxyServices, 'handles' | 'revocations'>, kind: K, handle: string): Promise<ClaimsOf[K] & { expiresAt: number }> {
  const claims = await services.handles.open(kind, handle);
  if (await services.revocations.isRevoked(photoIdOf(kind, claims))) {
    throw new ProxyError(404, 'invalid_handle', `This ${kind} link is not valid.`);
  }
  return claims;
}
