// Every answer's fixed headers, its request id and its log line, in one middleware. Until issue 27
// these were three (Hono's requestId, secureHeaders and the request log): secureHeaders works out
// its list per app but then sets its eleven headers one by one on every answer, after a request id
// header had already made Hono build a Headers object before the route ran. Here the list is
// prepared once, when the app is made, and the answer's headers are touched once, after the route.
// The headers and their values are exactly what secureHeaders sent with the proxy's options
// (test/proxy/guards.test.ts and hostile-input.test.ts check them).
import type { MiddlewareHandler } from 'hono';
import type { ProxyEnv } from '../request-facts.js';
import type { Log } from '../log.js';
import { loggedPath } from './request-log.js';

/** The security headers, in the order secureHeaders set them, with the proxy's choices. */
export const SECURITY_HEADERS: readonly (readonly [string, string])[] = [
  // Shop pages on other origins must be able to show the rendered images and videos.
  ['Cross-Origin-Resource-Policy', 'cross-origin'],
  ['Cross-Origin-Opener-Policy', 'same-origin'],
  ['Origin-Agent-Cluster', '?1'],
  ['Referrer-Policy', 'no-referrer'],
  ['Strict-Transport-Security', 'max-age=15552000; includeSubDomains'],
  ['X-Content-Type-Options', 'nosniff'],
  ['X-DNS-Prefetch-Control', 'off'],
  ['X-Download-Options', 'noopen'],
  ['X-Frame-Options', 'SAMEORIGIN'],
  ['X-Permitted-Cross-Domain-Policies', 'none'],
  ['X-XSS-Protection', '0'],
  ['Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'"],
];

/** A client's own X-Request-Id is kept when it is short and plain (as Hono's requestId middleware did). */
const PLAIN_ID = /^[\w\-=]{1,64}$/;

export function answerHeaders(log: Log, now: () => number): MiddlewareHandler<ProxyEnv> {
  return async (c, next) => {
    const started = now();
    const given = c.req.raw.headers.get('x-request-id');
    const id = given && PLAIN_ID.test(given) ? given : crypto.randomUUID();
    c.set('requestId', id);
    await next();
    // Set on the answer's Headers whatever made it. A faster path once wrote into @hono/node-server's
    // private header record; it reached into the adapter's internals for a few per cent, and a
    // security header must not depend on a dependency's private shape.
    const headers = c.res.headers;
    for (const [name, value] of SECURITY_HEADERS) headers.set(name, value);
    headers.set('X-Request-Id', id);
    headers.delete('X-Powered-By');
    log({
      event: 'request',
      requestId: id,
      method: c.req.method,
      path: loggedPath(c.req.path),
      status: c.res.status,
      ms: now() - started,
    });
  };
}
