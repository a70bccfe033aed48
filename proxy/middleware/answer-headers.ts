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

/** The same list with the names in lower case, for an answer whose headers are still a plain record. */
const SECURITY_LOWER = SECURITY_HEADERS.map(([name, value]) => [name.toLowerCase(), value] as const);

/**
 * @hono/node-server answers a Response it made from a string body and a plain-object header
 * record by writing that record straight to Node (its "lightweight" Response); reading
 * `res.headers` turns the record into a Headers object, which is then turned back into a record,
 * per answer: in the profile, the largest cost the proxy added to a read. So where the answer is
 * that kind, its record is replaced by a new one with the fixed headers added. The record sits
 * under the adapter's own symbol, found by its description once; on any other runtime (Workers,
 * Bun, Deno), or any other answer (a stream, a Headers object), the headers are set one by one.
 */
type AdapterAnswer = [status: number, body: unknown, headers: unknown];
let adapterSymbol: symbol | undefined;
function plainAnswer(res: Response): AdapterAnswer | undefined {
  adapterSymbol ??= Object.getOwnPropertySymbols(res).find((key) => key.description === 'cache');
  if (!adapterSymbol) return undefined;
  const answer = (res as unknown as Record<symbol, unknown>)[adapterSymbol];
  if (!Array.isArray(answer) || answer.length !== 3 || typeof answer[0] !== 'number') return undefined;
  const [, body, headers] = answer as AdapterAnswer;
  if (typeof body !== 'string' && body !== null) return undefined;
  const record = headers === undefined || (isPlainObject(headers) && Object.values(headers).every(isText));
  return record ? (answer as AdapterAnswer) : undefined;
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;
const isText = (value: unknown): value is string => typeof value === 'string';

/** The adapter's type for a text body that names none (what its Headers path would add). */
const TEXT = 'text/plain; charset=UTF-8';

/** The answer's header record with the fixed ones added, names in lower case as the Headers path sends them. */
function withFixedHeaders(answer: AdapterAnswer, id: string): Record<string, string> {
  const record: Record<string, string> = {};
  for (const [name, value] of Object.entries((answer[2] as Record<string, string> | undefined) ?? {}))
    record[name.toLowerCase()] = value;
  if (answer[1] !== null) record['content-type'] ??= TEXT;
  for (const [name, value] of SECURITY_LOWER) record[name] = value;
  record['x-request-id'] = id;
  delete record['x-powered-by'];
  return record;
}

/** A client's own X-Request-Id is kept when it is short and plain (as Hono's requestId middleware did). */
const PLAIN_ID = /^[\w\-=]{1,64}$/;

export function answerHeaders(log: Log, now: () => number): MiddlewareHandler<ProxyEnv> {
  return async (c, next) => {
    const started = now();
    const given = c.req.raw.headers.get('x-request-id');
    const id = given && PLAIN_ID.test(given) ? given : crypto.randomUUID();
    c.set('requestId', id);
    await next();
    const plain = plainAnswer(c.res);
    if (plain) {
      plain[2] = withFixedHeaders(plain, id);
    } else {
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
