// Shop apps bundled from the packed packages, as a developer builds them: tryon-button and
// tryon-proxy packed with `npm pack` (packages.ts) and unpacked into each app's node_modules, their
// runtime dependencies and the bundlers linked from this repository's node_modules (offline). Each
// app is built by its bundler (Vite, webpack 5, Next.js with `next build` then `next start`) and
// opened in Chromium (the system's), where a shopper's photo goes through the photo check **in its
// worker** (the bundler must have emitted the worker, its models and its wasm) and a try-on reaches
// its result through the proxy's adapter (`tryon-proxy/node` under Express, `tryon-proxy/next` in
// the Next app) against the sandbox.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { basename, dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import express from 'express';
import { chromium, type Browser, type Page } from 'playwright-core';
import { build as viteBuild } from 'vite';
import webpack from 'webpack';
import { fileExists, listFiles, projectRoot } from '../../scripts/build.js';
import { CHROMIUM_ARGS, findChromium } from '../../scripts/chromium.js';
import { SAMPLE_PHOTO } from '../../demo/shop/images.js';
import { CATALOG, SECRET, startTestSandbox, writeAssets } from '../proxy/stack.js';
import { waitForOutput } from '../process-output.js';
import { packPackages, run } from './packages.js';

/** A product whose garment the sample photo suits (the check passes it), with one view. */
const PRODUCT = 'dress-aline-indigo';
const API_KEY = 'sk_test_a';

let work: string;
let tarballs: Record<string, string>;
let stages: Record<string, string>;
let browser: Browser;
let sandbox: Awaited<ReturnType<typeof startTestSandbox>>;

/** Packages linked from this repository into an app: what npm would install there, offline. */
const LINKED = ['lit', 'lit-html', 'lit-element', '@lit', 'hono', 'zod', '@hono', 'react', 'react-dom', 'next'];

/** An app folder with both packages unpacked from their tarballs and their dependencies linked. */
async function makeApp(app: string, files: Record<string, string>): Promise<string> {
  const name = basename(app);
  for (const [pkg, tarball] of Object.entries(tarballs)) {
    const dir = join(app, 'node_modules', pkg);
    await mkdir(dir, { recursive: true });
    const untar = await run('tar', ['-xzf', tarball, '-C', dir, '--strip-components=1'], app);
    assert.equal(untar.code, 0, untar.output);
  }
  for (const pkg of LINKED) {
    await mkdir(dirname(join(app, 'node_modules', pkg)), { recursive: true });
    await symlink(join(projectRoot, 'node_modules', pkg), join(app, 'node_modules', pkg), 'dir');
  }
  await writeFile(join(app, 'package.json'), JSON.stringify({ name, private: true, type: 'module' }));
  for (const [file, text] of Object.entries(files)) {
    await mkdir(dirname(join(app, file)), { recursive: true });
    await writeFile(join(app, file), text);
  }
  await writeAssets(join(app, 'tryon'));
  await writeFile(join(app, 'tryon/catalog.json'), JSON.stringify(CATALOG));
  return app;
}

/**
 * Built apps are kept between runs (next build alone is a minute of CPU), one per app, keyed by what
 * they are built from: the packed packages' files (their source maps aside, which name the temp
 * folder they were built in), the app's own files, how it is built and the bundlers' versions. A
 * change to any of them builds again. Inside the repository, as Turbopack resolves the linked
 * packages only within its root.
 */
const KEPT_APPS = join(projectRoot, '.cache/bundler-apps');

async function appKey(files: Record<string, string>, build: (app: string) => Promise<unknown>): Promise<string> {
  const hash = createHash('sha256');
  for (const stage of Object.values(stages).sort()) {
    for (const path of (await listFiles(stage)).sort()) {
      if (path.endsWith('.map')) continue;
      hash
        .update(relative(stage, path))
        .update('\0')
        .update(await readFile(path))
        .update('\0');
    }
  }
  hash.update(JSON.stringify(files)).update(build.toString());
  for (const bundler of ['vite', 'webpack', 'next'])
    hash.update(JSON.parse(await readFile(join(projectRoot, 'node_modules', bundler, 'package.json'), 'utf8')).version);
  return hash.digest('hex').slice(0, 16);
}

/** The app `name` made from `files` and built by `build`: kept from an earlier run with the same key, or made now. */
async function builtApp(
  name: string,
  files: Record<string, string>,
  build: (app: string) => Promise<unknown>,
): Promise<{ app: string; kept: boolean; seconds: number }> {
  const key = await appKey(files, build);
  const app = join(KEPT_APPS, `${name}-${key}`);
  if (await fileExists(join(app, '.complete'))) return { app, kept: true, seconds: 0 };
  await mkdir(KEPT_APPS, { recursive: true });
  for (const entry of await readdir(KEPT_APPS))
    if (entry.startsWith(`${name}-`)) await rm(join(KEPT_APPS, entry), { recursive: true, force: true });
  await makeApp(app, files);
  const started = Date.now();
  await build(app);
  await writeFile(join(app, '.complete'), `${new Date().toISOString()}\n`);
  return { app, kept: false, seconds: (Date.now() - started) / 1000 };
}

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title></head>
<body><tryon-button product="${PRODUCT}" endpoint="/tryon"></tryon-button><script type="module" src="./main.js"></script></body></html>`;

/** The installed tryon-proxy/node's handler under Express at /tryon, beside the app's built files. */
async function serveWithExpress(app: string, staticDir: string): Promise<{ url: string; close(): Promise<void> }> {
  const proxyNode = (await import(
    pathToFileURL(join(app, 'node_modules/tryon-proxy/dist/node.js')).href
  )) as typeof import('../../proxy/node.js');
  const catalog = proxyNode.defineCatalog(JSON.parse(await readFile(join(app, 'tryon/catalog.json'), 'utf8')));
  const server = express();
  server.use(
    '/tryon',
    proxyNode.createNodeHandler(() => ({
      apiKey: API_KEY,
      baseUrl: sandbox.url,
      secret: SECRET,
      allowedOrigins: [],
      catalog,
      assetsDir: join(app, 'tryon'),
      log: () => undefined,
    })),
  );
  server.use(express.static(staticDir));
  const listening = await new Promise<Server>((resolve) => {
    const s = server.listen(0, '127.0.0.1', () => resolve(s));
  });
  const { port } = listening.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        listening.closeAllConnections();
        listening.close(() => resolve());
      }),
  };
}

/** A port nothing listens on now, for `next start`, which prints no port it chose itself. */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

interface Verdict {
  result: string;
  reasons: string[];
  ms?: number;
}

/**
 * The shopper's path on `url`: open, consent, choose the sample photo, the check's verdict, "Try it
 * on", the result. Returns what the page saw: the verdict, the workers started, the result's outputs.
 */
async function tryOnIn(page: Page, url: string) {
  const workers: string[] = [];
  const problems: string[] = [];
  page.on('worker', (worker) => workers.push(worker.url()));
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'warning' || message.type() === 'error') problems.push(message.text());
  });
  await page.goto(url);
  await page.waitForFunction(() => customElements.get('tryon-button') !== undefined, undefined, { timeout: 30_000 });
  // A string, not a function: tsx would name the inner arrow functions with a helper the page lacks.
  await page.evaluate(`{
    const button = document.querySelector('tryon-button');
    const once = (name) => new Promise((resolve) => button.addEventListener(name, (event) => resolve(event.detail), { once: true }));
    window.tryonEvents = { check: once('tryon-photo-check'), result: once('tryon-result') };
  }`);
  await page.getByRole('button', { name: 'Try it on', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Virtual try-on' });
  await dialog.getByRole('checkbox', { name: 'I agree to upload my photo for this try-on' }).check();
  await dialog.getByRole('button', { name: 'Continue' }).click();
  await dialog.getByLabel('Your photo', { exact: true }).setInputFiles({
    name: 'me.jpg',
    mimeType: 'image/jpeg',
    buffer: await readFile(join(projectRoot, 'demo/shop', SAMPLE_PHOTO)),
  });
  const verdict = await page.evaluate(
    () => (window as unknown as { tryonEvents: { check: Promise<Verdict> } }).tryonEvents.check,
  );
  await dialog.getByRole('button', { name: 'Try it on', exact: true }).click();
  const result = await page.evaluate(
    () =>
      (window as unknown as { tryonEvents: { result: Promise<{ outputs: { url: string }[] }> } }).tryonEvents.result,
  );
  return { verdict, workers, result, problems };
}

/** What every bundled app must show: both workers ran, the check gave a verdict in its worker, a result came. */
function assertWorkedInWorkers(seen: Awaited<ReturnType<typeof tryOnIn>>, label: string): void {
  // The photo check has no main-thread path: a pass or fail is only ever measured in its worker.
  assert.equal(
    seen.verdict.result,
    'pass',
    `${label}: the check ran in its worker (${JSON.stringify(seen.verdict)}; ${seen.problems.join('; ')})`,
  );
  assert.equal(typeof seen.verdict.ms, 'number', `${label}: the worker timed its check`);
  assert.ok(seen.workers.length >= 2, `${label}: the preparation's and the check's workers started: ${seen.workers}`);
  assert.ok(
    !seen.problems.some((p) => /not in a worker|photo check could not run|goes on unchecked/.test(p)),
    `${label}: nothing fell back to the page: ${seen.problems.join('; ')}`,
  );
  assert.ok(seen.result.outputs.length > 0, `${label}: the try-on's result came`);
}

before(async () => {
  ({ work, tarballs, stages } = await packPackages(['tryon-button', 'tryon-proxy']));
  sandbox = await startTestSandbox();
  const executablePath = findChromium();
  assert.ok(executablePath, 'Chromium is installed (npm test installs it)');
  browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS, headless: true });
});

after(async () => {
  await browser?.close();
  await sandbox?.close();
  await rm(work, { recursive: true, force: true });
});

describe('a shop app bundled from the packed packages keeps the photo workers', () => {
  test('Vite (vanilla): the workers, models and wasm emitted; the check runs in its worker; a try-on through Express and tryon-proxy/node', async (t) => {
    const { app, kept, seconds } = await builtApp(
      'vite-app',
      { 'index.html': PAGE, 'main.js': "import 'tryon-button';\n" },
      (dir) => viteBuild({ root: dir, configFile: false, logLevel: 'silent', build: { outDir: join(dir, 'dist') } }),
    );
    t.diagnostic(kept ? 'vite build: kept from an earlier run' : `vite build: ${seconds.toFixed(1)} s`);
    const server = await serveWithExpress(app, join(app, 'dist'));
    const page = await browser.newPage();
    try {
      const seen = await tryOnIn(page, `${server.url}/`);
      assertWorkedInWorkers(seen, 'vite');
      assert.ok(
        seen.workers.some((url) => /\/assets\/photo-check-worker-[\w-]+\.js$/.test(url)),
        `the check's worker is Vite's: ${seen.workers}`,
      );
    } finally {
      await page.close();
      await server.close();
    }
  });

  test('webpack 5: the workers, models and wasm emitted; the check runs in its worker; a try-on through Express and tryon-proxy/node', async (t) => {
    const { app, kept, seconds } = await builtApp(
      'webpack-app',
      { 'src/main.js': "import 'tryon-button';\n", 'dist/index.html': PAGE },
      async (dir) => {
        const stats = await new Promise<webpack.Stats>((resolve, reject) => {
          webpack(
            {
              mode: 'production',
              context: dir,
              entry: './src/main.js',
              output: { path: join(dir, 'dist'), publicPath: '/' },
              performance: { hints: false },
              infrastructureLogging: { level: 'none' },
            },
            (error, result) => (error || !result ? reject(error ?? new Error('no stats')) : resolve(result)),
          );
        });
        assert.ok(!stats.hasErrors(), stats.toString({ all: false, errors: true }));
      },
    );
    t.diagnostic(kept ? 'webpack build: kept from an earlier run' : `webpack build: ${seconds.toFixed(1)} s`);
    const assets = await readdir(join(app, 'dist'));
    assert.ok(
      assets.some((name) => name.endsWith('.wasm')) && assets.filter((name) => name.endsWith('.bin')).length === 2,
      `webpack emitted the wasm and both models' weights: ${assets.join(', ')}`,
    );
    const server = await serveWithExpress(app, join(app, 'dist'));
    const page = await browser.newPage();
    try {
      assertWorkedInWorkers(await tryOnIn(page, `${server.url}/`), 'webpack');
    } finally {
      await page.close();
      await server.close();
    }
  });
});

describe('a Next.js app (App Router) with tryon-proxy/next', () => {
  test('next build without the environment, next start with it: the check runs in its worker and a try-on goes through the route', async (t) => {
    const next = join(projectRoot, 'node_modules/next/dist/bin/next');
    const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NEXT_TELEMETRY_DISABLED: '1' };
    const { app, kept, seconds } = await builtApp(
      'next-app',
      {
        'app/layout.tsx': [
          'export default function Layout({ children }: { children: React.ReactNode }) {',
          '  return (<html lang="en"><body>{children}</body></html>);',
          '}',
          '',
        ].join('\n'),
        'app/page.tsx': [
          "import { Tryon } from './tryon';",
          '',
          'export default function Page() {',
          '  return <main><Tryon /></main>;',
          '}',
          '',
        ].join('\n'),
        'app/tryon.tsx': [
          "'use client';",
          "import { useEffect, useState } from 'react';",
          '',
          '// The element registers in the browser only.',
          'export function Tryon() {',
          '  const [ready, setReady] = useState(false);',
          "  useEffect(() => { void import('tryon-button').then(() => setReady(true)); }, []);",
          `  return ready ? <tryon-button product="${PRODUCT}" endpoint="/api/tryon" /> : null;`,
          '}',
          '',
        ].join('\n'),
        'app/tryon-button.d.ts': "import type {} from 'tryon-button/jsx';\n",
        'app/api/tryon/[...path]/route.ts': [
          "import { join } from 'node:path';",
          "import { createNextRouteHandlers, defineCatalog } from 'tryon-proxy/next';",
          "import catalog from '../../../../tryon/catalog.json';",
          '',
          'export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = createNextRouteHandlers(() => ({',
          '  apiKey: process.env.TRYON_API_KEY!,',
          '  baseUrl: process.env.TRYON_BASE_URL!,',
          '  secret: process.env.TRYON_PROXY_SECRET!,',
          '  allowedOrigins: [],',
          '  catalog: defineCatalog(catalog),',
          "  assetsDir: join(process.cwd(), 'tryon'),",
          '}));',
          '',
        ].join('\n'),
        'tsconfig.json': JSON.stringify({
          compilerOptions: {
            target: 'ES2022',
            lib: ['dom', 'dom.iterable', 'esnext'],
            strict: true,
            noEmit: true,
            module: 'esnext',
            moduleResolution: 'bundler',
            resolveJsonModule: true,
            isolatedModules: true,
            jsx: 'react-jsx',
            skipLibCheck: true,
            plugins: [{ name: 'next' }],
          },
          include: ['next-env.d.ts', '**/*.ts', '**/*.tsx'],
        }),
        'next.config.mjs': `export default { cacheComponents: true, partialPrefetching: true, turbopack: { root: ${JSON.stringify(projectRoot)} } };\n`,
      },
      // No TRYON_* in its environment: the route is imported, the proxy not yet made.
      async (dir) => {
        for (const types of ['@types/react', '@types/react-dom', '@types/node', 'typescript']) {
          await mkdir(dirname(join(dir, 'node_modules', types)), { recursive: true });
          await symlink(join(projectRoot, 'node_modules', types), join(dir, 'node_modules', types), 'dir');
        }
        const built = await new Promise<{ code: number | null; output: string }>((resolve) => {
          const child = spawn(process.execPath, [next, 'build'], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
          let output = '';
          child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
          child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
          child.on('close', (code) => resolve({ code, output }));
        });
        assert.equal(built.code, 0, `next build without the environment succeeds:\n${built.output}`);
      },
    );
    t.diagnostic(kept ? 'next build: kept from an earlier run' : `next build: ${seconds.toFixed(1)} s`);
    const started = Date.now();
    let server: ChildProcess | undefined;
    const page = await browser.newPage();
    try {
      const port = await freePort();
      server = spawn(process.execPath, [next, 'start', '-H', '127.0.0.1', '-p', String(port)], {
        cwd: app,
        env: {
          ...env,
          TRYON_API_KEY: API_KEY,
          TRYON_BASE_URL: sandbox.url,
          TRYON_PROXY_SECRET: SECRET,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      await waitForOutput(server, /Ready in|started server/i, 60_000, 'next start');
      const seen = await tryOnIn(page, `http://127.0.0.1:${port}/`);
      t.diagnostic(`next start and the try-on: ${((Date.now() - started) / 1000).toFixed(1)} s`);
      assertWorkedInWorkers(seen, 'next');
    } finally {
      await page.close();
      server?.kill('SIGTERM');
    }
  });
});
