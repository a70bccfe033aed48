// The widget's builds, inside its package (widget/dist): the script-tag build (dist/cdn: Vite, Lit
// inside, the panel and every heavy part as lazy chunks, the workers and the photo check's models
// beside them) and the bundler build (dist/npm: Lit external, `.d.ts`, custom-elements.json, the
// React wrapper, the HEIC decoder shared with dist/cdn), and what is generated from its manifest
// (docs/api-reference.md, the editor data). scripts/build.ts runs them.
import { cp, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { build as esbuild } from 'esbuild';
import { build } from 'vite';
import { cdnConfig, npmConfig } from '../vite.config.js';
import { apiReference } from './api-reference.js';
import { buildManifest } from './build-manifest.js';
import {
  PACKAGES,
  copyDeclarations,
  emitDeclarations,
  fileExists,
  listFiles,
  measure,
  projectRoot,
} from './build-files.js';
import type { BuildOptions, BuildResult } from './build-files.js';
import { editorData } from './editor-data.js';
import { jsdelivrBase, writeImportMap } from './import-map.js';
import { graphOf } from './module-graph.js';
import { buildPhotoCheck } from './photo-check-build.js';
import { buildPhotoPrepWorker } from './worker-build.js';

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

/**
 * The script-tag build: dist/cdn/tryon-button.js with Lit inside, the panel as a lazy chunk, and
 * last, once every script is written, importmap.json pinning each of them (scripts/import-map.ts)
 * for the folder URL `importMapBase` (default: this version on jsDelivr).
 */
export async function buildCdn(options: BuildOptions & { importMapBase?: string } = {}): Promise<BuildResult> {
  const outDir = options.outDir ?? join(PACKAGES['tryon-button'], 'dist/cdn');
  await buildLeavingNodeEnv(
    cdnConfig({ outDir, quiet: options.quiet ?? false, ...(options.entry ? { entry: options.entry } : {}) }),
  );
  if (await fileExists(WIDGET_ASSETS)) await cp(WIDGET_ASSETS, join(outDir, 'assets'), { recursive: true });
  // The photo check's worker, models and wasm, beside the chunk that starts it.
  await buildPhotoCheck(outDir);
  // The photo preparation's worker, beside the chunk that starts it, sharing the page's libheif chunk.
  const heicChunk = (await readdir(outDir)).find((file) => LIBHEIF.chunk.test(file));
  if (!heicChunk)
    throw new Error(`the CDN build in ${outDir} has no libheif chunk (heic-<hash>.js) for the photo worker`);
  await buildPhotoPrepWorker(outDir, { heicChunk });
  await writeImportMap(outDir, options.importMapBase ?? jsdelivrBase((await widgetPackage()).version));
  return { outDir, files: await measure(outDir) };
}

/**
 * Modules of the npm build that are the CDN build's chunk instead of a second copy of it: the
 * package carries the 2 MB HEIC decoder once. The npm build's `<module>` (a path in dist/npm) becomes
 * a one-line re-export of `cdn/<chunk>` (`../../cdn/<chunk>` from `photo/heic.js`), which bundlers
 * follow like any relative import. Another
 * heavy, self-contained asset joins by adding an entry; it must import nothing but the bundler's
 * runtime helper (never the core chunk, which has Lit inside).
 */
const LIBHEIF = { module: 'photo/heic.js', chunk: /^heic-[\w-]+\.js$/, exports: ['decodeHeic'] };
export const CDN_SHARED = [LIBHEIF];

/**
 * The workers in the npm build, where the module that starts each one looks for it (its literal
 * `new URL('./…-worker.js', import.meta.url)`): a one-line module importing the CDN build's worker,
 * so the package carries each worker (TensorFlow.js, the models) once. A shop's bundler follows
 * that import into dist/cdn and, from there, the worker's own literal URLs to its models and wasm
 * (widget/photo/check/worker.ts); unbundled, the module worker imports the CDN file, whose
 * `import.meta.url` is its own, so it finds them beside itself.
 */
export const NPM_WORKERS = [
  { module: 'photo/photo-prep-worker.js', worker: 'photo-prep-worker.js', startedBy: 'photo/photo.js' },
  {
    module: 'photo/check/photo-check-worker.js',
    worker: 'photo-check-worker.js',
    startedBy: 'photo/check/photo-check.js',
  },
];

async function writeNpmWorkers(npmDir: string, cdnDir: string): Promise<void> {
  for (const { module, worker, startedBy } of NPM_WORKERS) {
    if (!(await fileExists(join(cdnDir, worker)))) throw new Error(`the CDN build has no ${worker} for the npm build`);
    const starter = await readFile(join(npmDir, startedBy), 'utf8');
    if (!starter.includes(`new URL('./${worker}', import.meta.url)`))
      throw new Error(`${startedBy} in the npm build does not start ./${worker} by a literal URL`);
    await writeFile(
      join(npmDir, module),
      [
        `// The CDN build's worker, imported so the package carries it once (scripts/build-widget.ts, NPM_WORKERS).`,
        `import '${'../'.repeat(module.split('/').length)}cdn/${worker}';`,
        '',
      ].join('\n'),
    );
  }
}

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
        `export { ${shared.exports.join(', ')} } from '${'../'.repeat(shared.module.split('/').length)}cdn/${chunk}';`,
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
  await copyDeclarations(join(typesDir, 'widget'), outDir, (file) => !file.startsWith('dist'));
  await dropVendorSourceMaps(outDir);
  await dropMappedSources(outDir);
  await shareCdnChunks(outDir, cdnDir);
  await writeNpmWorkers(outDir, cdnDir);
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
 * The React wrapper (`tryon-button/react`) and its generated event props: compiled alone, their imports
 * kept as they are, so it uses the same `../tryon-button.js` as the rest of dist/npm and the app's own
 * React and @lit/react. The
 * JSX, Vue and Svelte entries are types only: their `.d.ts` come with the others.
 */
async function buildFrameworkEntries(outDir: string, quiet = false): Promise<void> {
  await esbuild({
    absWorkingDir: projectRoot,
    entryPoints: {
      'frameworks/react': 'widget/frameworks/react.ts',
      'frameworks/react-events': 'widget/frameworks/react-events.ts',
    },
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
 * The npm build's maps without `sourcesContent`: the TypeScript they would carry is most of their
 * weight, installed in every shop's node_modules for a stack trace that needs only the mappings
 * (file, line, column). The maps still name each source (`../../widget/…`), which a debugger
 * shows when the repository is at hand; docs/integrations/npm.md says why.
 */
export async function dropMappedSources(outDir: string): Promise<void> {
  for (const path of await listFiles(outDir)) {
    if (!path.endsWith('.map')) continue;
    const map = JSON.parse(await readFile(path, 'utf8')) as { sourcesContent?: unknown };
    if (map.sourcesContent === undefined) continue;
    delete map.sourcesContent;
    await writeFile(path, JSON.stringify(map));
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
