// The Workers entry: the same app, built once per isolate from the Worker's bindings and the
// deployment it was bundled with (the catalog and its images, `npm run worker` / scripts/worker.ts).
// A configuration that is unsafe or incomplete answers every request with a JSON 503
// `proxy_misconfigured` and says why in one log line per isolate: never a stack, never the key.
// With the Durable Object bindings TRYON_TRYONS and TRYON_SHOP the store is store/durable.ts, and
// every guard is exact across isolates. Without them each isolate would keep its own memory: a
// photo a shopper asked to forget would stay usable through every other isolate, and budgets would
// count per isolate. That breaks a promise made to shoppers, so it is refused (503
// proxy_misconfigured) unless NODE_ENV=development is bound, for trying the Worker out.
// With TRYON_ADMIN_TOKEN bound, GET /usage answers the operator (admin.ts), to that token only.
// The object classes are exported from here, for wrangler.toml's bindings to name.
import { createProxy } from './app.js';
import { CatalogError, type CatalogFile } from './catalog/catalog.js';
import { ConfigError, loadConfig, proxyOptionsFrom } from './config/config.js';
import { DurableStore, type DurableObjectNamespace } from './store/durable.js';
import { WORKER_FIDELITY_CPU_MS, resolveLimits } from './limits/limits.js';
import { MemoryStore } from './store/memory.js';
import { createAdmin } from './admin.js';
import { OrderIntake } from './orders/orders-in.js';
import type { Hono } from 'hono';
import type { ProxyEnv } from './http/request-facts.js';

export { TryonObject, ShopObject } from './store/durable.js';

export interface WorkerEnv {
  TRYON_API_KEY?: string;
  TRYON_BASE_URL?: string;
  TRYON_PROXY_SECRET?: string;
  TRYON_ALLOWED_ORIGINS?: string;
  TRYON_WEBHOOK_SECRET?: string;
  /** Behind Shopify's App Proxy: the app's client secret; only requests Shopify signed are served. */
  TRYON_SHOPIFY_APP_SECRET?: string;
  /** The catalog as JSON text, when the deployment bundles none. */
  TRYON_CATALOG_JSON?: string;
  /** Base URL catalog image paths are resolved against, when the deployment bundles no images. */
  TRYON_ASSETS_URL?: string;
  ASSETS?: { fetch(request: Request | string): Promise<Response> };
  /** Durable Object namespace of class TryonObject: one object per try-on. */
  TRYON_TRYONS?: DurableObjectNamespace;
  /** Durable Object namespace of class ShopObject: the shop's budgets, caps, limits and garment ids. */
  TRYON_SHOP?: DurableObjectNamespace;
  /** wrangler.toml `[vars]` may be numbers (`TRYON_DAILY_TRYONS = 2`): read like their text. */
  [name: string]: unknown;
}

/** What a build bundles with the Worker: the catalog (a JSON module) and its images, by catalog path. */
export interface WorkerDeployment {
  catalog?: CatalogFile;
  /** Catalog image path → the image's bytes, base64 (so the bundle stays plain JavaScript). */
  images?: Record<string, string>;
}

interface Built {
  key: string;
  app?: Hono<ProxyEnv>;
  admin?: Hono<ProxyEnv>;
  problem?: string;
}

/** Why a production Worker needs its Durable Objects: said in the misconfiguration line. */
export const NO_DURABLE_OBJECTS =
  'no Durable Object bindings (TRYON_TRYONS and TRYON_SHOP): without them each isolate keeps its own memory, so a photo a shopper asks to forget stays usable through the other isolates and budgets count per isolate; bind both (wrangler.toml does), or bind NODE_ENV=development to try the Worker without them';

const MISCONFIGURED = {
  error: {
    code: 'proxy_misconfigured',
    message: 'The try-on service of this shop is not set up correctly.',
    retryable: false,
  },
};

/** Bindings as the environment loadConfig reads: strings, numbers and booleans as text; objects (bindings) left out. */
export function variablesOf(env: WorkerEnv): Record<string, string> {
  const variables: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (typeof value === 'string') variables[name] = value;
    else if (typeof value === 'number' || typeof value === 'boolean') variables[name] = String(value);
  }
  return variables;
}

function decodeBase64(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Why the configuration cannot serve, in one line that names variables, never their values. */
function problemOf(error: unknown): string {
  if (error instanceof ConfigError || error instanceof CatalogError) return error.problems.join('; ');
  if (error instanceof SyntaxError) return 'TRYON_CATALOG_JSON is not JSON';
  return `the proxy could not be built (${error instanceof Error ? error.name : 'unknown error'})`;
}

/** A Workers module serving the proxy for `deployment`. */
export function workerFor(deployment: WorkerDeployment = {}) {
  let built: Built | undefined;

  function build(env: WorkerEnv): Built {
    const variables = variablesOf(env);
    const key = JSON.stringify([variables, Boolean(env.TRYON_TRYONS), Boolean(env.TRYON_SHOP)]);
    if (built?.key === key) return built;
    try {
      const config = loadConfig({ NODE_ENV: 'production', ...variables }, { entry: 'workers' });
      if (Boolean(env.TRYON_TRYONS) !== Boolean(env.TRYON_SHOP)) {
        throw new ConfigError([
          'the Durable Object bindings TRYON_TRYONS and TRYON_SHOP go together: bind both, or neither',
        ]);
      }
      if (!env.TRYON_TRYONS && config.mode !== 'development') throw new ConfigError([NO_DURABLE_OBJECTS]);
      const catalog =
        deployment.catalog ??
        (variables.TRYON_CATALOG_JSON ? (JSON.parse(variables.TRYON_CATALOG_JSON) as CatalogFile) : undefined);
      if (!catalog)
        throw new ConfigError([
          'no catalog: deploy workerFor({ catalog }) from tryon-proxy/worker with the catalog imported, or set TRYON_CATALOG_JSON',
        ]);
      const images = deployment.images ?? {};
      const assetsBase = variables.TRYON_ASSETS_URL?.replace(/\/+$/, '');
      const limits = resolveLimits({ fidelityCpuMs: WORKER_FIDELITY_CPU_MS, ...config.limits });
      const store =
        env.TRYON_TRYONS && env.TRYON_SHOP
          ? new DurableStore(env.TRYON_TRYONS, env.TRYON_SHOP, {
              log: (entry) => console.log(JSON.stringify(entry)),
              followersPerTryon: limits.streamsPerTryon,
            })
          : new MemoryStore();
      if (store.kind === 'memory')
        console.warn(
          'tryon proxy: development without Durable Objects: forgotten photos, budgets and limits are kept per isolate',
        );
      const app = createProxy({
        ...proxyOptionsFrom(config),
        apiKey: config.apiKey!,
        baseUrl: config.baseUrl!,
        catalog,
        store,
        // The check of a result against its garment gets less CPU in an isolate than on a Node server.
        limits,
        // Cloudflare sets cf-connecting-ip itself; x-forwarded-for could come from the client.
        clientAddress: (c) => c.req.header('cf-connecting-ip'),
        readAsset: async (path) => {
          const relative = path.replace(/^\/+/, '');
          const bundled = images[relative];
          if (bundled !== undefined) return decodeBase64(bundled);
          const url = assetsBase ? `${assetsBase}/${relative}` : `https://assets.local/${relative}`;
          const response = env.ASSETS ? await env.ASSETS.fetch(url) : await fetch(url, { redirect: 'manual' });
          if (!response.ok) throw new Error(`catalog image ${relative}: HTTP ${response.status}`);
          return new Uint8Array(await response.arrayBuffer());
        },
      });
      // The spend ledger is the store's: /usage reads what the app reserves against.
      const admin = config.adminToken
        ? createAdmin({
            token: config.adminToken,
            usage: {
              book: store.usageBook(Date.now),
              ledger: store.spendLedger(limits, Date.now),
              dailyTryons: limits.dailyTryons,
              dailyCredits: limits.dailyCredits,
            },
            orders: {
              intake: new OrderIntake(store.orderBook(Date.now), config.secret, Date.now),
              secret: config.ordersSecret,
            },
            clientAddress: (c) => c.req.header('cf-connecting-ip'),
          })
        : undefined;
      built = { key, app, ...(admin ? { admin } : {}) };
    } catch (error) {
      built = { key, problem: problemOf(error) };
      console.error(`tryon proxy: misconfigured, answering 503 proxy_misconfigured: ${built.problem}`);
    }
    return built;
  }

  return {
    fetch(request: Request, env: WorkerEnv, ctx?: unknown): Response | Promise<Response> {
      const { app, admin } = build(env);
      if (!app) return Response.json(MISCONFIGURED, { status: 503, headers: { 'cache-control': 'no-store' } });
      // The admin listener's two routes, at the Worker's own address (a Worker has one): each needs the admin token.
      const path = new URL(request.url).pathname;
      if (admin && (path === '/usage' || path === '/orders')) return admin.fetch(request, env, ctx as never);
      return app.fetch(request, env, ctx as never);
    },
  };
}

/** Without a bundled deployment: the catalog from TRYON_CATALOG_JSON, images from TRYON_ASSETS_URL or ASSETS. */
export default workerFor();
