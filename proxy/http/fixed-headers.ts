// What every answer's head carries whatever route made it: the security headers and the request id.
// Web-standard (no Node import), because the middleware that sets them runs on Workers too. On Node
// the public listener's answers write them into the head themselves (node-response.ts), and the
// middleware only tells each answer its request id: setting them on a Response after the route turns
// @hono/node-server's plain header record into a `Headers` object and back, work that would weigh
// on every answer (docs/performance.md).

/** The security headers, in the order Hono's secureHeaders set them, with the proxy's choices. */
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

/** Names (lower case) a route's own answer cannot set: the fixed values win, and X-Powered-By is never sent. */
export const FIXED_HEADER_NAMES: ReadonlySet<string> = new Set([
  ...SECURITY_HEADERS.map(([name]) => name.toLowerCase()),
  'x-request-id',
  'x-powered-by',
]);

/** Marks an answer object that writes the fixed headers itself (node-response.ts). */
export const WRITES_FIXED_HEADERS: unique symbol = Symbol.for('tryon-proxy.writes-fixed-headers');

/** An answer that writes the fixed headers into its own head; it needs only the request's id. */
export interface FixedHeadersWriter {
  readonly [WRITES_FIXED_HEADERS]: true;
  requestId: string;
  /**
   * The request's own X-Request-Id, from the runtime's request, which has parsed it already: not
   * through the adapter's `Headers`, which every answer would otherwise build.
   */
  givenRequestId(): string | undefined;
}

/** The runtime's answer object when it writes the fixed headers itself (the proxy's Node listener). */
export function fixedHeadersWriter(env: unknown): FixedHeadersWriter | undefined {
  const outgoing = (env as { outgoing?: Partial<FixedHeadersWriter> } | undefined)?.outgoing;
  return outgoing?.[WRITES_FIXED_HEADERS] === true ? (outgoing as FixedHeadersWriter) : undefined;
}
