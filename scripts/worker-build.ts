// The widget's module workers, each built on its own beside the widget's chunks (dist/cdn), where
// the chunk that starts it finds it (widget/core/worker-file.ts): the photo check's
// (photo-check-worker.js, scripts/photo-check-build.ts) and the photo preparation's
// (photo-prep-worker.js, fetching libheif only for a HEIC the browser cannot decode). In the CDN
// build the worker imports the page's own libheif chunk (heic-<hash>.js), so the 2 MB decoder is
// shipped once; a worker built alone (a test's or the bench's folder) carries its own copy as
// photo-prep-heic-<hash>.js. Nothing of this is committed.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build as esbuild, type Plugin } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));

export const PHOTO_PREP_WORKER = 'photo-prep-worker.js';
/**
 * The photo preparation's files, fetched only once a photo is chosen, budgeted apart from the
 * panel: its worker and chunks, or, where no worker can run, the same steps as the page's chunk
 * (photo-pipeline-<hash>.js). One or the other, about 1.7 KB gzipped, and libheif for a HEIC.
 */
export const isPhotoPrepFile = (file: string) => /^photo-(prep-[\w.-]+|pipeline-[\w-]+)\.js$/.test(file);

/**
 * Bundles the worker `entry` (a path from the repository's root) into `outDir/<file>`, ES module,
 * minified; its dynamic imports become chunks named `<prefix>-<name>-<hash>.js` beside it.
 */
export async function buildWorker(
  entry: string,
  outDir: string,
  file: string,
  prefix = file.replace(/-worker\.js$/, ''),
  plugins: Plugin[] = [],
): Promise<void> {
  await esbuild({
    entryPoints: { [file.replace(/\.js$/, '')]: join(root, entry) },
    outdir: outDir,
    bundle: true,
    splitting: true,
    chunkNames: `${prefix}-[name]-[hash]`,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    logLevel: 'error',
    // Node's module globals, which Emscripten's glue probes (`typeof __filename`), are written away
    // here: a shop's webpack, bundling this worker again, answers such a probe as Node's would and
    // the worker then throws `__filename is not defined` in the browser.
    define: { 'process.env.NODE_ENV': '"production"', __filename: 'undefined', __dirname: 'undefined' },
    // Emscripten glue (TensorFlow.js's wasm backend, libheif) names Node's modules in branches a browser never takes.
    external: ['fs', 'path', 'worker_threads', 'perf_hooks', 'os', 'crypto', 'util'],
    plugins,
  });
}

/**
 * The photo preparation's worker into `outDir` (dist/cdn, or a test's or the bench's folder).
 * `heicChunk`: the page's libheif chunk already in `outDir` (a file name), which the worker then
 * imports instead of bundling a second copy. The chunk exports `decodeHeic` by name and imports only
 * the bundler's runtime helper, so a module worker can load it as it is.
 */
export async function buildPhotoPrepWorker(outDir: string, { heicChunk }: { heicChunk?: string } = {}): Promise<void> {
  const shared: Plugin = {
    name: 'the page-s-libheif-chunk',
    setup(build) {
      build.onResolve({ filter: /^\.\/heic\.js$/ }, () => ({ path: `./${heicChunk}`, external: true }));
    },
  };
  await buildWorker('widget/photo/prep/worker.ts', outDir, PHOTO_PREP_WORKER, undefined, heicChunk ? [shared] : []);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await buildPhotoPrepWorker(process.argv[2] ?? join(root, 'widget/dist/cdn'));
}
