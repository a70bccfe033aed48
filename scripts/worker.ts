// `npm run worker`: the proxy as a Cloudflare Worker, bundled with its deployment (the catalog
// TRYON_CATALOG names, as a JSON module, and the catalog's images from its folder or
// TRYON_ASSETS_DIR), served locally in workerd by Miniflare on WORKER_PORT (default 8787), with
// the same TRYON_* variables as proxy/node.ts and the Durable Objects bound as wrangler.toml binds
// them (the store on them, in memory while it runs). Nothing is fetched at start. `wrangler deploy`
// ships the same bundle (docs/integrations/deploy-proxy.md).
import { build } from 'esbuild';
import { mkdir, readFile, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { Miniflare } from 'miniflare';

const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The newest date the pinned workerd (miniflare 4.20260426) knows; wrangler.toml says the same. */
export const COMPATIBILITY_DATE = '2026-04-26';

export interface WorkerBundle {
  path: string;
  bytes: number;
  gzipBytes: number;
  images: string[];
  missingImages: string[];
}

/** Catalog image paths (garmentImage, referencePersonImage) of every product and variant. */
function imagePaths(catalog: unknown): string[] {
  const products = (catalog as { products?: Record<string, Record<string, unknown>> } | undefined)?.products ?? {};
  const paths = new Set<string>();
  // Read leniently rather than with parseCatalog: a catalog that does not validate still bundles,
  // so the Worker can answer proxy_misconfigured and say why, as node.ts does at start.
  const entries = Object.values(products).flatMap((product) => [
    product,
    ...Object.values((product?.['variants'] ?? {}) as Record<string, Record<string, unknown>>),
  ]);
  for (const entry of entries) {
    for (const field of ['garmentImage', 'referencePersonImage']) {
      const value = entry?.[field];
      if (typeof value === 'string' && !/^https?:/.test(value)) paths.add(value);
    }
  }
  // The shop's model pictures ("See it on a model") are uploaded and served like garment images.
  const models = (catalog as { models?: Record<string, Record<string, unknown>> } | undefined)?.models ?? {};
  for (const model of Object.values(models)) {
    const value = model?.['image'];
    if (typeof value === 'string' && !/^https?:/.test(value)) paths.add(value);
  }
  return [...paths];
}

/**
 * Bundles proxy/worker.ts with the catalog at `catalogPath` (none: the Worker reads
 * TRYON_CATALOG_JSON) into `outFile`. Images missing from the folder are listed, not fatal (as node.ts).
 */
export async function buildWorker(
  options: { catalogPath?: string | undefined; assetsDir?: string | undefined; outFile?: string } = {},
): Promise<WorkerBundle> {
  const outFile = options.outFile ?? join(projectRoot, '.cache/worker/worker.js');
  let entry = `export { default, TryonObject, ShopObject } from ${JSON.stringify(join(projectRoot, 'proxy/worker.ts'))};\n`;
  const images: string[] = [];
  const missingImages: string[] = [];
  if (options.catalogPath) {
    const catalogPath = resolve(options.catalogPath);
    const catalog = JSON.parse(await readFile(catalogPath, 'utf8')) as unknown;
    const assetsDir = resolve(options.assetsDir ?? dirname(catalogPath));
    const encoded: Record<string, string> = {};
    for (const path of imagePaths(catalog)) {
      const file = path.startsWith('/') ? path : join(assetsDir, path);
      try {
        encoded[path.replace(/^\/+/, '')] = (await readFile(file)).toString('base64');
        images.push(path);
      } catch {
        missingImages.push(path);
      }
    }
    entry = [
      `import { workerFor } from ${JSON.stringify(join(projectRoot, 'proxy/worker.ts'))};`,
      `export { TryonObject, ShopObject } from ${JSON.stringify(join(projectRoot, 'proxy/worker.ts'))};`,
      `import catalog from ${JSON.stringify(catalogPath)} with { type: 'json' };`,
      `export default workerFor({ catalog, images: ${JSON.stringify(encoded)} });`,
      '',
    ].join('\n');
  }
  await mkdir(dirname(outFile), { recursive: true });
  await build({
    stdin: { contents: entry, resolveDir: projectRoot, sourcefile: 'worker-entry.js', loader: 'js' },
    outfile: outFile,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    conditions: ['workerd', 'worker', 'browser'],
    target: 'es2022',
    minify: true,
    logLevel: 'silent',
  });
  const code = await readFile(outFile);
  return { path: outFile, bytes: (await stat(outFile)).size, gzipBytes: gzipSync(code).length, images, missingImages };
}

export interface ServedWorker {
  url: string;
  miniflare: Miniflare;
  bundle: WorkerBundle;
  close(): Promise<void>;
}

export interface ServeOptions {
  /**
   * Bind the Durable Objects (TRYON_TRYONS, TRYON_SHOP) as wrangler.toml does, so every guard is
   * exact across isolates; false: each isolate keeps its own store. Default true.
   */
  durable?: boolean;
  /** Hears workerd's output line by line (default: Miniflare prints it). */
  output?: { onLine(line: string): void };
  /** Keeps the Durable Objects' storage in this directory, so a later workerd on it restarts them (default: memory). */
  persistDir?: string;
}

/** The Durable Object bindings and their classes, as wrangler.toml declares them (SQLite-backed). */
export const DURABLE_OBJECTS = { TRYON_TRYONS: 'TryonObject', TRYON_SHOP: 'ShopObject' } as const;

/** Miniflare's form of DURABLE_OBJECTS; `owner`: the worker that runs the objects, when it is another. */
function durableObjects(owner?: string) {
  const binding = (className: string) => ({ className, useSQLite: true, ...(owner ? { scriptName: owner } : {}) });
  return Object.fromEntries(Object.entries(DURABLE_OBJECTS).map(([name, className]) => [name, binding(className)]));
}

/**
 * env's TRYON_* variables as the Worker's bindings (TRYON_CATALOG and TRYON_ASSETS_DIR are the
 * build's), and NODE_ENV=development, the one value that relaxes the Worker's production rules
 * (a Worker without Durable Objects is refused otherwise).
 */
function variableBindings(env: Record<string, string | number | undefined>): Record<string, string | number> {
  const bindings: Record<string, string | number> = env.NODE_ENV === 'development' ? { NODE_ENV: 'development' } : {};
  for (const [name, value] of Object.entries(env)) {
    if (name.startsWith('TRYON_') && value !== undefined && name !== 'TRYON_CATALOG' && name !== 'TRYON_ASSETS_DIR')
      bindings[name] = value;
  }
  return bindings;
}

/** The bundle as Miniflare runs it: its module, its compatibility date and env's TRYON_* bindings. */
function bundleWorker(bundle: WorkerBundle, env: Record<string, string | number | undefined>) {
  return {
    modules: true,
    scriptPath: bundle.path,
    modulesRoot: dirname(bundle.path),
    compatibilityDate: COMPATIBILITY_DATE,
    bindings: variableBindings(env),
  };
}

function runtimeOutput(output?: { onLine(line: string): void }) {
  if (!output) return {};
  return {
    handleRuntimeStdio(stdout: Readable, stderr: Readable) {
      for (const stream of [stdout, stderr]) {
        let rest = '';
        stream.setEncoding('utf8');
        stream.on('data', (chunk: string) => {
          const lines = (rest + chunk).split('\n');
          rest = lines.pop() ?? '';
          for (const line of lines) if (line.trim()) output.onLine(line);
        });
      }
    },
  };
}

/**
 * Serves `bundle` in workerd on 127.0.0.1:`port` (0: any free port) with `env`'s TRYON_* variables
 * as the Worker's bindings. Offline: Miniflare is told not to fetch Cloudflare's request metadata.
 * Durable Objects live in memory, for as long as this Miniflare runs, unless `persistDir` is given.
 */
export async function serveWorker(
  bundle: WorkerBundle,
  env: Record<string, string | number | undefined>,
  port = 0,
  output?: { onLine(line: string): void },
  options: Omit<ServeOptions, 'output'> = {},
): Promise<ServedWorker> {
  const miniflare = new Miniflare({
    ...bundleWorker(bundle, env),
    ...(options.durable === false ? {} : { durableObjects: durableObjects() }),
    ...(options.persistDir ? { durableObjectsPersist: options.persistDir } : {}),
    host: '127.0.0.1',
    port,
    cf: false,
    ...runtimeOutput(output),
  });
  const url = (await miniflare.ready).toString().replace(/\/$/, '');
  return { url, miniflare, bundle, close: () => miniflare.dispose() };
}

/** Cloudflare's edge, as far as the proxy sees it: every request arrives naming its client. */
const EDGE_STAND_IN = `export default {
  fetch(request, env) {
    const forwarded = new Request(request);
    forwarded.headers.set('cf-connecting-ip', '127.0.0.1');
    return env.PROXY.fetch(forwarded);
  },
};
`;

export interface ServedIsolates {
  urls: string[];
  miniflare: Miniflare;
  close(): Promise<void>;
}

/**
 * Serves `bundle` as `count` Workers in one workerd, each its own isolate on its own 127.0.0.1
 * port, all bound to the same Durable Objects (run by the first): several isolates of one
 * deployment, as Cloudflare runs it under load.
 */
export async function serveWorkerIsolates(
  bundle: WorkerBundle,
  env: Record<string, string | number | undefined>,
  count: number,
  options: ServeOptions = {},
): Promise<ServedIsolates> {
  const names = Array.from({ length: count }, (_, i) => `tryon-proxy-${i + 1}`);
  const miniflare = new Miniflare({
    workers: [
      ...names.map((name, i) => ({
        name,
        ...bundleWorker(bundle, env),
        ...(options.durable === false ? {} : { durableObjects: durableObjects(i === 0 ? undefined : names[0]) }),
      })),
      // Each isolate's own port is served by a stand-in for Cloudflare's edge, which names the
      // client in cf-connecting-ip as the edge (and Miniflare's single entry) does: a direct
      // socket skips that, and the proxy then rightly cannot tell who is asking.
      ...names.map((name) => ({
        name: `edge-${name}`,
        modules: [{ type: 'ESModule' as const, path: 'edge.mjs', contents: EDGE_STAND_IN }],
        compatibilityDate: COMPATIBILITY_DATE,
        serviceBindings: { PROXY: name },
        unsafeDirectSockets: [{ host: '127.0.0.1', port: 0 }],
      })),
    ],
    host: '127.0.0.1',
    port: 0,
    cf: false,
    ...runtimeOutput(options.output),
  });
  await miniflare.ready;
  const urls = await Promise.all(
    names.map(async (name) => (await miniflare.unsafeGetDirectURL(`edge-${name}`)).toString().replace(/\/$/, '')),
  );
  return { urls, miniflare, close: () => miniflare.dispose() };
}

/**
 * A Worker that passes each request to one Durable Object: the binding and the object's name in
 * `x-durable-binding` and `x-durable-name`, the URL the object sees in `x-durable-url`.
 */
const DURABLE_BRIDGE = `export default {
  async fetch(request, env) {
    const binding = request.headers.get('x-durable-binding');
    const name = request.headers.get('x-durable-name');
    const url = request.headers.get('x-durable-url');
    const namespace = binding && /^TRYON_[A-Z]+$/.test(binding) ? env[binding] : undefined;
    if (!namespace || name === null || url === null) return new Response('unknown object', { status: 400 });
    const headers = new Headers(request.headers);
    for (const header of ['x-durable-binding', 'x-durable-name', 'x-durable-url']) headers.delete(header);
    const forwarded = new Request(url, { method: request.method, headers, body: request.body });
    return namespace.get(namespace.idFromName(name)).fetch(forwarded);
  },
};
`;

export interface ServedObjects {
  /** The bridge's URL: POST or GET with x-durable-binding, x-durable-name and x-durable-url. */
  url: string;
  close(): Promise<void>;
}

/**
 * The bundle's Durable Objects in workerd, reached from Node over plain HTTP through a bridge
 * Worker on its own 127.0.0.1 port (test/proxy/stores.ts makes namespaces of it). Not Miniflare's
 * getDurableObjectNamespace: its bindings reach workerd through a proxy of synchronous calls that
 * once in a few hundred calls answered the wrong call ("false == true") and failed every later
 * one, which took a whole test file's durable store down.
 */
export async function serveDurableObjects(
  bundle: WorkerBundle,
  output?: { onLine(line: string): void },
): Promise<ServedObjects> {
  const owner = 'tryon-proxy';
  const miniflare = new Miniflare({
    workers: [
      {
        name: owner,
        ...bundleWorker(bundle, {}),
        durableObjects: durableObjects(),
      },
      {
        name: 'durable-bridge',
        modules: [{ type: 'ESModule' as const, path: 'bridge.mjs', contents: DURABLE_BRIDGE }],
        compatibilityDate: COMPATIBILITY_DATE,
        durableObjects: durableObjects(owner),
        unsafeDirectSockets: [{ host: '127.0.0.1', port: 0 }],
      },
    ],
    host: '127.0.0.1',
    port: 0,
    cf: false,
    ...runtimeOutput(output),
  });
  await miniflare.ready;
  const url = (await miniflare.unsafeGetDirectURL('durable-bridge')).toString().replace(/\/$/, '');
  return { url, close: () => miniflare.dispose() };
}

async function main(): Promise<void> {
  const portText = process.env.WORKER_PORT ?? '8787';
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`tryon worker: WORKER_PORT "${portText}" is not a port number`);
    process.exit(1);
  }
  let bundle: WorkerBundle;
  try {
    bundle = await buildWorker({ catalogPath: process.env.TRYON_CATALOG, assetsDir: process.env.TRYON_ASSETS_DIR });
  } catch (error) {
    console.error(
      `tryon worker: the Worker could not be built: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
    );
    process.exit(1);
  }
  if (bundle.missingImages.length > 0)
    console.warn(
      `tryon worker: some catalog images are missing (set TRYON_ASSETS_DIR?); their products will fail:\n  - ${bundle.missingImages.join('\n  - ')}`,
    );
  const served = await serveWorker(bundle, process.env, port);
  console.log(
    `tryon worker: ${served.url} (workerd, bundle ${(bundle.bytes / 1024).toFixed(0)} KiB, ${(bundle.gzipBytes / 1024).toFixed(0)} KiB gzip, ${bundle.images.length} catalog images)`,
  );
  const stop = () => {
    void served.close().finally(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
