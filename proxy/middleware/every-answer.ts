// What every answer gets, in one middleware: its request id, its fixed headers and its log line.
// One pass over the request instead of three middlewares (an id, the security headers, the log),
// since every answer pays for each. The fixed headers are listed once (http/fixed-headers.ts). On
// the proxy's Node listener the answer writes them into its head itself (http/node-response.ts)
// and is only told the request id; elsewhere they are set on the route's Response here. Their
// values are Hono's secureHeaders with the proxy's options (test/proxy/fixed-headers.test.ts
// compares the two paths; guards.test.ts and hostile-input.test.ts check them).
import type { MiddlewareHandler } from 'hono';
import type { ProxyEnv } from '../http/request-facts.js';
import type { Log } from '../operator/log.js';
import { loggedPath } from './request-log.js';
import { SECURITY_HEADERS, fixedHeadersWriter } from '../http/fixed-headers.js';

/** A client's own X-Request-Id is kept when it is short and plain (as Hono's requestId middleware did). */
const PLAIN_ID = /^[\w\-=]{1,64}$/;

export function everyAnswer(log: Log, now: () => number): MiddlewareHandler<ProxyEnv> {
  return async (c, next) => {
    const started = now();
    // On the proxy's Node listener the answer writes the fixed headers into its head itself.
    const writer = fixedHeadersWriter(c.env);
    const given = writer ? writer.givenRequestId() : c.req.raw.headers.get('x-request-id');
    const id = given && PLAIN_ID.test(given) ? given : crypto.randomUUID();
    c.set('requestId', id);
    if (writer) writer.requestId = id;
    await next();
    if (!writer) {
      // Elsewhere (Workers, app.fetch) they go on the answer's Headers, whatever made it.
      const headers = c.res.headers;
      for (const [name, value] of SECURITY_HEADERS) headers.set(name, value);
      headers.set('X-Request-Id', id);
      headers.delete('X-Powered-By');
    }
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
