// A read of something a handle names (a try-on's status, its event stream, a result file): one
// rate-limit decision and one check that the handle's photo was not forgotten, per request. A store
// a network hop away (Durable Objects) answers both in one round trip (takeReadAndCheck); the
// others are asked one after the other, in the same order, with the same answers.
//
// The order is the rate limit's middleware's: a client out of allowance hears 429 whatever it
// sends, a handle the proxy never minted (or one that expired) still costs an allowance, and a
// forgotten photo's handles answer 404 exactly as an unknown handle does.
import type { Context } from 'hono';
import { ProxyError } from '../http/errors.js';
import type { ClaimsOf, HandleKind, HandleSigner } from '../security/handles.js';
import { photoIdOf, type PhotoRevocations } from './revocations.js';
import { rateLimited, takeRequest, type RateLimit } from '../limits/rate-limit.js';
import type { ProxyContext, ProxyEnv } from '../http/request-facts.js';

export async function openForRead<K extends HandleKind>(
  services: {
    handles: HandleSigner;
    revocations: PhotoRevocations;
    /** The read allowance every client has. */
    reads: RateLimit;
    client: (c: ProxyContext) => string;
  },
  c: Context<ProxyEnv>,
  kind: K,
  handle: string,
): Promise<ClaimsOf[K] & { expiresAt: number }> {
  const client = services.client(c);
  let claims: ClaimsOf[K] & { expiresAt: number };
  try {
    claims = await services.handles.open(kind, handle);
  } catch (error) {
    // Not a handle of ours: counted against the allowance all the same (a 429 comes first).
    await takeRequest(services.reads, client);
    throw error;
  }
  const photoId = photoIdOf(kind, claims);
  const both = services.revocations.takeReadAndCheck;
  let revoked: boolean;
  if (both) {
    const decision = await both.call(
      services.revocations,
      { bucket: services.reads.bucket, perMinute: services.reads.perMinute },
      client,
      photoId,
    );
    if (decision.waitSeconds !== undefined) throw rateLimited(decision.waitSeconds);
    revoked = decision.revoked;
  } else {
    await takeRequest(services.reads, client);
    revoked = await services.revocations.isRevoked(photoId);
  }
  if (revoked) throw new ProxyError(404, 'invalid_handle', `This ${kind} link is not valid.`);
  return claims;
}
