// The Workers entry: the same app, built once per isolate from the Worker's bindings.
// Catalog images are fetched from absolute URLs or through an ASSETS binding (static assets).
import { createProxy } from './app.js';
import { loadConfig, proxyOptionsFrom } from './config.js';
import type { CatalogFile } from './catalog.js';
import type { Hono } from 'hono';

export interface WorkerEnv {
  TRYON_API_KEY?: string;
  TRYON_BASE_URL?: string;
  TRYON_PROXY_SECRET?: string;
  TRYON_ALLOWED_ORIGINS?: string;
  TRYON_WEBHOOK_SECRET?: string;
  /** The catalog as JSON text (a Worker has no files to read). */
  TRYON_CATALOG_JSON?: string;
  /** Base URL catalog image paths are resolved against, e.g. the shop's static origin. */
  TRYON_ASSETS_URL?: string;
  ASSETS?: { fetch(request: Request | string): Promise<Response> };
  [name: string]: unknown;
}

let built: { app: Hono<any>; key: string } | undefined;

function build(env: WorkerEnv): Hono<any> {
  const strings = Object.fromEntries(Object.entries(env).filter(([, v]) => typeof v === 'string')) as Record<string, string>;
  const cacheKey = JSON.stringify(strings);
  if (built?.key === cacheKey) return built.app;
  const config = loadConfig({ NODE_ENV: 'production', ...strings });
  const catalog = JSON.parse(env.TRYON_CATALOG_JSON ?? '{"products":{}}') as CatalogFile;
  const assetsBase = env.TRYON_ASSETS_URL?.replace(/\/+$/, '');
  const app = createProxy({
    ...proxyOptionsFrom(config),
    apiKey: config.apiKey!,
    baseUrl: config.baseUrl!,
    catalog,
    // Cloudflare sets cf-connecting-ip itself; x-forwarded-for could come from the client.
    clientAddress: (c) => c.req.header('cf-connecting-ip'),
    readAsset: async (path) => {
      const url = assetsBase ? `${assetsBase}/${path.replace(/^\/+/, '')}` : `https://assets.local/${path.replace(/^\/+/, '')}`;
      const response = env.ASSETS ? await env.ASSETS.fetch(url) : await fetch(url);
      if (!response.ok) throw new Error(`catalog image ${path}: HTTP ${response.status}`);
      return new Uint8Array(await response.arrayBuffer());
    },
  });
  built = { app, key: cacheKey };
  return app;
}

export default {
  fetch(request: Request, env: WorkerEnv, ctx?: unknown): Response | Promise<Response> {
    return build(env).fetch(request, env, ctx as never);
  },
};
