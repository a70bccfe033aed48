// The Node entry: serves createProxy() with @hono/node-server. Run directly (`tsx proxy/node.ts`,
// or the package's `tryon-proxy` bin) it reads the environment through loadConfig and the catalog
// file, and serves against the service TRYON_BASE_URL + TRYON_API_KEY name: the live service or a
// sandbox started apart (`npx tryon-sandbox`, or `npm run sandbox` in a clone). It starts no sandbox and draws no demo images itself:
// those conveniences are demo/proxy.ts and `npm start`. The only file under proxy/ that may use node:.
// Over 300 lines for that reason: test/proxy/web-standard.test.ts keeps node:, fs and
// @hono/node-server out of every other file, so every Node-only piece (serving, the admin
// listener, the catalog file and its images, the file-id cache, start-up from the environment) is here.
import { access, readFile, writeFile, rename } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AddressInfo } from 'node:net';
import type { IncomingMessage, ServerOptions, ServerResponse } from 'node:http';
import { getRequestListener, serve } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import { Hono } from 'hono';
import { createProxy, type ProxyOptions } from './app.js';
import { createAdmin, type AdminMetrics } from './admin.js';
import { OrderIntake } from './orders/orders-in.js';
import { resolveLimits } from './limits/limits.js';
import { MemoryStore } from './store/memory.js';
import { CatalogError, catalogImages, parseCatalog } from './catalog/catalog.js';
import {
  ConfigError,
  describeConfig,
  loadConfig,
  proxyOptionsFrom,
  type ConfiguredOptions,
  type ProxyConfig,
} from './config/config.js';
import type { FileIdCache } from './catalog/garment-ids.js';
import { lingerBeforeClosing, lingerBounds } from './http/lingering-close.js';
import type { ProxyLimits } from './limits/limits.js';
import { ProxyAnswer } from './http/node-response.js';
import type { ProxyEnv } from './http/request-facts.js';

export { defineCatalog } from './catalog/catalog.js';
export type { CatalogJson } from './catalog/catalog.js';

/** The shopper's address as the Node socket sees it: what rate limits are keyed by on Node. */
export function socketAddress(c: Parameters<typeof getConnInfo>[0]): string | undefined {
  try {
    return getConnInfo(c).remote.address;
  } catch {
    return undefined;
  }
}

/**
 * The admin listener's options: GET /metrics and GET /usage on a port of their own (admin.ts),
 * answered only to `Authorization: Bearer <adminToken>`. The public port never serves them.
 */
export interface AdminListenerOptions {
  adminToken?: string;
  /** Default 0: a free port (the result says which). */
  adminPort?: number;
  /** Default 127.0.0.1: the operator's scraper runs beside the proxy, not on the internet. */
  adminHostname?: string;
  /** Served at GET /metrics (prom-client's registry); absent: /metrics answers 404. */
  adminMetrics?: AdminMetrics;
  /**
   * The Standard Webhooks secret (whsec_<base64>) the WooCommerce plugin signs its orders with:
   * POST /orders on the admin listener counts them for GET /usage's lift (TRYON_ORDERS_SECRET).
   */
  ordersSecret?: string;
}

export type StartOptions = ProxyOptions &
  AdminListenerOptions & { port?: number; hostname?: string; basePath?: string };

export interface StartedProxy {
  url: string;
  port: number;
  /** The admin listener's origin, when an admin token was given. */
  adminUrl?: string;
  close(): Promise<void>;
}

/** The Node server options that bound how long a request may take to arrive (nodeServerTimeouts). */
export interface NodeServerTimeouts {
  headersTimeout: number;
  requestTimeout: number;
  connectionsCheckingInterval: number;
}

/**
 * How long Node lets a request take to arrive, from these limits: its head within
 * `headersTimeoutMs`; the whole request within that, plus `uploadTotalMs` (the proxy's own upload
 * deadline, whose 408 must be the one the client reads), plus the lingering close after such an
 * answer; none when uploads have no deadline. Node checks its connections at an interval (30 s by
 * default, which lets a trickling head hang on for up to 90 s): at most every second here, sooner for a
 * short headers timeout. For a server of your own that mounts createProxy: pass these to
 * `serve({ serverOptions })` or `http.createServer`.
 */
export function nodeServerTimeouts(limits: Partial<ProxyLimits> = {}): NodeServerTimeouts {
  const resolved = resolveLimits(limits);
  const headersTimeout = resolved.headersTimeoutMs;
  const requestTimeout =
    resolved.uploadTotalMs > 0 ? headersTimeout + resolved.uploadTotalMs + lingerBounds(resolved).ms : 0;
  return {
    headersTimeout,
    requestTimeout,
    connectionsCheckingInterval:
      headersTimeout > 0 ? Math.max(50, Math.min(1000, Math.floor(headersTimeout / 4))) : 1000,
  };
}

/** Serves `fetch` with @hono/node-server; resolves with its port and a close that ends open streams too. */
function listen(
  fetch: (request: Request, env?: unknown) => Response | Promise<Response>,
  port: number,
  hostname: string,
  linger: ReturnType<typeof lingerBounds> | undefined,
  serverOptions: ServerOptions & NodeServerTimeouts,
): Promise<{ port: number; origin: string; close(): Promise<void> }> {
  return new Promise((resolveListen, reject) => {
    const server = serve({ fetch, port, hostname, serverOptions }, (info: AddressInfo) => {
      resolveListen({
        port: info.port,
        origin: `http://${hostname.includes(':') ? `[${hostname}]` : hostname}:${info.port}`,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
          }),
      });
    });
    server.on('error', reject);
    if (linger) lingerBeforeClosing(server as unknown as Parameters<typeof lingerBeforeClosing>[0], linger);
  });
}

export async function startProxy(options: StartOptions): Promise<StartedProxy> {
  const {
    port = 0,
    hostname = '127.0.0.1',
    basePath,
    adminToken,
    adminPort = 0,
    adminHostname = '127.0.0.1',
    adminMetrics,
    ordersSecret,
    ...proxyOptions
  } = options;
  // The admin listener's /usage reads the very ledger the app reserves against: one store for both.
  const store =
    proxyOptions.store ??
    (adminToken
      ? new MemoryStore({ now: proxyOptions.now, fileIdCache: proxyOptions.fileIdCache, log: proxyOptions.log })
      : undefined);
  const app = createProxy({
    readAsset: async (path) => new Uint8Array(await readFile(path)),
    clientAddress: socketAddress,
    ...proxyOptions,
    ...(store ? { store } : {}),
  });
  // Paths outside the mount are answered by the proxy too (its JSON 404, logged and rate limited),
  // not by a bare router's text/plain page. /metrics and /usage are among them: they live on the
  // admin listener only, so no prefix a reverse proxy strips can reach them.
  const root = basePath
    ? new Hono<ProxyEnv>().route(basePath.replace(/\/+$/, ''), app).all('*', (c) => app.fetch(c.req.raw, c.env))
    : app;
  // Only the public port takes uploads, so only it lingers to let an early refusal reach the client.
  const publicListener = await listen(
    (request, env) => root.fetch(request, env as never),
    port,
    hostname,
    lingerBounds(resolveLimits(proxyOptions.limits)),
    // Its answers write the security headers and request id into their heads (http/node-response.ts).
    { ServerResponse: ProxyAnswer, ...nodeServerTimeouts(proxyOptions.limits) },
  );
  let adminListener: Awaited<ReturnType<typeof listen>> | undefined;
  if (adminToken) {
    const limits = resolveLimits(proxyOptions.limits);
    const admin = createAdmin({
      token: adminToken,
      ...(adminMetrics ? { metrics: adminMetrics } : {}),
      usage: {
        book: store!.usageBook(proxyOptions.now ?? Date.now),
        ledger: store!.spendLedger(limits, proxyOptions.now ?? Date.now),
        dailyTryons: limits.dailyTryons,
        dailyCredits: limits.dailyCredits,
      },
      orders: {
        intake: new OrderIntake(store!.orderBook(proxyOptions.now ?? Date.now), proxyOptions.secret, proxyOptions.now),
        secret: ordersSecret,
      },
      clientAddress: socketAddress,
      ...(proxyOptions.log ? { log: proxyOptions.log } : {}),
      ...(proxyOptions.now ? { now: proxyOptions.now } : {}),
    });
    try {
      adminListener = await listen(
        (request, env) => admin.fetch(request, env as never),
        adminPort,
        adminHostname,
        undefined,
        nodeServerTimeouts(proxyOptions.limits),
      );
    } catch (error) {
      await publicListener.close();
      throw error;
    }
  }
  return {
    url: `${publicListener.origin}${basePath ? basePath.replace(/\/+$/, '') : ''}`,
    port: publicListener.port,
    ...(adminListener ? { adminUrl: adminListener.origin } : {}),
    close: async () => {
      await Promise.all([publicListener.close(), adminListener?.close()]);
    },
  };
}

/** The file ids of uploaded garment images, kept in a JSON file so a restart does not upload again. */
export function fileIdCacheAt(path: string): FileIdCache {
  return {
    load: async () => {
      try {
        return JSON.parse(await readFile(path, 'utf8')) as Record<string, string>;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
        throw error;
      }
    },
    save: async (map) => {
      const temporary = `${path}.${process.pid}.tmp`;
      await writeFile(temporary, JSON.stringify(map, null, 2));
      await rename(temporary, path);
    },
  };
}

export async function readCatalogFile(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new CatalogError([`cannot read ${path}: ${(error as Error).message}`]);
  }
  try {
    const parsed = JSON.parse(text) as unknown;
    parseCatalog(parsed);
    return parsed;
  } catch (error) {
    if (error instanceof CatalogError) throw error;
    throw new CatalogError([`${path} is not valid JSON: ${(error as Error).message}`]);
  }
}

/** Catalog images (a variant's included) that are not where the catalog says: a clear start-up problem, not a 500 later. */
export async function missingCatalogImages(catalog: unknown, assetsDir: string): Promise<string[]> {
  const missing: string[] = [];
  for (const image of catalogImages(parseCatalog(catalog))) {
    if (/^https?:\/\//.test(image.path)) continue;
    try {
      await access(resolve(assetsDir, image.path));
    } catch {
      const owner =
        image.model !== undefined
          ? `model "${image.model}"`
          : image.variant === undefined
            ? `product "${image.product}"`
            : `product "${image.product}": variant "${image.variant}"`;
      missing.push(`${owner}: ${image.field} ${resolve(assetsDir, image.path)} does not exist`);
    }
  }
  return missing;
}

/** Reads a catalog image from the disk: the `readAsset` every Node entry passes. */
export const readAssetFile = async (path: string): Promise<Uint8Array> => new Uint8Array(await readFile(path));

/** The options of a proxy made on first use: given, or made by a function then (reading the environment at run time). */
export type LazyProxyOptions = ProxyOptions | (() => ProxyOptions | Promise<ProxyOptions>);

export interface NodeHandlerOptions {
  /**
   * The path the handler is mounted under, stripped from each request's URL when it starts with it:
   * for Node's `http` and Fastify, which pass the whole path. Express's `app.use('/tryon', …)`
   * strips its mount itself: leave this out there.
   */
  basePath?: string;
}

/** A request listener for Node's `http`, Express (as middleware) and Fastify (its raw request and reply). */
export type NodeHandler = (request: IncomingMessage, response: ServerResponse, next?: unknown) => Promise<void>;

/**
 * The proxy as a Node request handler: `http.createServer(handler)`, Express's
 * `app.use('/tryon', handler)`, Fastify's raw request and reply. The proxy is made on the first
 * request (so a build, or an import without the environment, never throws `apiKey is required`),
 * with `readAsset` reading files and the client's address read from the socket, as `startProxy`
 * does; `trustProxy` and `clientAddress` in the options say otherwise. Every path under the mount
 * is answered by the proxy (an unknown one with its JSON 404), so it never calls Express's `next`.
 * It reads the request's body itself: mount it before any body parser (`express.json()`).
 */
export function createNodeHandler(options: LazyProxyOptions, handlerOptions: NodeHandlerOptions = {}): NodeHandler {
  const base = (handlerOptions.basePath ?? '').replace(/\/+$/, '');
  let listener: Promise<ReturnType<typeof getRequestListener>> | undefined;
  const make = async () => {
    const given = typeof options === 'function' ? await options() : options;
    const app = createProxy({
      readAsset: readAssetFile,
      clientAddress: socketAddress,
      ...given,
    });
    return getRequestListener((request, env) => app.fetch(request, env as never));
  };
  return async (request, response) => {
    // A proxy that could not be made (no key in the environment) is tried again at the next request.
    listener ??= make().catch((error: unknown) => {
      listener = undefined;
      throw error;
    });
    let serve: Awaited<typeof listener>;
    try {
      serve = await listener;
    } catch (error) {
      answerMisconfigured(response, error);
      return;
    }
    if (base && request.url?.startsWith(base) && /^($|[/?])/.test(request.url.slice(base.length)))
      request.url = request.url.slice(base.length) || '/';
    await serve(request, response);
  };
}

/** The proxy could not be made: 503 proxy_misconfigured and the reason in the log (never a stack), as the Worker answers. */
function answerMisconfigured(response: ServerResponse, error: unknown): void {
  console.error(`tryon proxy: misconfigured, answering 503 proxy_misconfigured: ${(error as Error).message}`);
  response.writeHead(503, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  response.end(JSON.stringify(MISCONFIGURED_ANSWER));
}

/** The answer of a proxy that cannot be made, the same as the Worker's. */
export const MISCONFIGURED_ANSWER = {
  error: {
    code: 'proxy_misconfigured',
    message: 'The try-on service of this shop is not set up correctly.',
    retryable: false,
  },
};

/** Why node.ts will not start without a key, and what to run instead: one line. */
// Said to whoever installed the package, who has no clone: only commands that work from npm.
export const NO_KEY_LINE =
  'tryon proxy: TRYON_API_KEY is not set. To try it against the local sandbox, run `npx tryon-sandbox` and start this again with ' +
  'TRYON_BASE_URL=<the sandbox URL> TRYON_API_KEY=<its test key>.';

/** Why node.ts will not start without a catalog: one line. */
export const NO_CATALOG_LINE =
  "tryon proxy: TRYON_CATALOG is not set: the path of the catalog JSON that says what each product's try-on is (see the catalog section of the tryon-proxy README).";

class StartRefused extends Error {}

/**
 * The catalog file TRYON_CATALOG names, read and checked, with its images' folder and the file
 * that remembers their upload ids. Missing images refuse a production start; elsewhere a warning.
 */
export async function catalogFromConfig(
  config: ProxyConfig,
): Promise<Pick<StartOptions, 'catalog' | 'assetsDir' | 'fileIdCache'>> {
  if (!config.catalogPath) throw new StartRefused(NO_CATALOG_LINE);
  const catalogPath = resolve(config.catalogPath);
  const catalog = await readCatalogFile(catalogPath);
  const assetsDir = resolve(config.assetsDir ?? dirname(catalogPath));
  const missing = await missingCatalogImages(catalog, assetsDir);
  if (missing.length > 0) {
    if (config.mode === 'production') throw new CatalogError(missing);
    console.warn(
      `tryon proxy: some catalog images are missing (set TRYON_ASSETS_DIR?); their products will fail:\n  - ${missing.join('\n  - ')}`,
    );
  }
  return {
    catalog: catalog as ProxyOptions['catalog'],
    assetsDir,
    fileIdCache: fileIdCacheAt(config.fileIdCachePath ?? resolve(dirname(catalogPath), '.tryon-file-ids.json')),
  };
}

/** Loads a module that needs an optional peer dependency; missing, it says which to install. */
async function optional<T>(load: () => Promise<T>, variable: string, packages: string): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND') throw error;
    throw new StartRefused(
      `tryon proxy: ${variable} is set, but ${packages} ${packages.includes(' ') ? 'are' : 'is'} not installed: npm install ${packages}`,
    );
  }
}

/**
 * Serves the proxy as configured, says so in two lines (never the key), and on SIGINT/SIGTERM
 * closes it, then `alsoClose` (a sandbox started for it), and exits.
 */
export async function serveConfigured(
  config: ProxyConfig,
  options: Omit<StartOptions, keyof ConfiguredOptions | 'port' | 'hostname'>,
  alsoClose: () => Promise<void> = async () => undefined,
): Promise<void> {
  const log = (entry: Record<string, unknown>) => console.log(JSON.stringify(entry));
  // prom-client and ioredis are loaded only when asked for: a shop without them never pays for them.
  // They are optional peer dependencies of the package: a shop installs them only to use them.
  const prometheus = config.adminToken
    ? (
        await optional(() => import('./operator/metrics-prometheus.js'), 'TRYON_ADMIN_TOKEN', 'prom-client')
      ).prometheusMetrics()
    : undefined;
  const store = config.redisUrl
    ? await (
        await optional(() => import('./store/redis.js'), 'TRYON_REDIS_URL', 'ioredis rate-limiter-flexible')
      ).connectRedisStore(config.redisUrl, { log, onError: (operation) => prometheus?.metrics.storeError(operation) })
    : undefined;
  if (store && !(await store.healthy()))
    console.warn(
      'tryon proxy: Redis (TRYON_REDIS_URL) does not answer yet; spending routes answer 503 store_unavailable until it does',
    );
  const proxy = await startProxy({
    ...proxyOptionsFrom(config),
    ...options,
    port: config.port,
    hostname: config.hostname,
    ...(store ? { store } : {}),
    ...(prometheus
      ? { metrics: prometheus.metrics, adminMetrics: { contentType: prometheus.contentType, text: prometheus.text } }
      : {}),
    ...(config.adminToken
      ? { adminToken: config.adminToken, adminPort: config.adminPort ?? 0, adminHostname: config.adminHostname }
      : {}),
    ...(config.ordersSecret ? { ordersSecret: config.ordersSecret } : {}),
  });
  console.log(describeConfig(config));
  // Before the listening line, which tells a supervisor (and the tests) that everything is up.
  if (proxy.adminUrl) console.log(`tryon proxy: admin listener (GET /metrics, GET /usage) on ${proxy.adminUrl}`);
  console.log(`tryon proxy: listening on ${proxy.url}`);
  const stop = async () => {
    await proxy.close();
    await store?.close();
    await alsoClose();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}

/** Runs a start-up; a configuration or catalog problem is said in plain words (no stack) and exits 1. */
export async function exitIfStartFails(start: () => Promise<void>): Promise<void> {
  try {
    await start();
  } catch (error) {
    if (error instanceof ConfigError || error instanceof CatalogError || error instanceof StartRefused)
      console.error(error.message);
    else console.error('tryon proxy: failed to start:', (error as Error).message);
    process.exit(1);
  }
}

/**
 * The proxy as a server, configured from the environment (TRYON_*): what `tsx proxy/node.ts` and
 * the package's `tryon-proxy` bin (dist/proxy/server.js) run. A bad configuration, or no key
 * or catalog, is said in plain words and exits 1.
 */
export function serveFromEnvironment(): Promise<void> {
  return exitIfStartFails(async () => {
    const config = loadConfig(process.env);
    if (!config.apiKey || !config.baseUrl) throw new StartRefused(NO_KEY_LINE);
    await serveConfigured(config, {
      apiKey: config.apiKey,
      baseUrl: config.baseUrl,
      ...(await catalogFromConfig(config)),
    });
  });
}

/** How `check-catalog` is called (said, with exit code 2, when it is called otherwise). */
export const CHECK_CATALOG_USAGE = [
  'usage: tryon-proxy check-catalog [catalog.json] [--assets <dir>]',
  '  Checks that every garment image and model photo of the catalog is fit for checked try-ons.',
  '  catalog.json: the catalog (default: TRYON_CATALOG); --assets: where its image paths start',
  "  (default: TRYON_ASSETS_DIR, else the catalog's folder). Exit 0: fit to go live; 1: not fit",
  '  (one line per problem); 2: called wrongly or the catalog file cannot be read.',
].join('\n');

/**
 * `tryon-proxy check-catalog`: audits the catalog's images (fidelity/catalog-audit.ts) and prints
 * the report. Images are read from files beside the catalog (never above its assets folder) or
 * fetched by URL with the bounds the proxy fetches them with. Returns the exit code.
 */
export async function checkCatalogCommand(
  args: string[],
  env: Record<string, string | undefined> = process.env,
  print: { out: (line: string) => void; error: (line: string) => void } = {
    out: (line) => console.log(line),
    error: (line) => console.error(line),
  },
): Promise<number> {
  const positional: string[] = [];
  let assets = env.TRYON_ASSETS_DIR;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--help' || arg === '-h') {
      print.out(CHECK_CATALOG_USAGE);
      return 0;
    }
    if (arg === '--assets' && args[i + 1] !== undefined) assets = args[++i];
    else if (arg.startsWith('--assets=')) assets = arg.slice('--assets='.length);
    else if (arg.startsWith('-')) {
      print.error(`tryon-proxy check-catalog: unknown option ${arg}\n${CHECK_CATALOG_USAGE}`);
      return 2;
    } else positional.push(arg);
  }
  const given = positional[0] ?? env.TRYON_CATALOG;
  if (positional.length > 1 || !given) {
    print.error(
      `tryon-proxy check-catalog: ${positional.length > 1 ? 'one catalog at a time' : 'which catalog? Name it, or set TRYON_CATALOG'}\n${CHECK_CATALOG_USAGE}`,
    );
    return 2;
  }
  const catalogPath = resolve(given);
  let text: string;
  try {
    text = await readFile(catalogPath, 'utf8');
  } catch (error) {
    print.error(`tryon-proxy check-catalog: cannot read ${catalogPath}: ${(error as Error).message}`);
    return 2;
  }
  let catalog: unknown;
  try {
    catalog = JSON.parse(text) as unknown;
    parseCatalog(catalog);
  } catch (error) {
    print.out(
      error instanceof CatalogError
        ? `${error.message}\ncheck-catalog: the catalog itself is not valid: not fit to go live.`
        : `${catalogPath} is not valid JSON: ${(error as Error).message}\ncheck-catalog: not fit to go live.`,
    );
    return 1;
  }
  const assetsDir = resolve(assets ?? dirname(catalogPath));
  const limits = resolveLimits(undefined);
  const { auditCatalog, auditReport } = await import('./fidelity/catalog-audit.js');
  const { fetchCatalogImage } = await import('./catalog/garment-files.js');
  const result = await auditCatalog(catalog, async (path) => {
    if (/^https?:\/\//.test(path))
      return fetchCatalogImage(path, { most: limits.catalogImageBytes, timeoutMs: limits.catalogImageTimeoutMs });
    if (path.split(/[\\/]/).includes('..')) throw new Error('catalog image paths may not contain ".."');
    return new Uint8Array(await readFile(resolve(assetsDir, path)));
  });
  print.out(auditReport(result));
  return result.problems.length > 0 ? 1 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  if (process.argv[2] === 'check-catalog') process.exitCode = await checkCatalogCommand(process.argv.slice(3));
  else await serveFromEnvironment();
}
