// What the proxy cannot serve answers like everything else it refuses: JSON in the one error
// shape, under any mount (a shop's /tryon, startProxy's basePath), and rate limited like a read,
// so probing paths costs the prober, not the log. A known path with another method is 405 with
// Allow; anything else is 404. Registered on the proxy's own app (not as notFound, which a parent
// app that mounts the proxy would replace with its own page).
import type { Hono, MiddlewareHandler } from 'hono';
import { ProxyError } from '../http/errors.js';
import type { ProxyEnv } from '../http/request-facts.js';

/** The paths servers call: upstream's webhooks and the balancer's health check. */
const SERVERS_PATH = /\/(webhooks|health)\/?$/;

/**
 * Call after every route is registered: the methods each path serves are read from the app itself.
 * `pagesOnly`, the origin check, stands before the 404 of any path and the 405 of the paths pages
 * call, as it stands before their routes; a server's path (/webhooks, /health) answers its 405 to anyone.
 */
export function answerUnknownRoutes(
  app: Hono<ProxyEnv>,
  reads: MiddlewareHandler<ProxyEnv>,
  pagesOnly: MiddlewareHandler<ProxyEnv>,
): void {
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
    const refuse = () =>
      new ProxyError(405, 'method_not_allowed', `This address answers ${allow} only.`).toResponse({ allow });
    if (SERVERS_PATH.test(path)) app.all(path, reads, refuse);
    else app.all(path, pagesOnly, reads, refuse);
  }
  app.all('*', pagesOnly, reads, () => new ProxyError(404, 'not_found', 'There is nothing here.').toResponse());
}
