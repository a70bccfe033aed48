// CORS by exact origin. A cross-origin request from an origin not on the list is refused outright
// (preflight included), so a page of another site can neither start a try-on nor read one.
// Mounted on the routes pages call (app.ts); webhooks and health are called by servers, not pages,
// and are not mounted behind it.
import type { MiddlewareHandler } from 'hono';
import { ProxyError } from '../http/errors.js';

/** The origin as a URL when it is exactly an http(s) origin (`scheme://host[:port]`), else undefined. */
function wellFormedOrigin(text: string): URL | undefined {
  if (text.length > 2048 || !/^https?:\/\//.test(text)) return undefined;
  try {
    const url = new URL(text);
    return url.origin === text ? url : undefined;
  } catch {
    return undefined;
  }
}

function requestOrigin(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/** `allowedOrigins`: exact origins; [] = same origin only; ['*'] = any (refused in production by config). */
export function originCheck(allowedOrigins: string[]): MiddlewareHandler {
  const allowAny = allowedOrigins.includes('*');
  const allowed = new Set(allowedOrigins.filter((o) => o !== '*'));
  return async (c, next) => {
    const origin = c.req.header('origin');
    if (!origin) return next();
    // A malformed origin (`http://[`, a port past 65535, a space) is nobody's shop: refused like a foreign one.
    const parsed = wellFormedOrigin(origin);
    const host = c.req.header('host');
    const sameOrigin =
      parsed !== undefined && (origin === requestOrigin(c.req.url) || (host !== undefined && parsed.host === host));
    const crossAllowed = parsed !== undefined && (allowAny || allowed.has(origin));
    if (!sameOrigin && !crossAllowed) {
      throw new ProxyError(403, 'origin_not_allowed', 'This shop has not allowed try-on from this site.');
    }
    if (sameOrigin) return next();
    if (c.req.method === 'OPTIONS') {
      return new Response(null, {
        status: 204,
        headers: {
          'access-control-allow-origin': origin,
          'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
          'access-control-allow-headers': 'content-type, x-request-id',
          'access-control-max-age': '600',
          vary: 'Origin',
        },
      });
    }
    await next();
    c.res.headers.set('access-control-allow-origin', origin);
    c.res.headers.set('access-control-expose-headers', 'retry-after, x-request-id');
    c.res.headers.append('vary', 'Origin');
  };
}
