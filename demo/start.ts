// `npm start`: the sandbox (unless a real key and base URL are set), the token proxy mounted at
// /tryon and the demo shop, on one origin. Prints the shop's URL; Ctrl-C stops everything.
// The proxy is configured through loadConfig, as the `tryon-proxy` bin is: the same variables,
// the same refusals (a short secret, a malformed origin, a key without a base URL).
import type { ProxyStore } from '../proxy/store/store.js';
import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { transform } from 'esbuild';
import { createProxy } from '../proxy/app.js';
import { loadConfig, proxyOptionsFrom } from '../proxy/config/config.js';
import { socketAddress } from '../proxy/node.js';
import type { ProxyLimits } from '../proxy/limits/limits.js';
import { cachedCdnBuild } from '../scripts/kept-builds.js';
import { createShop } from './shop/app.js';
import { prepareShopCatalog } from './shop/tryon-catalog.js';
import { connectTryonService } from './tryon-service.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const shopDir = join(root, 'demo/shop');

export interface DemoOptions {
  /** shop port; default PORT or 8080; 0 picks a free one */
  port?: number;
  /** default HOST or 127.0.0.1 */
  hostname?: string;
  /** sandbox port; default SANDBOX_PORT or 8081; 0 picks a free one */
  sandboxPort?: number;
  /** sandbox speed (duration multiplier); default SANDBOX_SPEED or 0.3; 0 = instant */
  speed?: number;
  /** sandbox keys (key → workspace); the proxy uses the first. Default one test key. */
  sandboxKeys?: Record<string, string>;
  /** proxy limits (tests shorten the upstream timeout to provoke one quickly) */
  proxyLimits?: Partial<ProxyLimits>;
  /** no start-up lines, no proxy or sandbox logs */
  quiet?: boolean;
  /** where start-up lines and the proxy's and sandbox's log lines go (default: stdout) */
  log?: (line: string) => void;
  /** environment to read (default process.env) */
  env?: Record<string, string | undefined>;
  /** the proxy's shared store (tests run two demo shops on one Redis); default: one process's memory */
  proxyStore?: ProxyStore;
}

export interface Demo {
  /** the shop, e.g. http://127.0.0.1:8080 (no trailing slash) */
  url: string;
  /** the sandbox, when one was started */
  sandboxUrl?: string;
  /** the key the proxy uses against the sandbox (never printed for a real service) */
  sandboxKey?: string;
  close(): Promise<void>;
}

async function compilePageScript(): Promise<string> {
  const source = await readFile(join(shopDir, 'page.ts'), 'utf8');
  const { code } = await transform(source, { loader: 'ts', format: 'esm', minify: true, target: 'es2022' });
  return code;
}

/**
 * The widget as a shop gets it (the CDN build), in a folder of this demo's own: built when its
 * sources changed since the last start, else copied from that build (scripts/kept-builds.ts).
 */
async function buildWidget(quiet: boolean): Promise<{ dir: string; ok: boolean }> {
  const dir = await mkdtemp(join(tmpdir(), 'tryon-demo-widget-'));
  try {
    await cachedCdnBuild(dir);
    return { dir, ok: true };
  } catch (error) {
    if (!quiet)
      console.warn(
        `demo: the widget did not build (${(error as Error).message.split('\n')[0]}); pages show no try-on button.`,
      );
    await mkdir(dir, { recursive: true });
    await writeFile(
      join(dir, 'tryon-button.js'),
      'console.warn("tryon-button: the widget did not build; see the demo\'s start-up log.");\n',
    );
    return { dir, ok: false };
  }
}

function listen(app: { fetch: (request: Request) => Response | Promise<Response> }, port: number, hostname: string) {
  return new Promise<{ port: number; close(): Promise<void> }>((resolvePromise, reject) => {
    const server = serve({ fetch: app.fetch, port, hostname }, (info: AddressInfo) => {
      resolvePromise({
        port: info.port,
        close: () =>
          new Promise<void>((done) => {
            // Open SSE streams would keep close() waiting forever.
            if ('closeAllConnections' in server) server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
    server.once('error', reject);
  });
}

function numberFrom(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed < 0) throw new Error(`${name} must be a non-negative number, got "${value}"`);
  return parsed;
}

export async function startDemo(options: DemoOptions = {}): Promise<Demo> {
  const env = options.env ?? process.env;
  const quiet = options.quiet ?? false;
  const log = options.log ?? ((line: string) => console.log(line));
  const say = (line: string) => {
    if (!quiet) log(line);
  };
  const port = options.port ?? numberFrom(env.PORT, 8080, 'PORT');
  const hostname = options.hostname ?? env.HOST ?? '127.0.0.1';
  const closers: (() => Promise<void>)[] = [];
  const close = async () => {
    for (const closer of closers.splice(0).reverse()) await closer().catch(() => undefined);
  };

  try {
    // First, so a bad configuration is said before anything is built or started.
    const config = loadConfig(env);
    const [{ catalog, imagesDir }, widget, pageScript] = await Promise.all([
      prepareShopCatalog(),
      buildWidget(quiet),
      compilePageScript(),
    ]);
    closers.push(() => rm(widget.dir, { recursive: true, force: true }));

    const service = await connectTryonService(config, {
      port: options.sandboxPort ?? numberFrom(env.SANDBOX_PORT, 8081, 'SANDBOX_PORT'),
      hostname: '127.0.0.1',
      speed: options.speed ?? numberFrom(env.SANDBOX_SPEED, 0.3, 'SANDBOX_SPEED'),
      keys: options.sandboxKeys ?? { sk_test_demo: 'ws_demo' },
      ...(quiet ? { log: () => undefined } : options.log ? { log } : {}),
    });
    closers.push(() => service.close());
    if (service.sandbox)
      say(`Sandbox of the try-on API: ${service.sandbox.url} (no key needed; renders are marked "sandbox")`);
    else say(`Try-on service: ${service.baseUrl} (${service.upstreamLabel} key; no sandbox started)`);

    const configured = proxyOptionsFrom(config);
    const proxy = createProxy({
      // Handles only need to outlive one demo run unless the shop sets a secret (loadConfig makes one up).
      ...configured,
      apiKey: service.apiKey,
      baseUrl: service.baseUrl,
      catalog,
      assetsDir: imagesDir,
      readAsset: async (path) => new Uint8Array(await readFile(resolve(imagesDir, path))),
      upstreamLabel: service.upstreamLabel,
      // The sandbox's speed, which only the demo knows: what a try-on takes before any is measured.
      ...(!configured.typicalSeconds && service.typicalSeconds ? { typicalSeconds: service.typicalSeconds } : {}),
      // Rate limits are per shopper: key them by the socket's address, not one shared bucket.
      clientAddress: socketAddress,
      limits: { ...configured.limits, ...options.proxyLimits },
      ...(options.proxyStore ? { store: options.proxyStore } : {}),
      ...(quiet
        ? { log: () => undefined }
        : options.log
          ? { log: (entry: Record<string, unknown>) => log(JSON.stringify(entry)) }
          : {}),
    });

    const shop = createShop({ imagesDir, widgetDir: widget.dir, pageScript, tryon: proxy });
    const server = await listen(shop, port, hostname);
    closers.push(() => server.close());
    const url = `http://${hostname.includes(':') ? `[${hostname}]` : hostname}:${server.port}`;
    say(`Demo shop: ${url}  (Ctrl-C stops it)`);
    return {
      url,
      ...(service.sandbox ? { sandboxUrl: service.sandbox.url, sandboxKey: service.sandbox.key } : {}),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

function isMain(): boolean {
  const script = process.argv[1];
  return script !== undefined && resolve(script) === fileURLToPath(import.meta.url);
}

if (isMain()) {
  try {
    const demo = await startDemo();
    let stopping = false;
    const stop = () => {
      if (stopping) return;
      stopping = true;
      console.log('\nStopping the demo…');
      void demo.close().then(() => process.exit(0));
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  } catch (error) {
    console.error(`demo: ${(error as Error).message}`);
    process.exit(1);
  }
}
