// The packages as shops and developers install them: each workspace package packed with
// `npm pack` from a fresh build (test/integrations/packages.ts) and installed from its tarball
// into an empty project.
// - tryon-button alone: what a shop's front end brings in. Offline: its runtime dependencies (and
//   theirs) are packed from this repository's node_modules and installed as local tarballs, so npm
//   places exactly what the package asks for. Then the packed files are served the way jsDelivr
//   and unpkg serve a package, and Chromium loads the element from the bare package URL.
// - tryon-proxy + tryon-sandbox: their bins run a whole try-on with no key. npm resolves their
//   dependencies from its cache (--prefer-offline), the registry only for what the cache lacks.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { extname, dirname, join, relative } from 'node:path';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { chromium } from 'playwright-core';
import { build as esbuild } from 'esbuild';
import { fileExists, listFiles, projectRoot } from '../../scripts/build.js';
import { CHROMIUM_ARGS } from '../../scripts/chromium.js';
import { programPath } from '../../scripts/prerequisites.js';
import { serveWorker, type WorkerBundle } from '../../scripts/worker.js';
import { waitForOutput } from '../process-output.js';
import { CATALOG, writeAssets, photoHandle, startTryon, waitForStatus, absolute } from '../proxy/stack.js';
import { packPackages, readManifest, run, type PackageManifest } from './packages.js';
import {
  QUOTING_FILES,
  quotedBytes,
  quotedSizes,
  runtimeClosure,
  sizeOf,
  widgetInstalledBytes,
} from '../../scripts/size-figures.js';

/** Everything `npm install tryon-button` puts in an empty project's node_modules (apparent size). */
const BUTTON_INSTALLED_BUDGET = 8 * 1024 * 1024;
/** Server, build and test software that must never be installed for a shop's front end. */
const NOT_FOR_FRONT_ENDS = [
  'hono',
  'zod',
  '@hono',
  'sharp',
  '@img',
  '@ffmpeg-installer',
  'standardwebhooks',
  'esbuild',
  '@esbuild',
  'tsx',
  'typescript',
  'vite',
  'playwright-core',
  'tryon-proxy',
  'tryon-sandbox',
  'libheif-js',
  'heic-decode',
];
const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall', 'prepare'];
/** A real photo of a person (Debian's opencv-doc). */
const REAL_PHOTO = '/usr/share/doc/opencv-doc/examples/data/messi5.jpg';

let work: string;
let tarballs: Record<string, string>;
let stages: Record<string, string>;

/** Every installed package's folder below node_modules, nested ones included. */
async function installedPackages(nodeModules: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(nodeModules, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
    const dir = join(nodeModules, entry.name);
    const dirs = entry.name.startsWith('@')
      ? (await readdir(dir, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => join(dir, e.name))
      : [dir];
    for (const packageDir of dirs) {
      found.push(packageDir);
      if (await fileExists(join(packageDir, 'node_modules')))
        found.push(...(await installedPackages(join(packageDir, 'node_modules'))));
    }
  }
  return found;
}

const namesOf = async (nodeModules: string) =>
  Promise.all((await installedPackages(nodeModules)).map(async (dir) => (await readManifest(dir)).name));

/** Starts an installed package's bin in `app`; resolves once its output matches `ready`. */
async function startBin(
  app: string,
  bin: string,
  env: Record<string, string>,
  ready: RegExp,
): Promise<{ child: ChildProcess; output: () => string; match: RegExpExecArray }> {
  const child = spawn(join(app, 'node_modules/.bin', bin), [], {
    cwd: app,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Kept beyond "ready" too: a test reads everything the program printed.
  let output = '';
  const keep = (chunk: Buffer) => (output += chunk.toString());
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const match = await waitForOutput(child, ready, 30_000, bin);
  return { child, output: () => output, match };
}

const SANDBOX_READY = /stand-in at (http:\/\/\S+)\/v1[\s\S]*test key[^:]*: (sk_test_\w+)/;

/** The installed tryon-sandbox's bin, instant jobs: its URL and the test key it prints. */
async function startSandboxBin(app: string): Promise<{ url: string; key: string; stop(): void }> {
  const { child, match } = await startBin(
    app,
    'tryon-sandbox',
    { SANDBOX_PORT: '0', SANDBOX_SPEED: '0' },
    SANDBOX_READY,
  );
  return { url: match[1]!, key: match[2]!, stop: () => child.kill('SIGTERM') };
}

before(async () => {
  ({ work, tarballs, stages } = await packPackages(['tryon-button', 'tryon-proxy', 'tryon-sandbox']));
});

after(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('npm install tryon-button, alone, into an empty app', () => {
  let app: string;
  let npmOutput: string;
  let manifest: PackageManifest;

  before(async () => {
    app = join(work, 'shop-front-end');
    manifest = await readManifest(join(projectRoot, 'widget'));
    const closure = await runtimeClosure(join(projectRoot, 'widget'));
    const dependencies: Record<string, string> = { 'tryon-button': `file:${tarballs['tryon-button']}` };
    const depTarballs = join(work, 'button-deps');
    await mkdir(depTarballs, { recursive: true });
    const packed = await run(
      'npm',
      ['pack', '--json', '--ignore-scripts', '--pack-destination', depTarballs, ...closure.values()],
      work,
    );
    assert.equal(packed.code, 0, packed.output);
    for (const { name, filename } of JSON.parse(packed.stdout) as { name: string; filename: string }[])
      dependencies[name] = `file:${join(depTarballs, filename)}`;
    await mkdir(app, { recursive: true });
    await writeFile(
      join(app, 'package.json'),
      JSON.stringify({ name: 'shop-front-end', private: true, type: 'module', dependencies }, null, 2),
    );
    // Install scripts may run, as in a shop's ordinary install: the test asserts there are none.
    const installed = await run(
      'npm',
      ['install', '--offline', '--no-audit', '--no-fund', '--foreground-scripts'],
      app,
    );
    npmOutput = installed.output;
    assert.equal(installed.code, 0, `npm install failed:\n${installed.output}`);
  });

  test('runs no install script', async () => {
    for (const dir of await installedPackages(join(app, 'node_modules'))) {
      const installed = await readManifest(dir);
      for (const script of INSTALL_SCRIPTS.filter((s) => installed.name !== 'tryon-button' || s !== 'prepare')) {
        assert.equal(installed.scripts?.[script], undefined, `${installed.name} has a ${script} script`);
      }
      assert.ok(!(await fileExists(join(dir, 'binding.gyp'))), `${installed.name} builds native code`);
    }
    assert.doesNotMatch(npmOutput, /install-scripts|postinstall|node-gyp/i);
  });

  test('brings no server, sandbox, build or test software: lit is all it needs', async () => {
    const names = await namesOf(join(app, 'node_modules'));
    for (const name of names) {
      assert.ok(
        !NOT_FOR_FRONT_ENDS.some((banned) => name === banned || name.startsWith(`${banned}/`)),
        `${name} is installed`,
      );
    }
    assert.ok(names.includes('lit') && names.includes('tryon-button'), names.join(', '));
    assert.deepEqual(Object.keys(manifest.dependencies ?? {}), ['lit']);
  });

  test(`takes at most ${BUTTON_INSTALLED_BUDGET / 1024 / 1024} MB installed, the HEIC decoder once`, async (t) => {
    const bytes = await sizeOf(join(app, 'node_modules'));
    const own = await sizeOf(join(app, 'node_modules/tryon-button'));
    t.diagnostic(
      `installed: ${(bytes / 1024 / 1024).toFixed(2)} MB in node_modules, of which tryon-button ${(own / 1024 / 1024).toFixed(2)} MB`,
    );
    assert.ok(bytes <= BUTTON_INSTALLED_BUDGET, `${(bytes / 1024 / 1024).toFixed(2)} MB installed`);
    // libheif's wasm, base64 inside its chunk, is in exactly one file of the package.
    const holders: string[] = [];
    for (const path of await listFiles(join(app, 'node_modules/tryon-button'))) {
      if (/\.(js|mjs)$/.test(path) && (await readFile(path, 'utf8')).includes('AGFzbQEAAAAB'))
        holders.push(relative(app, path));
    }
    assert.equal(holders.length, 1, `the decoder's wasm is in ${holders.join(', ')}`);
    assert.match(holders[0]!, /tryon-button\/dist\/cdn\/heic-[\w-]+\.js$/);
    const npmHeic = await readFile(join(app, 'node_modules/tryon-button/dist/npm/photo/heic.js'), 'utf8');
    assert.match(
      npmHeic,
      /export \{ decodeHeic \} from '\.\.\/\.\.\/cdn\/heic-[\w-]+\.js'/,
      'the npm build imports the CDN chunk',
    );
  });

  test('installs as many bytes as the build measures and the docs quote (scripts/size-figures.ts, widget-installed)', async (t) => {
    const installed = await sizeOf(join(app, 'node_modules'));
    // What npm adds of its own beside the packages.
    const npmsOwn = (await stat(join(app, 'node_modules/.package-lock.json'))).size;
    const measured = await widgetInstalledBytes(stages['tryon-button']!, join(projectRoot, 'widget'));
    t.diagnostic(`installed ${installed} B (npm's lockfile ${npmsOwn} B), the build's measure ${measured} B`);
    assert.equal(installed - npmsOwn, measured, "the build's measure is the install, file for file");
    const quoted: string[] = [];
    for (const file of QUOTING_FILES) {
      const text = await readFile(join(projectRoot, file), 'utf8').catch(() => '');
      for (const { name, quoted: figure } of quotedSizes(text))
        if (name === 'widget-installed') quoted.push(`${file}|${figure}`);
    }
    assert.ok(
      quoted.some((q) => q.startsWith('README.md|')) && quoted.some((q) => q.startsWith('docs/integrations/npm.md|')),
      quoted.join(', '),
    );
    for (const entry of quoted) {
      const [file, figure] = entry.split('|') as [string, string];
      const { bytes, rounding } = quotedBytes(figure);
      assert.ok(
        Math.abs(bytes - installed) <= rounding + npmsOwn,
        `${file} quotes ${figure} installed; the install is ${(installed / 1024 / 1024).toFixed(2)} MB (npm run build writes it)`,
      );
    }
  });

  test('every module imports only lit, a peer the package names, or its own files', async () => {
    const dist = join(app, 'node_modules/tryon-button/dist');
    const allowed = new Set([
      ...Object.keys(manifest.dependencies ?? {}),
      ...Object.keys(manifest.peerDependencies ?? {}),
    ]);
    for (const path of (await listFiles(dist)).filter((p) => p.endsWith('.js'))) {
      const text = await readFile(path, 'utf8');
      for (const [, specifier] of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["']([^"']+)["']/g)) {
        if (specifier!.startsWith('.')) {
          const target = join(dirname(path), specifier!.split('?')[0]!);
          // The jsDelivr entry's path is relative to jsDelivr's /npm/ folder, not to the file.
          if (!path.endsWith('jsdelivr.js'))
            assert.ok(
              await fileExists(target),
              `${relative(dist, path)} imports ${specifier}, which the package lacks`,
            );
          continue;
        }
        const name = specifier!.startsWith('@')
          ? specifier!.split('/').slice(0, 2).join('/')
          : specifier!.split('/')[0]!;
        assert.ok(
          allowed.has(name),
          `${relative(dist, path)} imports ${specifier}, which is not a dependency of the package`,
        );
      }
    }
  });

  test('Node resolves the element, its types and the editor data through the exports map', async () => {
    const script = `console.log(JSON.stringify({
      element: import.meta.resolve('tryon-button'), webTypes: import.meta.resolve('tryon-button/web-types.json'),
      vscode: import.meta.resolve('tryon-button/vscode.html-custom-data.json') }));`;
    const { code, output, stdout } = await run(process.execPath, ['--input-type=module', '-e', script], app);
    assert.equal(code, 0, output);
    const resolved = JSON.parse(stdout.trim()) as Record<string, string>;
    assert.match(resolved.element!, /node_modules\/tryon-button\/dist\/npm\/tryon-button\.js$/);
    for (const file of [resolved.webTypes!, resolved.vscode!])
      assert.ok(await fileExists(new URL(file).pathname), file);
    const installed = await readManifest(join(app, 'node_modules/tryon-button'));
    assert.ok(
      await fileExists(join(app, 'node_modules/tryon-button', String(installed['web-types']))),
      'the web-types field names a file',
    );
    for (const file of ['README.md', 'LICENSE'])
      assert.ok(await fileExists(join(app, 'node_modules/tryon-button', file)), `${file} is packed`);
  });

  test('from the bare CDN URL (jsDelivr: the jsdelivr file served in place; unpkg: a redirect to the unpkg file) the element renders and opens', async () => {
    const pkg = join(app, 'node_modules/tryon-button');
    const installed = await readManifest(pkg);
    const files = new Set(await listFiles(pkg));
    const version = installed.version;
    const types: Record<string, string> = {
      '.html': 'text/html',
      '.js': 'text/javascript',
      '.json': 'application/json',
    };
    const fileResponse = async (file: string) =>
      files.has(file)
        ? new Response(await readFile(file), {
            headers: {
              'content-type': types[extname(file)] ?? 'application/octet-stream',
              'access-control-allow-origin': '*',
            },
          })
        : new Response('not found', { status: 404 });
    // The CDN: /npm/<name>[@<range>][/<path>] as jsDelivr answers it, /unpkg/<name>[@<range>][/<path>] as unpkg does.
    const cdn = new Hono();
    cdn.get('*', async (c) => {
      const found = /^\/(npm|unpkg)\/tryon-button(?:@([^/]+))?(\/.*)?$/.exec(c.req.path);
      if (!found) return c.text('not found', 404);
      const [, host, range, path] = found;
      if (range && range !== version && range !== 'latest' && range !== version.split('.')[0])
        return c.text('no such version', 404);
      if (path) return fileResponse(join(pkg, path));
      if (host === 'npm') return fileResponse(join(pkg, String(installed['jsdelivr'])));
      c.header('access-control-allow-origin', '*');
      return c.redirect(`/unpkg/tryon-button@${version}/${String(installed['unpkg']).replace(/^\.\//, '')}`, 302);
    });
    // The shop: a page with the script tag the docs give (src from the query), and a stub of its proxy.
    const shop = new Hono();
    shop.get('/', (c) =>
      c.html(
        `<!doctype html><html lang="en"><body><script type="module" src="${c.req.query('src') ?? ''}"></script>` +
          '<tryon-button product="saree-banarasi-red" endpoint="/tryon"></tryon-button></body></html>',
      ),
    );
    shop.get('/tryon/products/:id', (c) =>
      c.json({ product: c.req.param('id'), views: ['front'], video: false, tier: 'standard' }),
    );
    const listen = (app: Hono) =>
      new Promise<ReturnType<typeof serve>>((resolve) => {
        const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(server));
      });
    const [cdnServer, shopServer] = await Promise.all([listen(cdn), listen(shop)]);
    const port = (server: ReturnType<typeof serve>) => (server.address() as { port: number }).port;
    const cdnOrigin = `http://127.0.0.1:${port(cdnServer)}`;
    const browser = await chromium.launch({
      executablePath: programPath('chromium'),
      args: CHROMIUM_ARGS,
      headless: true,
    });
    try {
      for (const url of [
        `${cdnOrigin}/npm/tryon-button@${version}`,
        `${cdnOrigin}/npm/tryon-button`,
        `${cdnOrigin}/unpkg/tryon-button@${version}`,
      ]) {
        const page = await browser.newPage();
        const errors: string[] = [];
        const requested: string[] = [];
        page.on('pageerror', (error) => errors.push(error.message));
        page.on('requestfinished', async (request) =>
          requested.push(`${(await request.response())?.status()} ${request.url()}`),
        );
        page.on('requestfailed', (request) => requested.push(`failed ${request.url()}`));
        page.on('console', (message) => errors.push(`console ${message.type()}: ${message.text()}`));
        const seen = () => `${url}: requests ${requested.join(', ')}; page errors ${errors.join('; ')}`;
        await page.goto(`http://127.0.0.1:${port(shopServer)}/?src=${encodeURIComponent(url)}`);
        const label = await page
          .waitForFunction(
            () =>
              document
                .querySelector('tryon-button')
                ?.shadowRoot?.querySelector('button[part="button"]')
                ?.textContent?.trim(),
            undefined,
            { timeout: 20_000 },
          )
          .catch((error: Error) => assert.fail(`${error.message}: ${seen()}`));
        assert.equal(await label.jsonValue(), 'Try it on', `${url}: the element rendered`);
        await page.click('tryon-button >> button[part="button"]');
        await page
          .waitForFunction(
            () =>
              document
                .querySelector('tryon-button')
                ?.shadowRoot?.querySelector('tryon-panel')
                ?.shadowRoot?.querySelector('dialog')?.open === true,
            undefined,
            { timeout: 20_000 },
          )
          .catch((error: Error) => assert.fail(`${error.message}: ${seen()}`));
        assert.deepEqual(
          errors.filter((e) => !e.startsWith('console')),
          [],
          seen(),
        );
        assert.ok(
          requested.some((r) => /^200 .*\/dist\/cdn\/tryon-panel-[\w-]+\.js$/.test(r)) &&
            !requested.some((r) => !/^(200|302) /.test(r)),
          `the chunks came from the package's CDN folder: ${seen()}`,
        );
        await page.close();
      }
    } finally {
      await browser.close();
      await Promise.all(
        [cdnServer, shopServer].map((server) => new Promise<void>((resolve) => server.close(() => resolve()))),
      );
    }
  });
});

test("each tarball carries the repository's CHANGELOG.md", async () => {
  const changelog = await readFile(join(projectRoot, 'CHANGELOG.md'), 'utf8');
  for (const [name, tarball] of Object.entries(tarballs)) {
    const listed = await run('tar', ['-xzOf', tarball, 'package/CHANGELOG.md'], work);
    assert.equal(listed.code, 0, `${name}: no CHANGELOG.md in the tarball:\n${listed.output}`);
    assert.equal(listed.stdout, changelog, `${name}: the changelog is the repository's`);
  }
  assert.deepEqual(Object.keys(tarballs).sort(), ['tryon-button', 'tryon-proxy', 'tryon-sandbox']);
});

describe('tryon-proxy + tryon-sandbox from their tarballs, into another empty app', () => {
  let app: string;

  before(async () => {
    app = join(work, 'developer-app');
    await mkdir(app, { recursive: true });
    await writeFile(
      join(app, 'package.json'),
      JSON.stringify(
        {
          name: 'developer-app',
          private: true,
          type: 'module',
          dependencies: {
            'tryon-proxy': `file:${tarballs['tryon-proxy']}`,
            'tryon-sandbox': `file:${tarballs['tryon-sandbox']}`,
          },
        },
        null,
        2,
      ),
    );
    const installed = await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund'], app);
    assert.equal(installed.code, 0, `npm install failed:\n${installed.output}`);
  });

  test('neither package needs the other, nor the widget', async () => {
    const names = await namesOf(join(app, 'node_modules'));
    assert.ok(!names.includes('tryon-button'), 'the widget is not installed');
    const proxy = await readManifest(join(app, 'node_modules/tryon-proxy'));
    const sandbox = await readManifest(join(app, 'node_modules/tryon-sandbox'));
    // The result check's two decoders are pure JavaScript, so the proxy still runs on Workers.
    assert.deepEqual(Object.keys(proxy.dependencies ?? {}).sort(), [
      '@hono/node-server',
      'fast-png',
      'hono',
      'jpeg-js',
      'zod',
    ]);
    assert.ok(
      !Object.keys(sandbox.dependencies ?? {}).some((name) => name.startsWith('tryon-')),
      'the sandbox bundles what it shares with the proxy',
    );
    for (const [name, pkg] of [
      ['tryon-proxy', proxy],
      ['tryon-sandbox', sandbox],
    ] as const) {
      for (const file of ['README.md', 'LICENSE'])
        assert.ok(await fileExists(join(app, 'node_modules', name, file)), `${name}: ${file}`);
      for (const bin of Object.keys(pkg.bin ?? {}))
        assert.ok(await fileExists(join(app, 'node_modules/.bin', bin)), `${bin} is linked`);
    }
  });

  test('the bins run a whole try-on with no key: npx tryon-sandbox, npx tryon-proxy, a real photo, the result', async () => {
    await writeAssets(app);
    await writeFile(join(app, 'catalog.json'), JSON.stringify(CATALOG));
    const children: ChildProcess[] = [];
    const start = async (bin: string, env: Record<string, string>, ready: RegExp) => {
      const started = await startBin(app, bin, env, ready);
      children.push(started.child);
      return started;
    };
    try {
      const sandbox = await start('tryon-sandbox', { SANDBOX_PORT: '0', SANDBOX_SPEED: '0' }, SANDBOX_READY);
      const [, sandboxUrl, key] = sandbox.match;
      const proxy = await start(
        'tryon-proxy',
        {
          NODE_ENV: 'development',
          TRYON_PORT: '0',
          TRYON_BASE_URL: sandboxUrl!,
          TRYON_API_KEY: key!,
          TRYON_CATALOG: join(app, 'catalog.json'),
        },
        /listening on (http:\/\/\S+)/,
      );
      const stack = { url: proxy.match[1]! };
      const photo = await photoHandle(stack, new Uint8Array(await readFile(REAL_PHOTO)));
      const started = await startTryon(stack, { product: 'dress-aline-indigo', photo });
      assert.equal(started.status, 202, await started.clone().text());
      const done = await waitForStatus(
        stack,
        ((await started.json()) as { tryon: string }).tryon,
        (s) => s.status === 'succeeded' || s.status === 'failed',
        60_000,
      );
      assert.equal(done.status, 'succeeded', JSON.stringify(done));
      const result = await fetch(absolute(stack, done.outputs[0]!.url));
      assert.equal(result.status, 200);
      assert.match(result.headers.get('content-type') ?? '', /^image\//);
      assert.ok((await result.arrayBuffer()).byteLength > 1000, 'the rendered image came back');
      assert.ok(!proxy.output().includes(key!), 'the proxy never prints the key');
    } finally {
      for (const child of children) child.kill('SIGTERM');
    }
  });

  test('the Worker builds from the tryon-proxy package alone: workerFor({ catalog }) with the catalog bundled, run in workerd', async () => {
    await writeFile(join(app, 'catalog.json'), JSON.stringify(CATALOG));
    await writeFile(
      join(app, 'worker.js'),
      [
        "import { workerFor } from 'tryon-proxy/worker';",
        "import catalog from './catalog.json' with { type: 'json' };",
        "export { TryonObject, ShopObject } from 'tryon-proxy/worker';",
        'export default workerFor({ catalog });',
        '',
      ].join('\n'),
    );
    const outfile = join(app, 'dist/worker.js');
    const result = await esbuild({
      absWorkingDir: app,
      entryPoints: ['worker.js'],
      outfile,
      bundle: true,
      format: 'esm',
      platform: 'browser',
      conditions: ['workerd', 'worker', 'browser'],
      target: 'es2022',
      minify: true,
      logLevel: 'silent',
      metafile: true,
    });
    const inputs = Object.keys(result.metafile.inputs);
    assert.ok(
      inputs.some((input) => input.startsWith('node_modules/tryon-proxy/dist/')),
      'bundled from the installed package',
    );
    assert.ok(
      !inputs.some((input) => /node_modules\/(tryon-sandbox|sharp|@hono\/node-server)\//.test(input)),
      `nothing Node-only: ${inputs.filter((i) => !i.startsWith('node_modules/tryon-proxy')).join(', ')}`,
    );
    const bundle = await readFile(outfile, 'utf8');
    assert.doesNotMatch(bundle, /from\s*["']node:/, 'no node: import');
    assert.match(bundle, /saree-banarasi-red/, 'the catalog is inside the bundle');
    // It runs in real workerd. Without bindings it is misconfigured (503, never a stack); with them it
    // answers for the bundled catalog, upstream being the installed sandbox's.
    const bundled: WorkerBundle = { path: outfile, bytes: 0, gzipBytes: 0, images: [], missingImages: [] };
    const bare = await serveWorker(bundled, {}, 0, undefined, { durable: false });
    const upstream = await startSandboxBin(app);
    const served = await serveWorker(bundled, {
      TRYON_API_KEY: upstream.key,
      TRYON_BASE_URL: upstream.url,
      TRYON_PROXY_SECRET: 'a-worker-secret-of-at-least-32-characters',
      TRYON_ALLOWED_ORIGINS: 'https://shop.example',
    });
    try {
      const misconfigured = await fetch(`${bare.url}/health`);
      assert.equal(misconfigured.status, 503);
      assert.equal(((await misconfigured.json()) as { error: { code: string } }).error.code, 'proxy_misconfigured');
      const health = await fetch(`${served.url}/health`);
      assert.equal(health.status, 200, await health.clone().text());
      const product = await fetch(`${served.url}/products/saree-banarasi-red`, {
        headers: { origin: 'https://shop.example' },
      });
      assert.equal(product.status, 200, await product.clone().text());
      assert.equal(((await product.json()) as { product: string }).product, 'saree-banarasi-red');
    } finally {
      await Promise.all([bare.close(), served.close()]);
      upstream.stop();
    }
  });
});
