// The proxy inside a Next.js app (`tryon-proxy/next`): route handlers for the App Router and a
// handler for the Pages Router's API routes. Each makes the proxy on its first request, never when
// the module is imported: `next build` imports every route, usually without the shop's secrets in
// its environment, and `createProxy` refuses to be made without them. A route has no socket of its
// own to read the shopper's address from, so it is read from the header the host sets
// (platformClientAddress). Node runtime only (the default for route handlers): it reads catalog
// images with `fs` and serves the Pages Router through node.ts.
import { Hono } from 'hono';
import { createProxy, type ProxyOptions } from './app.js';
import {
  createNodeHandler,
  readAssetFile,
  MISCONFIGURED_ANSWER,
  type LazyProxyOptions,
  type NodeHandler,
} from './node.js';
import type { ProxyEnv } from './http/request-facts.js';

export { defineCatalog } from './catalog/catalog.js';
export type { CatalogJson } from './catalog/catalog.js';
export type { LazyProxyOptions, ProxyOptions };

/** Where the route is, when Next does not say: `app/api/tryon/[...path]/route.ts`, `pages/api/tryon/[...path].ts`. */
export const DEFAULT_NEXT_BASE_PATH = '/api/tryon';

export interface NextHandlerOptions {
  /**
   * The path the route answers under. The App Router's handlers work it out from the catch-all
   * segment's parameters; the Pages Router's handler takes this (default `/api/tryon`).
   */
  basePath?: string;
}

/**
 * The shopper's address as the host the Next.js app runs on gives it to a route, which has no
 * socket of its own:
 * - Vercel (`VERCEL` set): `x-real-ip`, which Vercel's edge sets to the visitor's address,
 *   overwriting any a client sent;
 * - Netlify (`NETLIFY` set): `x-nf-client-connection-ip`, which Netlify sets;
 * - Cloudflare (OpenNext on Workers): `cf-connecting-ip`, which Cloudflare sets;
 * - `next start` elsewhere: the right-most `x-forwarded-for` entry. Next writes the socket's
 *   address there when the request has none; a reverse proxy in front that appends to it
 *   (nginx's `$proxy_add_x_forwarded_for`, Caddy) makes the right-most entry the address it saw.
 *   A client reaching `next start` directly could write its own: keep it behind that proxy, or on
 *   loopback (`next start -H 127.0.0.1`).
 */
export function platformClientAddress(
  headers: { get(name: string): string | null },
  env: Record<string, string | undefined> = hostEnvironment(),
): string | undefined {
  const header = (name: string) => headers.get(name)?.trim() || undefined;
  if (env['VERCEL']) return header('x-real-ip');
  if (env['NETLIFY']) return header('x-nf-client-connection-ip');
  const onWorkers =
    (globalThis as { navigator?: { userAgent?: string } }).navigator?.userAgent === 'Cloudflare-Workers';
  if (onWorkers) return header('cf-connecting-ip');
  const forwarded = header('x-forwarded-for')?.split(',');
  return forwarded?.[forwarded.length - 1]?.trim() || undefined;
}

/** The environment the host sets (`VERCEL`, `NETLIFY`), where the runtime has one. */
function hostEnvironment(): Record<string, string | undefined> {
  return (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env ?? {};
}

/** The options with the route's way of reading the client, unless the shop gave its own. */
async function routeOptions(options: LazyProxyOptions): Promise<ProxyOptions> {
  const given = typeof options === 'function' ? await options() : options;
  return { clientAddress: (c) => platformClientAddress(c.req.raw.headers), ...given };
}

/** What a route handler answers: the Web's Response. */
export type NextRouteHandler = (request: Request, context?: { params?: unknown }) => Promise<Response>;

export interface NextRouteHandlers {
  GET: NextRouteHandler;
  HEAD: NextRouteHandler;
  POST: NextRouteHandler;
  PUT: NextRouteHandler;
  PATCH: NextRouteHandler;
  DELETE: NextRouteHandler;
  OPTIONS: NextRouteHandler;
}

/** The path the catch-all segment's parameters leave of the URL's: where the route is mounted. */
async function mountOf(request: Request, context: { params?: unknown } | undefined): Promise<string | undefined> {
  const params = (await context?.params) as Record<string, string | string[] | undefined> | undefined;
  const rest = params ? Object.values(params).find((value) => Array.isArray(value)) : undefined;
  const path = new URL(request.url).pathname.replace(/\/+$/, '');
  if (!rest) return undefined;
  const tail = `/${rest.map((segment) => encodeURIComponent(segment)).join('/')}`;
  if (rest.length === 0) return path;
  return path.endsWith(tail) ? path.slice(0, -tail.length) : undefined;
}

/**
 * The App Router's route handlers, for `app/<path>/[...path]/route.ts`:
 *
 * ```ts
 * export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = createNextRouteHandlers(() => ({ … }));
 * ```
 *
 * The proxy is made on the first request (options given as a function are read then, so
 * the environment is read at run time); one that cannot be made answers
 * `503 proxy_misconfigured` and says why in the log, and is tried again at the next request.
 */
export function createNextRouteHandlers(
  options: LazyProxyOptions,
  handlerOptions: NextHandlerOptions = {},
): NextRouteHandlers {
  let proxy: Promise<Hono<ProxyEnv>> | undefined;
  const mounted = new Map<string, Hono<ProxyEnv>>();
  const handler: NextRouteHandler = async (request, context) => {
    proxy ??= routeOptions(options)
      .then((resolved) => createProxy({ ...nodeFiles, ...resolved }))
      .catch((error: unknown) => {
        proxy = undefined;
        throw error;
      });
    let app: Hono<ProxyEnv>;
    try {
      app = await proxy;
    } catch (error) {
      console.error(`tryon proxy: misconfigured, answering 503 proxy_misconfigured: ${(error as Error).message}`);
      return Response.json(MISCONFIGURED_ANSWER, { status: 503, headers: { 'cache-control': 'no-store' } });
    }
    const base = (handlerOptions.basePath ?? (await mountOf(request, context)) ?? DEFAULT_NEXT_BASE_PATH).replace(
      /\/+$/,
      '',
    );
    let root = mounted.get(base);
    if (!root) {
      root = base ? new Hono<ProxyEnv>().route(base, app) : app;
      mounted.set(base, root);
    }
    return root.fetch(request);
  };
  return {
    GET: handler,
    HEAD: handler,
    POST: handler,
    PUT: handler,
    PATCH: handler,
    DELETE: handler,
    OPTIONS: handler,
  };
}

/** Catalog images read from the app's files, as node.ts reads them; the shop's own `readAsset` wins. */
const nodeFiles: Pick<ProxyOptions, 'readAsset'> = { readAsset: readAssetFile };

/**
 * The Pages Router's API route, for `pages/api/tryon/[...path].ts` (with
 * `export const config = { api: { bodyParser: false, externalResolver: true } }` beside it, so
 * Next leaves the request's body to the proxy):
 *
 * ```ts
 * export default createNextPagesHandler(() => ({ … }));
 * ```
 *
 * Made on its first request, as the App Router's; the client is read as platformClientAddress says.
 */
export function createNextPagesHandler(
  options: LazyProxyOptions,
  handlerOptions: NextHandlerOptions = {},
): NodeHandler {
  return createNodeHandler(
    async () => {
      const given = typeof options === 'function' ? await options() : options;
      return {
        clientAddress: (c) => platformClientAddress({ get: (name) => c.req.header(name) ?? null }),
        ...given,
      };
    },
    { basePath: handlerOptions.basePath ?? DEFAULT_NEXT_BASE_PATH },
  );
}
