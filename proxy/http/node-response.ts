// The public listener's answer on Node: a ServerResponse (Node's documented extension point,
// `http.createServer({ ServerResponse })`) that writes the proxy's fixed headers (fixed-headers.ts)
// into every head it sends, whatever wrote it: a route, the error handler, or the adapter's own 400
// and 500. Written here once, as the head is built, instead of on each Response after the route.
import { ServerResponse } from 'node:http';
import type { IncomingMessage, OutgoingHttpHeader, OutgoingHttpHeaders } from 'node:http';
import { FIXED_HEADER_NAMES, SECURITY_HEADERS, WRITES_FIXED_HEADERS } from './fixed-headers.js';
import type { FixedHeadersWriter } from './fixed-headers.js';

const FIXED_HEAD: readonly string[] = SECURITY_HEADERS.flat();

export class ProxyAnswer<Request extends IncomingMessage = IncomingMessage>
  extends ServerResponse<Request>
  implements FixedHeadersWriter
{
  readonly [WRITES_FIXED_HEADERS] = true as const;
  /** Set by the every-answer middleware; empty when the request never reached the app. */
  requestId = '';

  givenRequestId(): string | undefined {
    // Node joins a repeated header's values with ", " as Headers.get does (an array only for set-cookie).
    const given = this.req.headers['x-request-id'];
    return typeof given === 'string' ? given : undefined;
  }

  override writeHead(
    statusCode: number,
    reason?: string | OutgoingHttpHeaders | OutgoingHttpHeader[],
    headers?: OutgoingHttpHeaders | OutgoingHttpHeader[],
  ): this {
    const own = typeof reason === 'string' ? headers : reason;
    // A flat [name, value, …] list: Node takes it as given, repeated names included.
    const head: OutgoingHttpHeader[] = [...FIXED_HEAD];
    if (this.requestId) head.push('X-Request-Id', this.requestId);
    // Set earlier with setHeader, it would be merged in: the fixed names in `head` replace theirs.
    if (this.hasHeader('x-powered-by')) this.removeHeader('x-powered-by');
    if (Array.isArray(own)) appendOwnPairs(head, own);
    else if (own) {
      for (const name in own) {
        const value = own[name];
        if (value !== undefined && !FIXED_HEADER_NAMES.has(name.toLowerCase())) head.push(name, value);
      }
    }
    return typeof reason === 'string' ? super.writeHead(statusCode, reason, head) : super.writeHead(statusCode, head);
  }
}

/** Node also takes a flat [name, value, …] list or a list of pairs. */
function appendOwnPairs(head: OutgoingHttpHeader[], own: OutgoingHttpHeader[]): void {
  const pairs: [OutgoingHttpHeader, OutgoingHttpHeader][] = [];
  if (Array.isArray(own[0])) for (const pair of own as unknown as [string, OutgoingHttpHeader][]) pairs.push(pair);
  else for (let index = 0; index + 1 < own.length; index += 2) pairs.push([own[index]!, own[index + 1]!]);
  for (const [name, value] of pairs) {
    if (!FIXED_HEADER_NAMES.has(String(name).toLowerCase())) head.push(name, value);
  }
}
