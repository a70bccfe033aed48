// `npm run build`: each workspace package's build inside its own folder: the widget for a script
// tag (widget/dist/cdn) and for bundlers (widget/dist/npm), the proxy as package entries and a
// runnable server (proxy/dist), the sandbox as a library and a bin (sandbox/dist); the
// custom-elements manifest and what is generated from it (docs/api-reference.md, the framework
// types, web-types.json, VS Code's custom data); and the Shopify extension and WooCommerce plugin
// with the widget's files inside (dist/shopify, dist/woocommerce). Prints every file's size, the
// size budgets (and fails when over) and the SRI hashes.
// `tsx scripts/build.ts --package <name>` builds one package only: each package's `prepack`.
//
// The demo calls buildCdn() at every start, so it is quiet when asked and takes a fraction of a
// second; the rest is only for `npm run build` and the packaging tests.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { rmSync } from 'node:fs';
import { chmod, cp, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build as esbuild, type Plugin } from 'esbuild';
import { build } from 'vite';
import { cdnConfig, npmConfig } from '../vite.config.js';
import { apiReference, buildManifest } from './build-manifest.js';
import { editorData } from './editor-data.js';
import { firstScriptOf, graphOf } from './module-graph.js';
import { buildPhotoCheck, isPhotoCheckFile } from './photo-check-build.js';
import { sizeFigures, writeSizeFigures } from './size-figures.js';
import { buildPhotoPrepWorker, isPhotoPrepFile } from './worker-build.js';

export const projectRoot = fileURLToPath(new URL('..', import.meta.url));

/** The workspace packages' folders (package.json `workspaces`), by package name. */
export const PACKAGES = {
  'tryon-button': join(projectRoot, 'widget'),
  'tryon-proxy': join(projectRoot, 'proxy'),
  'tryon-sandbox': join(projectRoot, 'sandbox'),
} as const;
export type PackageName = keyof typeof PACKAGES;

export interface BuiltFile {
  /** Path relative to the build's outDir, with forward slashes. */
  file: string;
  bytes: number;
  /** Size after gzip -9, what a CDN sends. */
  gzip: number;
}

export interface BuildResult {
  outDir: string;
  files: BuiltFile[];
}

export interface BuildOptions {
  outDir?: string;
  quiet?: boolean;
  /** The element's entry module; tests point it elsewhere. Default widget/tryon-button.ts. */
  entry?: string;
}

/** Gzipped size limits (bytes) a shop's page pays; the build fails when over. */
export const BUDGETS = {
  /** The script the page loads up front: the button with Lit inside. */
  button: 10 * 1024,
  /**
   * What one page pays at most, the HEIC decoder aside: the button, the panel and every chunk it
   * imports, English, and one other language's dictionary (the largest). Dictionaries are fetched
   * only by pages in their language, so adding a language never adds to any page's cost.
   * 32 KB since the panel learned to say an outage, watch a closed try-on on, share the product
   * page, fit laptops and phones and pick its accent's text colour (30.5 KB with the largest
   * dictionary, after the styles' CSS is minified); the panel alone stays far under the 30 KB
   * first asked of it. 34 KB since the result offers Add to cart (Shopify's Ajax Cart API and the
   * events Dawn and Horizon refresh from, WooCommerce's AJAX add and form post: 2.1 KB) and the
   * button holds shoppers out and reports their exposure (0.7 KB, and the conversion sender as a
   * chunk of its own): 33.5 KB. 38 KB since the progress step shows the first look (a draft
   * beside the render, its crossfade, kept when the render fails), the result offers every colour
   * as a draft ("See all colours"), the button checks availability before it shows, and every
   * error code has its own words in each language: 37.1 KB, of which the panel is 20.7 KB. All of
   * it but the 9.1 KB first script loads after the page, on idle or on a shopper's approach.
   * 40 KB since the photo step offers "See it on a model" and "Use your phone" (issue 22): their
   * screens and the QR code library are chunks of their own, budgeted apart (`alternatives`), but
   * the flow's part (a try-on of a model, a photo from a hand-off, the phone's upload, the hand-off's
   * stream and poll) is in the panel, and their texts in every dictionary: 39.8 KB, the panel 22.5 KB.
   * 42 KB once the same release also gated both ways a photo leaves the device on the photo check
   * and said a picture that does not load as an error (`image_failed`, in every dictionary): 40.7 KB,
   * the panel 23.0 KB. Moving the hand-off's stream and poll into its own chunk would win back ~2 KB.
   */
  buttonAndPanel: 42 * 1024,
  /** The HEIC decoder (libheif with its wasm inside), fetched only when a shopper picks a HEIC photo. */
  heicDecoder: 768 * 1024,
  /**
   * The photo check, fetched only once a photo is chosen: its chunk and dictionaries, the worker
   * with TensorFlow.js, the two quantized models and the wasm. Bytes on disk, not gzip: the
   * package's install size is what it weighs on (docs/widget.md, "The photo check").
   */
  photoCheckOnDisk: 2 * 1024 * 1024,
  /** "See it on a model" and "Use your phone" (alternatives.ts) and the QR code library: fetched only when pressed, budgeted apart. */
  alternatives: 8 * 1024,
};

/** The CDN chunk holding the HEIC decoder (widget/heic.ts): outside the button + panel budget. */
export const isHeicDecoder = (file: string) => /^heic-[\w-]+\.js$/.test(file);
/** The chunks of the models' and hand-off's screens and of lean-qr (nano, svg): fetched only when the shopper asks for them. */
export const isAlternatives = (file: string) => /^(alternatives|nano|svg)-[\w-]+\.js$/.test(file);

/** Every file below `dir`, sorted. */
export async function listFiles(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...(await listFiles(path)));
    else found.push(path);
  }
  return found.sort();
}

export async function measure(outDir: string): Promise<BuiltFile[]> {
  const files: BuiltFile[] = [];
  for (const path of await listFiles(outDir)) {
    const bytes = await readFile(path);
    files.push({
      file: relative(outDir, path).split('\\').join('/'),
      bytes: bytes.length,
      gzip: gzipSync(bytes, { level: 9 }).length,
    });
  }
  return files;
}

/** The script-tag build: dist/cdn/tryon-button.js with Lit inside, the panel as a lazy chunk. */
/**
 * Vite's build sets process.env.NODE_ENV to production for the rest of the process; a caller that
 * then starts the demo or a proxy in the same process (the bench) would be refused as an unsafe
 * production set-up. The build keeps its own production mode; the process gets its value back.
 */
async function buildLeavingNodeEnv(config: Parameters<typeof build>[0]): Promise<void> {
  const before = process.env['NODE_ENV'];
  try {
    await build(config);
  } finally {
    if (before === undefined) delete process.env['NODE_ENV'];
    else process.env['NODE_ENV'] = before;
  }
}

/**
 * Static files the widget fetches at run time (not imported as modules: weights, wasm, data),
 * kept in widget/assets/ and copied to `<cdn>/assets/` by every CDN build, so they travel with it
 * into the package, the WordPress plugin and the Shopify extension, and the npm build reaches them
 * as `../cdn/assets/…`. None yet: the folder is where the next one goes.
 */
export const WIDGET_ASSETS = join(PACKAGES['tryon-button'], 'assets');

export async function buildCdn(options: BuildOptions = {}): Promise<BuildResult> {
  const outDir = options.outDir ?? join(PACKAGES['tryon-button'], 'dist/cdn');
  await buildLeavingNodeEnv(
    cdnConfig({ outDir, quiet: options.quiet ?? false, ...(options.entry ? { entry: options.entry } : {}) }),
  );
  if (await fileExists(WIDGET_ASSETS)) await cp(WIDGET_ASSETS, join(outDir, 'assets'), { recursive: true });
  // The photo check's worker, models and wasm, beside the chunk that starts it.
  await buildPhotoCheck(outDir);
  // The photo preparation's worker (and its libheif chunk), beside the chunk that starts it.
  await buildPhotoPrepWorker(outDir);
  return { outDir, files: await measure(outDir) };
}

/** Subresource Integrity value for a file: what goes in `<script integrity="…">`. */
export async function sriHash(path: string): Promise<string> {
  const digest = createHash('sha384')
    .update(await readFile(path))
    .digest('base64');
  return `sha384-${digest}`;
}

export interface BudgetCheck {
  /** Gzipped bytes of the first script: the entry and every file it statically imports. */
  button: number;
  /** The files that make up the first script. */
  firstScript: string[];
  buttonAndPanel: number;
  /** Gzipped bytes of the largest dictionary other than English (counted once in buttonAndPanel). */
  largestDictionary: number;
  heicDecoder: number;
  /** Every file of the photo check, bytes on disk. */
  photoCheck: number;
  alternatives: number;
  problems: string[];
}

/** A language's dictionary chunk (`ur-<hash>.js`), other than English, which every panel loads. */
const isOtherDictionary = (file: string) => /^[a-z]{2,3}-[\w-]+\.js$/.test(file) && !file.startsWith('en-');

export function checkBudgets(cdn: BuildResult): BudgetCheck {
  const scripts = cdn.files.filter((f) => f.file.endsWith('.js'));
  const entry = 'tryon-button.js';
  const problems: string[] = [];
  if (!scripts.some((f) => f.file === entry)) {
    problems.push('tryon-button.js is missing from the CDN build');
    return {
      button: 0,
      firstScript: [],
      buttonAndPanel: 0,
      largestDictionary: 0,
      heicDecoder: 0,
      photoCheck: 0,
      alternatives: 0,
      problems,
    };
  }
  // The entry is a few bytes: what a page pays for the button is the entry and the core chunk it
  // imports once the page has loaded.
  const firstScript = [...firstScriptOf(graphOf(cdn.outDir), entry)];
  const button = scripts.filter((f) => firstScript.includes(f.file)).reduce((sum, f) => sum + f.gzip, 0);
  // The HEIC decoder is fetched only for a HEIC photo the browser cannot decode: budgeted apart.
  // A page fetches at most one dictionary besides English: the largest counts, once.
  const largestDictionary = Math.max(0, ...scripts.filter((f) => isOtherDictionary(f.file)).map((f) => f.gzip));
  const buttonAndPanel =
    largestDictionary +
    scripts
      .filter(
        (f) =>
          !isHeicDecoder(f.file) &&
          !isOtherDictionary(f.file) &&
          !isPhotoCheckFile(f.file) &&
          !isPhotoPrepFile(f.file) &&
          !isAlternatives(f.file),
      )
      .reduce((sum, f) => sum + f.gzip, 0);
  // The photo check is fetched only after a photo is chosen: budgeted apart, on disk.
  const photoCheck = cdn.files.filter((f) => isPhotoCheckFile(f.file)).reduce((sum, f) => sum + f.bytes, 0);
  const alternatives = scripts.filter((f) => isAlternatives(f.file)).reduce((sum, f) => sum + f.gzip, 0);
  if (alternatives > BUDGETS.alternatives)
    problems.push(`models and hand-off are ${alternatives} B gzipped, over their budget of ${BUDGETS.alternatives} B`);
  const heicDecoder = scripts.filter((f) => isHeicDecoder(f.file)).reduce((sum, f) => sum + f.gzip, 0);
  if (button > BUDGETS.button)
    problems.push(`the button is ${button} B gzipped, over its budget of ${BUDGETS.button} B`);
  if (buttonAndPanel > BUDGETS.buttonAndPanel) {
    problems.push(`button + panel are ${buttonAndPanel} B gzipped, over their budget of ${BUDGETS.buttonAndPanel} B`);
  }
  if (heicDecoder > BUDGETS.heicDecoder) {
    problems.push(`the HEIC decoder is ${heicDecoder} B gzipped, over its budget of ${BUDGETS.heicDecoder} B`);
  }
  if (photoCheck > BUDGETS.photoCheckOnDisk) {
    problems.push(`the photo check is ${photoCheck} B on disk, over its budget of ${BUDGETS.photoCheckOnDisk} B`);
  }
  return { button, firstScript, buttonAndPanel, largestDictionary, heicDecoder, photoCheck, alternatives, problems };
}

/**
 * What a strict Content-Security-Policy (no 'unsafe-eval', no 'unsafe-inline') would refuse if
 * the bundle did it: eval, the Function constructor, string timers, inline event-handler markup.
 */
export async function findCspHazards(outDir: string): Promise<string[]> {
  const hazards: [RegExp, string][] = [
    [/(?<![\w$.])eval\s*\(/, 'eval('],
    [/\bnew\s+Function\s*\(/, 'new Function('],
    [/(?<!new\s+)(?<![\w$.])Function\s*\(\s*["'`]/, 'Function("…")'],
    [/\bset(?:Timeout|Interval)\s*\(\s*["'`]/, 'a string passed to setTimeout/setInterval'],
    [/\bjavascript:/i, 'a javascript: URL'],
    [/<script[\s>]/i, 'inline <script> markup'],
  ];
  const found: string[] = [];
  for (const path of await listFiles(outDir)) {
    if (!path.endsWith('.js')) continue;
    const text = await readFile(path, 'utf8');
    for (const [pattern, name] of hazards) if (pattern.test(text)) found.push(`${relative(outDir, path)}: ${name}`);
  }
  return found;
}

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolveRun, reject) => {
    execFile(command, args, { cwd: projectRoot, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${[command, ...args].join(' ')} failed:\n${stdout}${stderr}`));
      else resolveRun();
    });
  });
}

let declarations: Promise<string> | undefined;

/** `.d.ts` for the widget and the proxy, emitted once per process by tsc -p tsconfig.build.json. */
function emitDeclarations(): Promise<string> {
  declarations ??= (async () => {
    // A folder of this process's own: builds in parallel (tests, the demo, a developer) never
    // read each other's half-written declarations.
    const typesDir = await mkdtemp(join(tmpdir(), 'tryon-types-'));
    process.once('exit', () => rmSync(typesDir, { recursive: true, force: true }));
    await run(process.execPath, [
      join(projectRoot, 'node_modules/typescript/bin/tsc'),
      '-p',
      'tsconfig.build.json',
      '--outDir',
      typesDir,
    ]);
    return typesDir;
  })();
  declarations.catch(() => {
    declarations = undefined;
  });
  return declarations;
}

async function copyDeclarations(from: string, to: string, keep: (file: string) => boolean = () => true): Promise<void> {
  for (const path of await listFiles(from)) {
    const file = relative(from, path);
    if (!path.endsWith('.d.ts') || !keep(file)) continue;
    await mkdir(dirname(join(to, file)), { recursive: true });
    await cp(path, join(to, file));
  }
}

/**
 * Modules of the npm build that are the CDN build's chunk instead of a second copy of it: the
 * package carries the 2 MB HEIC decoder once (issue 25). The npm build's `<module>` becomes a
 * one-line re-export of `../cdn/<chunk>`, which bundlers follow like any relative import. Another
 * heavy, self-contained asset joins by adding an entry; it must import nothing but the bundler's
 * runtime helper (never the core chunk, which has Lit inside).
 */
export const CDN_SHARED = [{ module: 'heic.js', chunk: /^heic-[\w-]+\.js$/, exports: ['decodeHeic'] }];

/** The CDN build the npm build at `npmDir` shares chunks with: its sibling `cdn` folder, built when absent. */
async function cdnBesides(npmDir: string, quiet = false): Promise<string> {
  const cdnDir = join(dirname(npmDir), 'cdn');
  if (!(await fileExists(join(cdnDir, 'tryon-button.js')))) await buildCdn({ outDir: cdnDir, quiet });
  return cdnDir;
}

async function shareCdnChunks(npmDir: string, cdnDir: string): Promise<void> {
  const cdnFiles = await readdir(cdnDir);
  for (const shared of CDN_SHARED) {
    const chunks = cdnFiles.filter((file) => shared.chunk.test(file));
    if (chunks.length !== 1)
      throw new Error(`the CDN build has ${chunks.length} chunks matching ${shared.chunk}, not one`);
    const chunk = chunks[0]!;
    const text = await readFile(join(cdnDir, chunk), 'utf8');
    for (const name of shared.exports) {
      if (
        !new RegExp(`export\\s*\\{[^}]*\\b${name}\\s*\\}`).test(text) &&
        !new RegExp(`export\\s*\\{[^}]*\\bas ${name}\\b`).test(text)
      ) {
        throw new Error(`the CDN chunk ${chunk} does not export ${name} by name`);
      }
    }
    for (const imported of graphOf(cdnDir).staticImports(chunk)) {
      if (!/^rolldown-runtime-[\w-]+\.js$/.test(imported))
        throw new Error(`the CDN chunk ${chunk} imports ${imported}; a shared chunk must stand alone`);
    }
    await writeFile(
      join(npmDir, shared.module),
      [
        `// The CDN build's chunk, shared so the package carries it once (scripts/build.ts, CDN_SHARED).`,
        `export { ${shared.exports.join(', ')} } from '../cdn/${chunk}';`,
        '',
      ].join('\n'),
    );
    await rm(join(npmDir, `${shared.module}.map`), { force: true });
  }
}

/** The package's version and where its API reference is read online (web-types, VS Code data). */
export async function widgetPackage(): Promise<{ version: string; docsUrl: string }> {
  const manifest = JSON.parse(await readFile(join(PACKAGES['tryon-button'], 'package.json'), 'utf8')) as {
    version: string;
    repository: { url: string };
  };
  const repository = manifest.repository.url.replace(/^git\+/, '').replace(/\.git$/, '');
  return { version: manifest.version, docsUrl: `${repository}/blob/main/docs/api-reference.md` };
}

/**
 * The bundler build: ES modules with Lit external (one file per source module), `.d.ts` next to
 * them, and custom-elements.json; the HEIC decoder from the CDN build beside it (CDN_SHARED).
 * Written to the project when building to the default place: docs/api-reference.md and the
 * editor data (scripts/editor-data.ts), all from that manifest.
 */
export async function buildNpm(
  options: Omit<BuildOptions, 'entry'> & { apiReference?: string | false } = {},
): Promise<BuildResult> {
  const outDir = options.outDir ?? join(PACKAGES['tryon-button'], 'dist/npm');
  const writesProject = options.outDir === undefined;
  await rm(outDir, { recursive: true, force: true });
  const cdnDir = await cdnBesides(outDir, options.quiet);
  const [typesDir, manifest] = await Promise.all([
    emitDeclarations(),
    // Paths in the manifest describe the published package's layout, wherever this build writes.
    buildManifest({ root: projectRoot, distPrefix: 'dist/npm/' }),
    buildLeavingNodeEnv(npmConfig({ outDir, quiet: options.quiet ?? false })),
    buildFrameworkEntries(outDir, options.quiet),
  ]);
  await copyDeclarations(
    join(typesDir, 'widget'),
    outDir,
    (file) => !file.startsWith('integrations') && !file.startsWith('dist'),
  );
  await dropVendorSourceMaps(outDir);
  await shareCdnChunks(outDir, cdnDir);
  // Type-only modules (events.ts) emit no JavaScript: the manifest names only files that exist.
  const present = await Promise.all(
    manifest.modules.map((module) => fileExists(join(outDir, module.path.replace(/^dist\/npm\//, '')))),
  );
  manifest.modules = manifest.modules.filter((_, index) => present[index]);
  await writeFile(join(outDir, 'custom-elements.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  const referencePath = options.apiReference ?? join(projectRoot, 'docs/api-reference.md');
  if (referencePath) {
    await mkdir(dirname(referencePath), { recursive: true });
    await writeFile(referencePath, apiReference(manifest));
  }
  if (writesProject) {
    for (const file of await editorData(manifest, { root: projectRoot, ...(await widgetPackage()) })) {
      await writeFile(join(projectRoot, file.path), file.text);
    }
  }
  return { outDir, files: await measure(outDir) };
}

/**
 * The React wrapper (`tryon-button/react`): compiled alone, its imports kept as they are, so it uses
 * the same `../tryon-button.js` as the rest of dist/npm and the app's own React and @lit/react. The
 * JSX, Vue and Svelte entries are types only: their `.d.ts` come with the others.
 */
async function buildFrameworkEntries(outDir: string, quiet = false): Promise<void> {
  await esbuild({
    absWorkingDir: projectRoot,
    entryPoints: { 'frameworks/react': 'widget/frameworks/react.ts' },
    outdir: outDir,
    bundle: false,
    format: 'esm',
    target: 'es2022',
    sourcemap: true,
    logLevel: quiet ? 'silent' : 'warning',
  });
}

/**
 * A bundled package's map (libheif: 2 MB, mapping minified code to the same minified code) only
 * weighs down every shop's install; the widget's own modules keep theirs.
 */
async function dropVendorSourceMaps(outDir: string): Promise<void> {
  const vendor = join(outDir, 'vendor');
  if (!(await fileExists(vendor))) return;
  for (const path of await listFiles(vendor)) {
    if (path.endsWith('.map')) await rm(path);
    else if (path.endsWith('.js'))
      await writeFile(path, (await readFile(path, 'utf8')).replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '\n'));
  }
}

/**
 * Packages bundled into the proxy instead of installed beside it: the Standard Webhooks reference
 * library (and its two small dependencies). Its published package runs a `prepare` build that npm
 * flags on every offline install, and it is a few hundred lines: carrying it verbatim keeps a
 * shop's install free of install scripts and one package smaller.
 */
const BUNDLED_INTO_PROXY = ['standardwebhooks', '@stablelib/base64', 'fast-sha256'];

/** Every bare import stays external (the package's own dependencies), except the packages named. */
function dependenciesExternalBut(bundled: string[]): Plugin {
  const packageOf = (specifier: string) =>
    specifier
      .split('/')
      .slice(0, specifier.startsWith('@') ? 2 : 1)
      .join('/');
  return {
    name: 'dependencies-external-but',
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, (args) =>
        args.path.startsWith('node:') || bundled.includes(packageOf(args.path))
          ? undefined
          : { path: args.path, external: true },
      );
    },
  };
}

/**
 * The proxy for Node and Workers: `index.js` (createProxy), `node.js` (startProxy), `worker.js`
 * (a Workers module), `server.js` (runnable: `node dist/proxy/server.js`), `shopify-app-proxy.js`
 * (the App Proxy signature middleware). Dependencies stay external (they are the package's own),
 * but for the few bundled into it (BUNDLED_INTO_PROXY).
 */
export async function buildProxy(options: Omit<BuildOptions, 'entry'> = {}): Promise<BuildResult> {
  const outDir = options.outDir ?? join(PACKAGES['tryon-proxy'], 'dist');
  await rm(outDir, { recursive: true, force: true });
  const [typesDir] = await Promise.all([
    emitDeclarations(),
    esbuild({
      absWorkingDir: projectRoot,
      entryPoints: {
        index: 'proxy/app.ts',
        node: 'proxy/node.ts',
        worker: 'proxy/worker.ts',
        'shopify-app-proxy': 'proxy/middleware/shopify-app-proxy.ts',
      },
      outdir: outDir,
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'neutral',
      mainFields: ['module', 'main'],
      conditions: ['import', 'node'],
      target: 'es2022',
      // node: modules exist only in node.js (a test in test/proxy keeps them out of the app).
      external: ['node:*'],
      plugins: [dependenciesExternalBut(BUNDLED_INTO_PROXY)],
      chunkNames: 'chunks/[name]-[hash]',
      sourcemap: true,
      logLevel: options.quiet ? 'silent' : 'warning',
    }),
  ]);
  await copyDeclarations(join(typesDir, 'proxy'), outDir, (file) => !file.startsWith('dist'));
  await cp(join(typesDir, 'proxy/app.d.ts'), join(outDir, 'index.d.ts'));
  await cp(join(typesDir, 'proxy/middleware/shopify-app-proxy.d.ts'), join(outDir, 'shopify-app-proxy.d.ts'));
  // The bin calls the entry's start-up itself rather than relying on node.js recognising itself as
  // the script Node was given, which a bin reached through npm's symlink is not.
  await writeFile(
    join(outDir, 'server.js'),
    [
      '#!/usr/bin/env node',
      '// The token proxy as a server: reads TRYON_* from the environment (see the package README).',
      "import { serveFromEnvironment } from './node.js';",
      'await serveFromEnvironment();',
      '',
    ].join('\n'),
  );
  await chmod(join(outDir, 'server.js'), 0o755);
  return { outDir, files: await measure(outDir) };
}

/**
 * The sandbox as a package: `server.js` (startSandbox, createSandbox) with its `.d.ts`, and the
 * `tryon-sandbox` bin (`cli.js`, running main.ts). Its dependencies stay external; the few shared
 * with the proxy's source (proxy/image-signatures.ts) and the Standard Webhooks library are bundled
 * in, so the tarball depends on no tryon-proxy and runs no install script of that library.
 */
export async function buildSandbox(options: Omit<BuildOptions, 'entry'> = {}): Promise<BuildResult> {
  const outDir = options.outDir ?? join(PACKAGES['tryon-sandbox'], 'dist');
  await rm(outDir, { recursive: true, force: true });
  const [typesDir] = await Promise.all([
    emitDeclarations(),
    esbuild({
      absWorkingDir: projectRoot,
      entryPoints: { server: 'sandbox/server.ts', main: 'sandbox/main.ts' },
      outdir: outDir,
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      plugins: [dependenciesExternalBut(BUNDLED_INTO_PROXY)],
      chunkNames: 'chunks/[name]-[hash]',
      sourcemap: true,
      logLevel: options.quiet ? 'silent' : 'warning',
    }),
  ]);
  await copyDeclarations(join(typesDir, 'sandbox'), outDir, (file) => !file.startsWith('dist'));
  // The one proxy module the sandbox's source shares is bundled in; its types come along, beside them.
  await cp(join(typesDir, 'proxy/image-signatures.d.ts'), join(outDir, 'image-signatures.d.ts'));
  for (const path of await listFiles(outDir)) {
    if (!path.endsWith('.d.ts')) continue;
    const text = await readFile(path, 'utf8');
    if (text.includes('../proxy/'))
      await writeFile(path, text.replaceAll('../proxy/image-signatures.js', './image-signatures.js'));
  }
  const dangling = (
    await Promise.all(
      (await listFiles(outDir))
        .filter((p) => p.endsWith('.d.ts'))
        .map(async (p) => ((await readFile(p, 'utf8')).includes('../proxy/') ? [p] : [])),
    )
  ).flat();
  if (dangling.length > 0)
    throw new Error(`sandbox declarations still import the proxy's source: ${dangling.join(', ')}`);
  await writeFile(
    join(outDir, 'cli.js'),
    [
      '#!/usr/bin/env node',
      '// The try-on API stand-in on its own port: SANDBOX_PORT, SANDBOX_KEYS, SANDBOX_SPEED (see the package README).',
      "import './main.js';",
      '',
    ].join('\n'),
  );
  await chmod(join(outDir, 'cli.js'), 0o755);
  return { outDir, files: await measure(outDir) };
}

/**
 * Deployable copies of the shop-platform integrations with the CDN build inside: the Shopify theme
 * app extension (its assets/ holds tryon-button.js and its chunks, and the block's variant
 * follower, tryon-variant.js, built from TypeScript) and the WordPress plugin folder (zip it to upload).
 */
export async function buildIntegrations(cdnDir: string, outDir = join(projectRoot, 'dist')): Promise<string[]> {
  const shopify = join(outDir, 'shopify/tryon-extension');
  const woocommerce = join(outDir, 'woocommerce/tryon-button');
  await rm(join(outDir, 'shopify'), { recursive: true, force: true });
  await rm(join(outDir, 'woocommerce'), { recursive: true, force: true });
  const source = join(projectRoot, 'widget/integrations');
  await cp(join(source, 'shopify'), shopify, { recursive: true, filter: (path) => !path.endsWith('.ts') });
  await cp(join(source, 'woocommerce/tryon-button'), woocommerce, { recursive: true });
  for (const target of [join(shopify, 'assets'), join(woocommerce, 'assets')]) {
    await cp(cdnDir, target, { recursive: true });
  }
  await esbuild({
    absWorkingDir: projectRoot,
    entryPoints: ['widget/integrations/shopify/tryon-variant.ts'],
    outfile: join(shopify, 'assets/tryon-variant.js'),
    bundle: true,
    format: 'esm',
    target: 'es2022',
    minify: true,
    logLevel: 'warning',
  });
  return [shopify, woocommerce];
}

export async function fileExists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

function kb(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB`;
}

function printFiles(title: string, result: BuildResult): void {
  console.log(`\n${title} (${relative(projectRoot, result.outDir)})`);
  for (const f of result.files) {
    if (f.file.endsWith('.map')) continue;
    console.log(`  ${f.file.padEnd(44)} ${String(f.bytes).padStart(8)} B  ${String(f.gzip).padStart(7)} B gzip`);
  }
}

/**
 * The file the package's `jsdelivr` field names (`dist/jsdelivr.js`): what
 * `https://cdn.jsdelivr.net/npm/tryon-button[@version]` serves. jsDelivr serves the default file
 * at that bare URL itself, without a redirect, so the browser resolves the CDN build's relative
 * chunk imports against `/npm/` and they fail (jsdelivr/jsdelivr#18033, #18743). This one line
 * imports the CDN build by a path that resolves right from that URL: `./tryon-button@<version>/…`
 * against `/npm/` is the package's own folder, of this exact version. (unpkg redirects a bare URL
 * to the file, so its `unpkg` field names the CDN build itself.)
 */
export async function writeJsdelivrEntry(packageDist: string, version: string): Promise<string> {
  const path = join(packageDist, 'jsdelivr.js');
  await mkdir(packageDist, { recursive: true });
  await writeFile(
    path,
    [
      '// https://cdn.jsdelivr.net/npm/tryon-button[@version]: jsDelivr serves this file at the bare package URL,',
      '// where relative imports resolve against /npm/; this path leads back into the package, this version.',
      `import './tryon-button@${version}/dist/cdn/tryon-button.js';`,
      '',
    ].join('\n'),
  );
  return path;
}

/** One package's build, as its `prepack` runs it. */
export async function buildPackage(name: PackageName, options: { quiet?: boolean } = {}): Promise<BuildResult[]> {
  if (name === 'tryon-proxy') return [await buildProxy(options)];
  if (name === 'tryon-sandbox') return [await buildSandbox(options)];
  const cdn = await buildCdn(options);
  await writeJsdelivrEntry(join(PACKAGES['tryon-button'], 'dist'), (await widgetPackage()).version);
  return [cdn, await buildNpm({ ...options, apiReference: false })];
}

async function main(): Promise<void> {
  const started = Date.now();
  const only = process.argv.indexOf('--package');
  if (only !== -1) {
    const name = process.argv[only + 1] as PackageName;
    if (!(name in PACKAGES))
      throw new Error(`--package takes one of ${Object.keys(PACKAGES).join(', ')}, not ${String(name)}`);
    const results = await buildPackage(name);
    for (const result of results) printFiles(name, result);
    if (name === 'tryon-button') {
      const problems = checkBudgets(results[0]!).problems;
      for (const problem of problems) console.error(`build failed: ${problem}`);
      if (problems.length > 0) process.exit(1);
    }
    console.log(`\nBuilt ${name} in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
    return;
  }
  const cdn = await buildCdn();
  await writeJsdelivrEntry(join(PACKAGES['tryon-button'], 'dist'), (await widgetPackage()).version);
  const [npm, proxy, sandbox] = await Promise.all([buildNpm(), buildProxy(), buildSandbox()]);
  const integrations = await buildIntegrations(cdn.outDir);
  printFiles('CDN build', cdn);
  printFiles('npm build', npm);
  printFiles('Proxy', proxy);
  printFiles('Sandbox', sandbox);
  console.log(`\nShop-platform packages: ${integrations.map((dir) => relative(projectRoot, dir)).join(', ')}`);
  console.log(
    'Generated from widget/dist/npm/custom-elements.json: docs/api-reference.md, widget/frameworks/tryon-button-attributes.ts, widget/web-types.json, widget/vscode.html-custom-data.json',
  );

  console.log('\nSubresource Integrity (sha384):');
  for (const f of cdn.files.filter((file) => file.file.endsWith('.js'))) {
    console.log(`  ${f.file.padEnd(30)} ${await sriHash(join(cdn.outDir, f.file))}`);
  }

  const budgets = checkBudgets(cdn);
  console.log('\nBudgets (gzip):');
  console.log(
    `  first script      ${kb(budgets.button).padStart(8)} of ${kb(BUDGETS.button)}  (${budgets.firstScript.join(' + ')})`,
  );
  console.log(`  button + panel    ${kb(budgets.buttonAndPanel).padStart(8)} of ${kb(BUDGETS.buttonAndPanel)}`);
  console.log(
    `  HEIC decoder      ${kb(budgets.heicDecoder).padStart(8)} of ${kb(BUDGETS.heicDecoder)} (fetched only for a HEIC photo)`,
  );
  console.log(
    `  photo check       ${kb(budgets.photoCheck).padStart(8)} of ${kb(BUDGETS.photoCheckOnDisk)} on disk (fetched only once a photo is chosen)`,
  );
  console.log(
    `  models, hand-off  ${kb(budgets.alternatives).padStart(8)} of ${kb(BUDGETS.alternatives)} (fetched only when the shopper asks: "See it on a model", "Use your phone")`,
  );
  // The sizes the README and docs quote, written where they are quoted (scripts/size-figures.ts).
  const quoted = await writeSizeFigures(projectRoot, sizeFigures(budgets));
  if (quoted.length > 0) console.log(`  sizes quoted in ${quoted.join(', ')} updated`);
  const hazards = await findCspHazards(cdn.outDir);
  const problems = [...budgets.problems, ...hazards.map((h) => `strict CSP would refuse ${h}`)];
  if (problems.length > 0) {
    for (const problem of problems) console.error(`build failed: ${problem}`);
    process.exit(1);
  }
  console.log(`\nBuilt in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
}

function isMain(): boolean {
  const script = process.argv[1];
  return script !== undefined && fileURLToPath(import.meta.url) === resolve(script);
}

if (isMain()) {
  main().catch((error: unknown) => {
    console.error(`build failed: ${(error as Error).message}`);
    process.exit(1);
  });
}
