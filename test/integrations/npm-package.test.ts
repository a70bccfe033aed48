// The npm builds as a shop's developer gets them: tryon-button and tryon-proxy staged as npm packs
// them (test/integrations/packages.ts), linked into a separate tiny Vite app (what
// `npm install file:…` makes), bundled by Vite, type-checked by tsc (Bundler and NodeNext
// resolution), and run: the app in Chromium, the proxy's entries and bin in Node.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { chromium } from 'playwright-core';
import { build } from 'vite';
import { listFiles, projectRoot } from '../../scripts/build.js';
import { stagePackage } from './packages.js';
import { CHROMIUM_ARGS } from '../../scripts/chromium.js';
import { programPath } from '../../scripts/prerequisites.js';

let work: string;
let pkg: string;
let proxyPkg: string;
let app: string;
let rootPackage: Record<string, unknown>;
let proxyPackage: Record<string, unknown>;

function run(command: string, args: string[], cwd: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd, timeout: 120_000, maxBuffer: 8 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, output: `${stdout}${stderr}` });
    });
  });
}

const consumerMain = `
import { TryonButton, define } from 'tryon-button';
import type { TryonResultDetail, TryonStatus } from 'tryon-button';
import manifest from 'tryon-button/custom-elements.json' with { type: 'json' };

define(); // a second registration is harmless
const button = document.createElement('tryon-button');
const typed: TryonButton = button;
typed.product = 'saree-banarasi-red';
typed.endpoint = '/tryon';
// @ts-expect-error product is a string: the types are real, not any
typed.product = 42;
typed.product = 'saree-banarasi-red';
const status: TryonStatus = typed.status;
button.addEventListener('tryon-result', (event) => {
  const detail = (event as CustomEvent<TryonResultDetail>).detail;
  console.log(detail.outputs.map((output) => output.url));
});
document.body.append(button);

const tags = (manifest as { modules: { declarations?: { tagName?: string }[] }[] }).modules
  .flatMap((module) => module.declarations ?? []).map((declaration) => declaration.tagName).filter(Boolean);
await button.updateComplete;
document.body.dataset.result = JSON.stringify({
  defined: customElements.get('tryon-button') === TryonButton,
  upgraded: button instanceof TryonButton,
  status,
  tags,
  shadowButton: button.shadowRoot?.querySelector('button')?.textContent?.trim() ?? null,
});
`;

const consumerServer = `
import { createProxy } from 'tryon-proxy';
import type { ProxyOptions } from 'tryon-proxy';
import { verifyShopifyAppProxy } from 'tryon-proxy/shopify-app-proxy';

const options: ProxyOptions = {
  apiKey: 'sk_test_consumer',
  baseUrl: 'http://127.0.0.1:9',
  secret: 'a-long-enough-secret-for-handles-0123456789',
  allowedOrigins: [],
  catalog: { products: {} },
};
// @ts-expect-error allowedOrigins is a list of exact origins, not a string
const wrong: ProxyOptions = { ...options, allowedOrigins: '*' };
export const proxy = createProxy(options);
proxy.use('*', verifyShopifyAppProxy({ secret: 'shpss_x' }));
export { wrong };
`;

before(async () => {
  work = await mkdtemp(join(tmpdir(), 'tryon-npm-'));
  app = join(work, 'shop-app');
  pkg = await stagePackage('tryon-button', join(work, 'stage'));
  proxyPkg = await stagePackage('tryon-proxy', join(work, 'stage'));
  rootPackage = JSON.parse(await readFile(join(pkg, 'package.json'), 'utf8')) as Record<string, unknown>;
  proxyPackage = JSON.parse(await readFile(join(proxyPkg, 'package.json'), 'utf8')) as Record<string, unknown>;
  // Their dependencies are installed (this repository's node_modules).
  await symlink(join(projectRoot, 'node_modules'), join(pkg, 'node_modules'), 'dir');
  await symlink(join(projectRoot, 'node_modules'), join(proxyPkg, 'node_modules'), 'dir');

  await mkdir(join(app, 'node_modules'), { recursive: true });
  await symlink(pkg, join(app, 'node_modules/tryon-button'), 'dir');
  await symlink(proxyPkg, join(app, 'node_modules/tryon-proxy'), 'dir');
  // A shop that mounts the proxy in its own Hono app has hono installed itself.
  await symlink(join(projectRoot, 'node_modules/hono'), join(app, 'node_modules/hono'), 'dir');
  await writeFile(
    join(app, 'package.json'),
    JSON.stringify({
      name: 'shop-app',
      private: true,
      type: 'module',
      dependencies: { 'tryon-button': 'file:../stage/tryon-button', 'tryon-proxy': 'file:../stage/tryon-proxy' },
    }),
  );
  await writeFile(
    join(app, 'index.html'),
    '<!doctype html><html><head><script type="module" src="/main.ts"></script></head><body></body></html>',
  );
  await writeFile(join(app, 'main.ts'), consumerMain);
  await writeFile(join(app, 'server.ts'), consumerServer);
});

after(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('npm package in a separate Vite app', () => {
  test('package.json exports point at files the build made', async () => {
    for (const [dir, manifest] of [
      [pkg, rootPackage],
      [proxyPkg, proxyPackage],
    ] as const) {
      const exports = manifest.exports as Record<string, string | Record<string, string>>;
      const targets = Object.values(exports).flatMap((target) =>
        typeof target === 'string' ? [target] : Object.values(target),
      );
      for (const target of targets) {
        if (target.includes('*') || target === './package.json') continue;
        await readFile(join(dir, target)).catch(() =>
          assert.fail(`${String(manifest.name)}: exports names ${target}, which the build did not make`),
        );
      }
    }
    assert.equal(rootPackage.customElements, 'dist/npm/custom-elements.json');
    for (const field of ['repository', 'homepage', 'bugs', 'license']) {
      assert.ok(rootPackage[field] && proxyPackage[field], `both packages say their ${field}`);
    }
    const manifest = JSON.parse(await readFile(join(pkg, 'dist/npm/custom-elements.json'), 'utf8')) as {
      modules: { path: string; declarations?: { tagName?: string; attributes?: { name: string }[] }[] }[];
    };
    const element = manifest.modules.flatMap((m) => m.declarations ?? []).find((d) => d.tagName === 'tryon-button');
    assert.ok(element, 'the manifest describes <tryon-button>');
    for (const attribute of ['product', 'endpoint', 'views', 'video', 'lang', 'privacy-url']) {
      assert.ok(
        element.attributes?.some((a) => a.name === attribute),
        `attribute ${attribute} in the manifest`,
      );
    }
    for (const module of manifest.modules) {
      await readFile(join(pkg, module.path)).catch(() =>
        assert.fail(`the manifest names ${module.path}, which is not in the package`),
      );
    }
  });

  test('Lit stays external in the npm build', async () => {
    for (const file of (await listFiles(join(pkg, 'dist/npm'))).filter((f) => f.endsWith('.js'))) {
      const text = await readFile(file, 'utf8');
      assert.doesNotMatch(
        text,
        /class \w+ extends ReactiveElement|lit-html@|litElementVersions/,
        `${file} does not bundle Lit`,
      );
    }
    const entry = await readFile(join(pkg, 'dist/npm/tryon-button.component.js'), 'utf8');
    assert.match(entry, /from "lit"/);
  });

  test('tsc type-checks the consumer against the package types (Bundler and NodeNext resolution)', async () => {
    const tsc = join(projectRoot, 'node_modules/typescript/bin/tsc');
    for (const [resolution, module] of [
      ['Bundler', 'ESNext'],
      ['NodeNext', 'NodeNext'],
    ] as const) {
      const config = {
        compilerOptions: {
          target: 'ES2022',
          module,
          moduleResolution: resolution,
          lib: ['ES2023', 'DOM', 'DOM.Iterable'],
          strict: true,
          noEmit: true,
          resolveJsonModule: true,
          types: [],
          // Our .d.ts come from tsc over strictly checked sources; re-checking Lit's and Hono's
          // declarations too would only cost time.
          skipLibCheck: true,
        },
        files: ['main.ts', 'server.ts'],
      };
      const name = `tsconfig.${resolution}.json`;
      await writeFile(join(app, name), JSON.stringify(config));
      const { code, output } = await run(process.execPath, [tsc, '-p', name], app);
      assert.equal(code, 0, `tsc (${resolution}) failed:\n${output}`);
    }
    // Control: a consumer that misuses the API fails, so the check above is not vacuous.
    await writeFile(
      join(app, 'misuse.ts'),
      "import { TryonButton } from 'tryon-button';\nconst b: TryonButton = document.createElement('div');\nexport { b };\n",
    );
    await writeFile(
      join(app, 'tsconfig.misuse.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'ESNext',
          moduleResolution: 'Bundler',
          lib: ['ES2023', 'DOM'],
          strict: true,
          noEmit: true,
          types: [],
        },
        files: ['misuse.ts'],
      }),
    );
    const misuse = await run(process.execPath, [tsc, '-p', 'tsconfig.misuse.json'], app);
    assert.notEqual(misuse.code, 0);
    assert.match(misuse.output, /HTMLDivElement/);
  });

  test('Vite bundles the app, resolving the exports, and it runs in Chromium', async () => {
    const outDir = join(work, 'shop-app-dist');
    await build({
      configFile: false,
      root: app,
      logLevel: 'silent',
      publicDir: false,
      build: { outDir, emptyOutDir: true, target: 'es2022', modulePreload: false },
    });
    const built = await listFiles(outDir);
    const scripts = built.filter((f) => f.endsWith('.js'));
    assert.ok(
      scripts.length >= 2,
      `the panel stays a lazy chunk in the app's build too: ${scripts.map((s) => s.slice(outDir.length)).join(', ')}`,
    );
    const all = (await Promise.all(scripts.map((f) => readFile(f, 'utf8')))).join('\n');
    assert.match(all, /tryon-panel/, 'the panel module is part of the app');

    const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };
    const server = new Hono();
    server.get('*', async (c) => {
      const path = c.req.path === '/' ? '/index.html' : c.req.path;
      const file = join(outDir, path);
      if (!file.startsWith(outDir) || !built.includes(file)) return c.notFound();
      return c.body(await readFile(file), 200, { 'Content-Type': types[extname(file)] ?? 'application/octet-stream' });
    });
    const listening = await new Promise<ReturnType<typeof serve>>((resolve) => {
      const s = serve({ fetch: server.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
    });
    const address = listening.address();
    assert.ok(address && typeof address === 'object');
    const executablePath = programPath('chromium');
    const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS, headless: true });
    try {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(`http://127.0.0.1:${address.port}/`);
      const handle = await page.waitForFunction(() => document.body.dataset.result, undefined, { timeout: 20_000 });
      const result = JSON.parse(String(await handle.jsonValue())) as Record<string, unknown>;
      const { tags, ...element } = result as { tags: string[] };
      assert.deepEqual(element, { defined: true, upgraded: true, status: 'idle', shadowButton: 'Try it on' });
      assert.ok(
        tags.includes('tryon-button'),
        `the manifest imported through the exports map names the element: ${tags.join(', ')}`,
      );
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
      await new Promise<void>((resolve) => listening.close(() => resolve()));
    }
  });

  test('Node imports the proxy entries through the exports map and the app answers', async () => {
    const script = `
      const { createProxy } = await import('tryon-proxy');
      const { verifyShopifyAppProxy } = await import('tryon-proxy/shopify-app-proxy');
      const worker = await import('tryon-proxy/worker');
      const proxy = createProxy({ apiKey: 'sk_test_x', baseUrl: 'http://127.0.0.1:9', secret: 'a-long-enough-secret-for-handles-0123456789', allowedOrigins: [], catalog: { products: {} } });
      const health = await proxy.request('/health');
      const guarded = createProxy({ apiKey: 'sk_test_x', baseUrl: 'http://127.0.0.1:9', secret: 'a-long-enough-secret-for-handles-0123456789', allowedOrigins: [], catalog: { products: {} } });
      const shopify = new (await import('hono')).Hono().use('*', verifyShopifyAppProxy({ secret: 's' })).route('/', guarded);
      const unsigned = await shopify.request('/health');
      console.log(JSON.stringify({ health: health.status, body: await health.json(), unsigned: unsigned.status, worker: typeof worker.default?.fetch }));
    `;
    const { code, output } = await run(process.execPath, ['--input-type=module', '-e', script], app);
    assert.equal(code, 0, output);
    const result = JSON.parse(output.trim().split('\n').pop()!) as {
      health: number;
      body: { ok: boolean };
      unsigned: number;
      worker: string;
    };
    assert.equal(result.health, 200);
    assert.equal(result.body.ok, true);
    assert.equal(result.unsigned, 401);
    assert.equal(result.worker, 'function');
  });

  test('the tryon-proxy bin, reached through a symlink as npm installs it, serves the proxy', async () => {
    const bin = join(work, 'bin');
    await mkdir(bin, { recursive: true });
    const binPath = (proxyPackage.bin as Record<string, string>)['tryon-proxy']!;
    await symlink(join(proxyPkg, binPath), join(bin, 'tryon-proxy'));
    const catalog = join(work, 'catalog.json');
    await writeFile(catalog, JSON.stringify({ products: {} }));
    const server = spawn(process.execPath, [join(bin, 'tryon-proxy')], {
      cwd: work,
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'development',
        TRYON_API_KEY: 'sk_test_x',
        TRYON_BASE_URL: 'http://127.0.0.1:9',
        TRYON_CATALOG: catalog,
        TRYON_PORT: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let output = '';
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no "listening on" line in 20 s:\n${output}`)), 20_000);
        const read = (chunk: Buffer) => {
          output += chunk.toString();
          const found = /listening on (http:\/\/\S+)/.exec(output);
          if (found) {
            clearTimeout(timer);
            resolve(found[1]!);
          }
        };
        server.stdout.on('data', read);
        server.stderr.on('data', read);
        server.once('exit', (code) => {
          clearTimeout(timer);
          reject(new Error(`exited ${code}:\n${output}`));
        });
      });
      const health = await fetch(`${url}/health`);
      assert.equal(health.status, 200);
      assert.deepEqual(await health.json(), { ok: true, upstream: 'test' });
      assert.ok(!output.includes('sk_test_x'), 'the key is not printed');
    } finally {
      server.kill('SIGTERM');
    }
  });

  test('npm pack takes the builds, the types, the manifest, the editor data, README, LICENSE and the changelog, and nothing else', async () => {
    const expected = {
      'tryon-button': [
        'dist/npm/tryon-button.js',
        'dist/npm/tryon-button.d.ts',
        'dist/npm/custom-elements.json',
        'dist/cdn/tryon-button.js',
        // What docs/integrations/script-tag.md tells a shop to rebase and paste: it ships with the package.
        'dist/cdn/importmap.json',
        'dist/jsdelivr.js',
        'web-types.json',
        'vscode.html-custom-data.json',
      ],
      'tryon-proxy': [
        'dist/index.js',
        'dist/index.d.ts',
        'dist/server.js',
        'dist/worker.js',
        'dist/shopify-app-proxy.js',
      ],
    };
    for (const [name, dir] of [
      ['tryon-button', pkg],
      ['tryon-proxy', proxyPkg],
    ] as const) {
      const { code, output } = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], dir);
      assert.equal(code, 0, output);
      const listing = JSON.parse(output.slice(output.indexOf('['), output.lastIndexOf(']') + 1)) as {
        files: { path: string }[];
      }[];
      const packed = listing[0]!.files.map((f) => f.path);
      for (const needed of ['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md', ...expected[name]])
        assert.ok(packed.includes(needed), `${name}: ${needed} is packed`);
      assert.equal(
        await readFile(join(dir, 'CHANGELOG.md'), 'utf8'),
        await readFile(join(projectRoot, 'CHANGELOG.md'), 'utf8'),
        `${name}: the changelog packed is the repository's`,
      );
      const stray = packed.filter(
        (path) =>
          !path.startsWith('dist/') &&
          !['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md', ...expected[name]].includes(path),
      );
      assert.deepEqual(stray, [], `${name}: no sources, tests or local files`);
      assert.ok(!packed.some((path) => /\.env|secret|\.test\./.test(path)));
    }
    // The widget's package holds no server code at all.
    assert.equal(rootPackage.bin, undefined);
    assert.deepEqual(Object.keys(rootPackage.dependencies as Record<string, string>), ['lit']);
    assert.ok(
      !Object.keys(rootPackage.exports as Record<string, unknown>).some((entry) => entry.includes('proxy')),
      'no proxy entry in tryon-button',
    );
  });

  test('sideEffects names packed files, and every module that registers an element on import is among them', async () => {
    const { code, output } = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], pkg);
    assert.equal(code, 0, output);
    const listing = JSON.parse(output.slice(output.indexOf('['), output.lastIndexOf(']') + 1)) as {
      files: { path: string }[];
    }[];
    const packed = listing[0]!.files.map((f) => f.path);
    const patterns = rootPackage.sideEffects as string[];
    assert.ok(Array.isArray(patterns) && patterns.length > 0, 'sideEffects is a list of files');
    for (const pattern of patterns)
      assert.ok(
        packed.some((path) => globMatches(pattern, path)),
        `sideEffects "${pattern}" matches no file of the package`,
      );
    const covered = (path: string) => patterns.some((pattern) => globMatches(pattern, path));
    const modules = new Map<string, string>();
    for (const path of packed.filter((p) => /\.js$/.test(p)))
      modules.set(path, await readFile(join(pkg, path), 'utf8'));
    const registering = [...modules].filter(([, text]) => /customElements\.define\(/.test(text)).map(([path]) => path);
    assert.ok(registering.includes('dist/npm/panel/tryon-panel.js'), registering.join(', '));
    for (const path of registering) {
      if (covered(path)) continue;
      // A module that registers only when its exported define() is called (tryon-button.define.js)
      // has no side effect of its own; a listed module must then import it and call it.
      const name = path.split('/').pop()!;
      const caller = [...modules].find(
        ([other, text]) => covered(other) && text.includes(`from "./${name}"`) && /^define\(\);?$/m.test(text),
      );
      assert.ok(
        caller,
        `${path} calls customElements.define but is not in sideEffects, nor called by a module that is`,
      );
      assert.match(modules.get(path)!, /function define\(/, `${path} registers only from its define()`);
    }
  });

  test('the maps of the npm build name their sources without carrying them', async () => {
    const maps = (await listFiles(join(pkg, 'dist/npm'))).filter((path) => path.endsWith('.map'));
    assert.ok(maps.length > 10, `${maps.length} maps`);
    for (const path of maps) {
      const map = JSON.parse(await readFile(path, 'utf8')) as { sourcesContent?: unknown };
      assert.equal(map.sourcesContent, undefined, `${path} carries its sources`);
    }
    // Without their sources the maps still lead from the code to the TypeScript, line by line.
    for (const module of ['tryon-button.js', 'panel/tryon-panel.js', 'tryon-button.component.js']) {
      const map = JSON.parse(await readFile(join(pkg, 'dist/npm', `${module}.map`), 'utf8')) as {
        sources: string[];
        mappings: string;
      };
      assert.ok(map.sources.some((source) => source.endsWith('.ts')) && map.mappings.length > 0, `${module}.map maps`);
    }
  });

  test('a missing export is refused: only what the exports map names is public', async () => {
    for (const path of ['tryon-proxy/dist/security/handles.js', 'tryon-button/dist/npm/photo/photo.js']) {
      const { code, output } = await run(
        process.execPath,
        ['--input-type=module', '-e', `await import('${path}')`],
        app,
      );
      assert.notEqual(code, 0, path);
      assert.match(output, /ERR_PACKAGE_PATH_NOT_EXPORTED/);
    }
  });
});

/** Whether a package.json `sideEffects` pattern (`./dist/cdn/**`, `./dist/npm/x.js`) matches a packed path. */
function globMatches(pattern: string, path: string): boolean {
  const source = pattern
    .replace(/^\.\//, '')
    .split('**')
    .map((part) =>
      part
        .split('*')
        .map((text) => text.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('[^/]*'),
    )
    .join('.*');
  return new RegExp(`^${source}$`).test(path);
}
