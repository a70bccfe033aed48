// The JSON answer a shopper's read gets (a product, a try-on's status, a hand-off): never cached,
// since each may change with the next try-on. Built as a Response with a plain header record, not
// through c.header() + c.json(): Hono turns two headers or more into a `Headers` object, and
// @hono/node-server then converts it back for Node, on every read.
export function noStoreJson(body: unknown, status = 200): Response {
  return noStoreJsonText(JSON.stringify(body), status);
}

/** The same, for a body serialised already (a remembered status answer). */
export function noStoreJsonText(text: string, status = 200): Response {
  return new Response(text, { status, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' } });
}
