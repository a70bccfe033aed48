// React 19, Vue 3 and Svelte 5 apps that consume the packed package as a shop's developer would:
// the package is built, packed with `npm pack` and unpacked into each app's node_modules (the
// frameworks themselves are linked from this repository's node_modules: no network). Each app is
// type-checked by its framework's checker (tsc, vue-tsc, svelte-check), which must also refuse a
// misspelt attribute and a wrongly typed event handler; then it is bundled with esbuild (Vue's and
// Svelte's own compilers for their files) and run in Chromium against a stub of the token proxy,
// where the framework sets the element's attributes and properties and receives its events.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, extname, join } from 'node:path';
import { build as esbuild } from 'esbuild';
import type { Plugin } from 'esbuild';
import { chromium } from 'playwright-core';
import type { Browser, Page } from 'playwright-core';
import { gzipSync } from 'node:zlib';
import { build as viteBuild } from 'vite';
import { listFiles, projectRoot } from '../../../scripts/build.js';
import { graphOf, staticClosure } from '../../../scripts/module-graph.js';
import { packStaged, stagePackage } from '../packages.js';
import { CHROMIUM_ARGS, findChromium } from '../../../scripts/chromium.js';
import { LABEL, PRODUCT, react, svelte, vue } from './apps.js';
import type { App } from './apps.js';

let work: string;
let tarball: string;
let browser: Browser | undefined;

function run(command: string, args: string[], cwd: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, output: `${stdout}${stderr}` });
    });
  });
}

const bin = (path: string) => join(projectRoot, 'node_modules', path);

/** An app folder: the packed package unpacked in node_modules/tryon-button, the frameworks linked. */
async function makeApp(name: string, app: App, packages: string[], tsconfig: Record<string, unknown>): Promise<string> {
  const dir = join(work, name);
  const installed = join(dir, 'node_modules/tryon-button');
  await mkdir(installed, { recursive: true });
  const untar = await run('tar', ['-xzf', tarball, '-C', installed, '--strip-components=1'], dir);
  assert.equal(untar.code, 0, untar.output);
  for (const pkg of ['lit', ...packages]) {
    await mkdir(dirname(join(dir, 'node_modules', pkg)), { recursive: true });
    await symlink(join(projectRoot, 'node_modules', pkg), join(dir, 'node_modules', pkg), 'dir');
  }
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name, private: true, type: 'module' }));
  await writeFile(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
  for (const [file, source] of Object.entries(app.files)) {
    await mkdir(dirname(join(dir, file)), { recursive: true });
    await writeFile(join(dir, file), source);
  }
  return dir;
}

const compilerOptions = {
  target: 'ES2022',
  module: 'ESNext',
  moduleResolution: 'Bundler',
  lib: ['ES2023', 'DOM', 'DOM.Iterable'],
  strict: true,
  noEmit: true,
  types: [],
  isolatedModules: true,
  verbatimModuleSyntax: true,
  // The package's own .d.ts are checked strictly where they are made; the frameworks' are not ours.
  skipLibCheck: true,
};

/** Errors of a tsc-style report (tsc, vue-tsc) or svelte-check's machine output, by file. */
function errorsByFile(output: string): Map<string, string> {
  const found = new Map<string, string>();
  let current: string | undefined;
  for (const line of output.split('\n')) {
    const tsc = /^(src\/[^(]+)\(\d+,\d+\): error (.*)$/.exec(line);
    const svelteCheck = /^\d+ ERROR "([^"]+)" \d+:\d+ "(.*)"$/.exec(line);
    if (tsc || svelteCheck) {
      current = (tsc ?? svelteCheck)![1]!;
      // svelte-check writes each message as one line, escaped as in JSON.
      const message = tsc ? tsc[2] : (JSON.parse(`"${svelteCheck![2]}"`) as string);
      found.set(current, `${found.get(current) ?? ''}${message}\n`);
    } else if (current && /^\s/.test(line)) {
      found.set(current, `${found.get(current)}${line.trim()}\n`);
    } else {
      current = undefined;
    }
  }
  return found;
}

/** Runs the checker on the app (must pass), then with the mistakes added (each must fail, alone). */
async function checkTypes(dir: string, app: App, checker: string[]): Promise<void> {
  const clean = await run(process.execPath, checker, dir);
  assert.equal(clean.code, 0, `the app type-checks:\n${clean.output}`);
  for (const [file, mistake] of Object.entries(app.mistakes)) await writeFile(join(dir, file), mistake.source);
  const refused = await run(process.execPath, checker, dir);
  assert.notEqual(refused.code, 0, `the mistakes fail the type-check:\n${refused.output}`);
  const errors = errorsByFile(refused.output);
  for (const [file, mistake] of Object.entries(app.mistakes)) {
    const reported = [...errors].find(([path]) => path.endsWith(file))?.[1];
    assert.ok(reported, `${file} is refused:\n${refused.output}`);
    assert.match(reported, mistake.diagnostic, `${file}'s diagnostic`);
  }
  const others = [...errors.keys()].filter((path) => !Object.keys(app.mistakes).some((file) => path.endsWith(file)));
  assert.deepEqual(others, [], 'only the mistakes are refused');
  for (const file of Object.keys(app.mistakes)) await rm(join(dir, file));
}

/** Vue single-file components, compiled the way @vitejs/plugin-vue does, with <tryon-button> a custom element. */
const vuePlugin: Plugin = {
  name: 'vue',
  setup(build) {
    build.onLoad({ filter: /\.vue$/ }, async ({ path }) => {
      const { parse, compileScript } = await import('vue/compiler-sfc');
      const { descriptor, errors } = parse(await readFile(path, 'utf8'), { filename: path });
      if (errors.length > 0) throw errors[0];
      const script = compileScript(descriptor, {
        id: basename(path),
        inlineTemplate: true,
        templateOptions: { compilerOptions: { isCustomElement: (tag) => tag === 'tryon-button' } },
      });
      return { contents: script.content, loader: 'ts' };
    });
  },
};

const sveltePlugin: Plugin = {
  name: 'svelte',
  setup(build) {
    build.onLoad({ filter: /\.svelte$/ }, async ({ path }) => {
      const { compile } = await import('svelte/compiler');
      const { js } = compile(await readFile(path, 'utf8'), { filename: path, generate: 'client' });
      return { contents: js.code, loader: 'js' };
    });
  },
};

/** Bundles the app (the widget's panel stays a lazy chunk) and returns the files to serve. */
async function bundle(dir: string, entry: string, plugins: Plugin[] = []): Promise<Map<string, Buffer>> {
  const outdir = join(dir, 'dist');
  await esbuild({
    absWorkingDir: dir,
    entryPoints: { main: entry },
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    jsx: 'automatic',
    conditions: ['svelte', 'production'],
    define: {
      'process.env.NODE_ENV': '"production"',
      __VUE_OPTIONS_API__: 'false',
      __VUE_PROD_DEVTOOLS__: 'false',
      __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: 'false',
    },
    plugins,
    logLevel: 'silent',
  });
  const files = new Map<string, Buffer>();
  files.set(
    '/index.html',
    Buffer.from(
      '<!doctype html><html lang="en"><body><div id="app"></div><script type="module" src="/main.js"></script></body></html>',
    ),
  );
  for (const path of await listFiles(outdir))
    files.set(path.slice(outdir.length).split('\\').join('/'), await readFile(path));
  return files;
}

/**
 * Opens the app on a made-up origin whose pages come from `files` and whose /tryon/ is a stub of
 * the token proxy: the product's details for PRODUCT, an error for anything else.
 */
async function openApp(files: Map<string, Buffer>): Promise<{ page: Page; errors: string[]; proxyCalls: string[] }> {
  assert.ok(browser, 'Chromium is needed (apt-get install -y chromium, or set CHROME_PATH)');
  const page = await browser.newPage();
  const errors: string[] = [];
  const proxyCalls: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };
  await page.route('http://shop.test/**', async (route) => {
    const { pathname } = new URL(route.request().url());
    if (pathname.startsWith('/tryon/')) {
      proxyCalls.push(`${route.request().method()} ${pathname}`);
      if (pathname === `/tryon/products/${PRODUCT}`) {
        return route.fulfill({ json: { product: PRODUCT, views: ['front'], video: true, tier: 'standard' } });
      }
      return route.fulfill({
        status: 404,
        json: { error: { code: 'not_found', message: 'Not in the stub.', retryable: false } },
      });
    }
    const file = pathname === '/' ? '/index.html' : pathname;
    const body = files.get(file);
    if (!body) return route.fulfill({ status: 404, body: 'not found' });
    return route.fulfill({ body, contentType: types[extname(file)] ?? 'application/octet-stream' });
  });
  await page.goto('http://shop.test/');
  return { page, errors, proxyCalls };
}

async function outputText(page: Page, selector: string): Promise<string> {
  const handle = await page.waitForFunction(
    (s) => document.querySelector(s)?.textContent?.trim() || undefined,
    selector,
    { timeout: 20_000 },
  );
  return String(await handle.jsonValue());
}

/**
 * What every app shows: the framework set the element's attributes and properties, and its
 * handlers received tryon-open (with the product) and tryon-close when the shopper used the button.
 */
async function assertElementWorks(page: Page, proxyCalls: string[]): Promise<void> {
  const label = await page.waitForFunction(
    (text) => {
      const button = document.querySelector('#direct')?.shadowRoot?.querySelector('button');
      return button?.textContent?.trim() === text ? text : undefined;
    },
    LABEL,
    { timeout: 20_000 },
  );
  assert.equal(await label.jsonValue(), LABEL, 'the strings property reached the element');
  const element = await page.evaluate(() => {
    const el = document.querySelector('#direct') as HTMLElement & {
      product: string;
      endpoint: string;
      privacyUrl: string;
    };
    return {
      product: el.product,
      endpoint: el.endpoint,
      privacyUrl: el.privacyUrl,
      upgraded: customElements.get('tryon-button') === el.constructor,
    };
  });
  assert.deepEqual(element, { product: PRODUCT, endpoint: '/tryon', privacyUrl: '/privacy', upgraded: true });

  await page.click('#direct >> button[part="button"]');
  assert.equal(
    await outputText(page, '#opened'),
    PRODUCT,
    "the framework's handler received tryon-open and its detail",
  );
  await page.waitForFunction(
    () =>
      document.querySelector('#direct')?.shadowRoot?.querySelector('tryon-panel')?.shadowRoot?.querySelector('dialog')
        ?.open,
  );
  await page.keyboard.press('Escape');
  assert.match(await outputText(page, '#closed'), /^(consent|photo)$/, "the framework's handler received tryon-close");
  assert.ok(
    proxyCalls.includes(`GET /tryon/products/${PRODUCT}`),
    `the element asked the endpoint the framework set: ${proxyCalls.join(', ')}`,
  );
}

before(async () => {
  work = await mkdtemp(join(tmpdir(), 'tryon-frameworks-'));
  // tryon-button alone, packed as npm publishes it: no proxy, no sandbox.
  tarball = await packStaged(await stagePackage('tryon-button', join(work, 'stage')), work);
  const executablePath = findChromium();
  if (executablePath) browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS, headless: true });
});

after(async () => {
  await browser?.close();
  await rm(work, { recursive: true, force: true });
});

test('React and @lit/react are optional peers, never installed for a shop that does not use them', async () => {
  const dir = join(work, 'peers');
  await mkdir(dir);
  const untar = await run('tar', ['-xzf', tarball, '-C', dir, '--strip-components=1'], dir);
  assert.equal(untar.code, 0, untar.output);
  const manifest = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
    peerDependencies?: Record<string, string>;
    peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  };
  for (const name of ['react', '@lit/react']) {
    assert.equal(manifest.dependencies?.[name], undefined, `${name} is not a dependency`);
    assert.ok(manifest.peerDependencies?.[name], `${name} is a peer dependency`);
    assert.equal(manifest.peerDependenciesMeta?.[name]?.optional, true, `${name} is optional`);
  }
  const wrapper = await readFile(join(dir, 'dist/npm/frameworks/react.js'), 'utf8');
  assert.match(wrapper, /^"use client";/, "the wrapper is a client component for Next.js's App Router");
  assert.match(
    wrapper,
    /from "\.\.\/tryon-button\.js"/,
    'the wrapper uses the same element module as the package entry',
  );
});

describe('React 19', () => {
  let dir: string;
  before(async () => {
    dir = await makeApp(
      'react-app',
      react,
      ['react', 'react-dom', 'scheduler', '@lit/react', '@types/react', '@types/react-dom'],
      {
        compilerOptions: { ...compilerOptions, jsx: 'react-jsx' },
        include: ['src'],
      },
    );
  });

  test('tsc accepts the app and refuses a misspelt attribute and wrong event types', async () => {
    await checkTypes(dir, react, [bin('typescript/bin/tsc'), '-p', 'tsconfig.json', '--pretty', 'false']);
  });

  test('Vite builds the app, and the entry it loads up front grows by at most 10 KB gzipped with the button', async (t) => {
    // The same React app without the button: what the shop had before adding it.
    await writeFile(
      join(dir, 'src/baseline.tsx'),
      "import { createRoot } from 'react-dom/client';\n" +
        `createRoot(document.getElementById('app')!).render(<main><h1>${PRODUCT}</h1></main>);\n`,
    );
    /** Gzipped bytes of the entry chunk and everything it imports statically: what the page loads before the app runs. */
    const entryGzip = async (main: string) => {
      const outDir = join(dir, `vite-${basename(main, '.tsx')}`);
      await writeFile(
        join(dir, 'index.html'),
        `<!doctype html><html lang="en"><body><div id="app"></div><script type="module" src="/${main}"></script></body></html>`,
      );
      // `vite build` as a shop runs it: NODE_ENV=production picks React's and Lit's production
      // builds (Vite's development|production condition), not the test runner's NODE_ENV=test.
      const nodeEnv = process.env['NODE_ENV'];
      process.env['NODE_ENV'] = 'production';
      try {
        await viteBuild({
          configFile: false,
          root: dir,
          logLevel: 'silent',
          publicDir: false,
          mode: 'production',
          oxc: { jsx: { runtime: 'automatic' } },
          build: { outDir, emptyOutDir: true, target: 'es2022', modulePreload: false, reportCompressedSize: false },
        });
      } finally {
        process.env['NODE_ENV'] = nodeEnv;
      }
      const html = await readFile(join(outDir, 'index.html'), 'utf8');
      const entry = /<script type="module"[^>]*src="\/([^"]+)"/.exec(html)?.[1];
      assert.ok(entry, html);
      const closure = staticClosure(graphOf(outDir), entry);
      let bytes = 0;
      for (const file of closure) bytes += gzipSync(await readFile(join(outDir, file)), { level: 9 }).length;
      const all = (await listFiles(outDir)).filter((f) => f.endsWith('.js'));
      return { bytes, chunks: all.length };
    };
    // The same page with the button as the docs' React 19 recipe adds it: one import, one tag.
    await writeFile(
      join(dir, 'src/with-button.tsx'),
      "import { createRoot } from 'react-dom/client';\nimport 'tryon-button';\n" +
        `createRoot(document.getElementById('app')!).render(<main><h1>${PRODUCT}</h1><tryon-button product="${PRODUCT}" endpoint="/tryon" /></main>);\n`,
    );
    const before = await entryGzip('src/baseline.tsx');
    const after = await entryGzip('src/with-button.tsx');
    // This suite's whole app: JSX and the @lit/react wrapper, its handlers and outputs (reported, not budgeted).
    const whole = await entryGzip('src/main.tsx');
    const grown = after.bytes - before.bytes;
    t.diagnostic(
      `Vite + React entry: ${before.bytes} B gzip without the button, ${after.bytes} B with it (+${grown} B, ${after.chunks} chunks); ` +
        `this suite's app with the @lit/react wrapper too: ${whole.bytes} B (+${whole.bytes - before.bytes} B)`,
    );
    assert.ok(grown > 1000, 'the button is in the entry (the measure is not vacuous)');
    assert.ok(grown <= 10 * 1024, `the entry grew by ${grown} B gzipped`);
    assert.ok(after.chunks >= 2, 'the panel stays a lazy chunk in the app');
    await rm(join(dir, 'index.html'));
  });

  test('in Chromium, JSX and the @lit/react wrapper set the element up and get its events', async () => {
    const { page, errors, proxyCalls } = await openApp(await bundle(dir, 'src/main.tsx'));
    try {
      await assertElementWorks(page, proxyCalls);
      const wrapped = await page.evaluate(() => {
        const el = document.querySelector('#wrapped') as HTMLElement & { product: string; video: boolean };
        return { product: el.product, video: el.video };
      });
      assert.deepEqual(wrapped, { product: PRODUCT, video: true }, "the wrapper's props reached the element");
      await page.click('#wrapped >> button[part="button"]');
      assert.equal(await outputText(page, '#wrapper-opened'), PRODUCT, 'onTryonOpen received tryon-open');
      // One of the events the wrapper once left out: its prop is generated with all the others.
      await page.evaluate(() =>
        document.querySelector('#wrapped')!.dispatchEvent(
          new CustomEvent('tryon-add-to-cart', {
            detail: { product: 'p', cart: 'event' },
            bubbles: true,
            composed: true,
          }),
        ),
      );
      assert.equal(await outputText(page, '#wrapper-added'), 'event', 'onTryonAddToCart received tryon-add-to-cart');
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });
});

describe('Vue 3', () => {
  let dir: string;
  before(async () => {
    dir = await makeApp('vue-app', vue, ['vue'], {
      compilerOptions: { ...compilerOptions, jsx: 'preserve' },
      vueCompilerOptions: { strictTemplates: true },
      include: ['src/**/*.ts', 'src/**/*.vue'],
    });
  });

  test('vue-tsc accepts the app and refuses a misspelt attribute and a wrong event type', async () => {
    await checkTypes(dir, vue, [bin('vue-tsc/bin/vue-tsc.js'), '-p', 'tsconfig.json', '--pretty', 'false']);
  });

  test('in Chromium, the template sets the element up and its listeners get the events', async () => {
    const { page, errors, proxyCalls } = await openApp(await bundle(dir, 'src/main.ts', [vuePlugin]));
    try {
      await assertElementWorks(page, proxyCalls);
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });
});

describe('Svelte 5', () => {
  let dir: string;
  before(async () => {
    dir = await makeApp('svelte-app', svelte, ['svelte'], {
      compilerOptions,
      include: ['src/**/*.ts', 'src/**/*.svelte'],
    });
  });

  test('svelte-check accepts the app and refuses a misspelt attribute and a wrong event type', async () => {
    await checkTypes(dir, svelte, [
      bin('svelte-check/bin/svelte-check'),
      '--workspace',
      '.',
      '--tsconfig',
      './tsconfig.json',
      '--output',
      'machine',
      '--fail-on-warnings',
    ]);
  });

  test('in Chromium, the markup sets the element up and its handlers get the events', async () => {
    const { page, errors, proxyCalls } = await openApp(await bundle(dir, 'src/main.ts', [sveltePlugin]));
    try {
      await assertElementWorks(page, proxyCalls);
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });
});
