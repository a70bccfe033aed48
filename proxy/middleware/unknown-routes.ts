// What the proxy cannot serve answers like everything else it refuses: JSON in the one error
// shape, under any mount (a shop's /tryon, startProxy's basePath), and rate limited like a read,
// so probing paths costs the prober, not the log. A known path with another method is 405 with
// Allow; anything else is 404. Registered on the proxy's own app (not as notFound, which a parent
// app that mounts the proxy would replace with its own page).
import type { Hono, MiddlewareHandler } from 'hono';
import { ProxyError } from '../errors.js';
import type { ProxyEnv } from '../request-facts.js';

/** Call after every route is registered: the methods each path serves are read from the app itself. */
export function answerUnknownRoutes(app: Hono<ProxyEnv>, reads: MiddlewareHandler<ProxyEnv>): void {
  const methods = new Map<string, Set<string>>();
  for (const route of app.routes) {
    if (route.method === 'ALL') continue;
    const served = methods.get(route.path) ?? new Set<string>();
    served.add(route.method);
    if (route.method === 'GET') served.add('HEAD');
    methods.set(route.path, served);
  }
  for (const [path, served] of methods) {
    const allow = [...served].join(', ');
    app.all(path, reads, () =>
      new ProxyError(405, 'method_not_allowed', `This address answers ${allow} only.`).toResponse({ allow }),
    );
  }
  app.all('*', reads, () => new ProxyError(404, 'not_found', 'There is nothing here.').toResponse());
}
