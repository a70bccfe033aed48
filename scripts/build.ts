// `npm run build`: each workspace package's build inside its own folder: the widget for a script
// tag (widget/dist/cdn) and for bundlers (widget/dist/npm), the proxy as package entries and a
// runnable server (proxy/dist), the sandbox as a library and a bin (sandbox/dist); the
// custom-elements manifest and what is generated from it (docs/api-reference.md, the framework
// types, web-types.json, VS Code's custom data); and the Shopify extension and WooCommerce plugin
// with the widget's files inside (dist/shopify, dist/woocommerce). Prints every file's size, the
// size budgets (and fails when over) and the SRI hashes, and fails unless the CDN build's
// importmap.json pins every script it emitted by its bytes (scripts/import-map.ts).
// `--import-map-base <folder URL>` writes that map for where the shop serves dist/cdn (default: this
// version on jsDelivr).
// `tsx scripts/build.ts --package <name>` builds one package only: each package's `prepack`.
//
// The demo takes the CDN build at every start (built again only when its sources changed:
// kept-builds.ts), so buildCdn is quiet when asked; the rest is only for `npm run build` and
// the packaging tests.
//
// The builds themselves are in build-widget.ts (the widget's two), build-servers.ts (the proxy and
// the sandbox) and build-budgets.ts (the budgets and the CDN build's checks), on build-files.ts;
// this file runs them, builds the shop-platform integrations and prints the report. It re-exports
// what the tests and other scripts import from it.
import { cp, rm } from 'node:fs/promises';
import { basename, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build as esbuild } from 'esbuild';
import { BUDGETS, checkBudgets, findCspHazards, sriHash } from './build-budgets.js';
import { PACKAGES, projectRoot, type BuildResult, type PackageName } from './build-files.js';
import { buildProxy, buildSandbox } from './build-servers.js';
import { buildCdn, buildNpm, widgetPackage, writeJsdelivrEntry } from './build-widget.js';
import { checkWrittenImportMap, IMPORT_MAP_FILE } from './import-map.js';
import { installFigures, installSizes, mb, sizeFigures, writeSizeFigures } from './size-figures.js';

export * from './build-budgets.js';
export * from './build-files.js';
export * from './build-servers.js';
export * from './build-widget.js';
export * from './import-map.js';

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
  const source = join(projectRoot, 'integrations');
  await cp(join(source, 'shopify'), shopify, { recursive: true, filter: (path) => !path.endsWith('.ts') });
  await cp(join(source, 'woocommerce/tryon-button'), woocommerce, { recursive: true });
  // Not the import map: its keys are the npm package's URLs on jsDelivr, and these platforms serve
  // the files from their own (the Shopify CDN, the plugin's folder), where it would pin nothing.
  for (const target of [join(shopify, 'assets'), join(woocommerce, 'assets')]) {
    await cp(cdnDir, target, { recursive: true, filter: (path) => basename(path) !== IMPORT_MAP_FILE });
  }
  await esbuild({
    absWorkingDir: projectRoot,
    entryPoints: ['integrations/shopify/tryon-variant.ts'],
    outfile: join(shopify, 'assets/tryon-variant.js'),
    bundle: true,
    format: 'esm',
    target: 'es2022',
    minify: true,
    logLevel: 'warning',
  });
  return [shopify, woocommerce];
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
 * The repository's CHANGELOG.md into a package's folder (`into`: the package itself, or a copy
 * staged for packing), where its `files` names it: one changelog for the three packages, released
 * together, and no committed copy to drift (the copies are ignored by git).
 */
export async function copyChangelog(into: string): Promise<void> {
  await cp(join(projectRoot, 'CHANGELOG.md'), join(into, 'CHANGELOG.md'));
}

/** One package's build, as its `prepack` runs it. */
export async function buildPackage(name: PackageName, options: { quiet?: boolean } = {}): Promise<BuildResult[]> {
  await copyChangelog(PACKAGES[name]);
  if (name === 'tryon-proxy') return [await buildProxy(options)];
  if (name === 'tryon-sandbox') return [await buildSandbox(options)];
  const cdn = await buildCdn(options);
  await writeJsdelivrEntry(join(PACKAGES['tryon-button'], 'dist'), (await widgetPackage()).version);
  return [cdn, await buildNpm({ ...options, apiReference: false })];
}

/** The value after `flag` on the command line, or undefined when the flag is absent. */
function argument(flag: string): string | undefined {
  const at = process.argv.indexOf(flag);
  if (at === -1) return undefined;
  const value = process.argv[at + 1];
  if (value === undefined || value.startsWith('--')) throw new Error(`${flag} needs a value`);
  return value;
}

/** The CDN build's checks that fail the build: budgets, strict-CSP hazards, a script the import map does not pin. */
async function cdnProblems(cdn: BuildResult, budgetProblems: string[]): Promise<string[]> {
  const hazards = await findCspHazards(cdn.outDir);
  const unpinned = await checkWrittenImportMap(cdn.outDir);
  return [
    ...budgetProblems,
    ...hazards.map((h) => `strict CSP would refuse ${h}`),
    ...unpinned.map((problem) => `${IMPORT_MAP_FILE}: ${problem}`),
  ];
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
      const problems = [
        ...checkBudgets(results[0]!).problems,
        ...(await checkWrittenImportMap(results[0]!.outDir)).map((problem) => `${IMPORT_MAP_FILE}: ${problem}`),
      ];
      for (const problem of problems) console.error(`build failed: ${problem}`);
      if (problems.length > 0) process.exit(1);
    }
    console.log(`\nBuilt ${name} in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
    return;
  }
  const importMapBase = argument('--import-map-base');
  const cdn = await buildCdn(importMapBase ? { importMapBase } : {});
  await writeJsdelivrEntry(join(PACKAGES['tryon-button'], 'dist'), (await widgetPackage()).version);
  const [npm, proxy, sandbox] = await Promise.all([buildNpm(), buildProxy(), buildSandbox()]);
  // Each package as its prepack leaves it, so `npm pack` here takes what a release takes.
  for (const folder of Object.values(PACKAGES)) await copyChangelog(folder);
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
  console.log(
    `  every script above, keyed by its URL: ${relative(projectRoot, join(cdn.outDir, IMPORT_MAP_FILE))} (docs/integrations/script-tag.md, "Pin every chunk")`,
  );

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
  console.log(
    `  complete the look ${kb(budgets.outfit).padStart(8)} of ${kb(BUDGETS.outfit)} (fetched only for a product with pieces that go with it)`,
  );
  const sizes = await installSizes({
    widgetDir: PACKAGES['tryon-button'],
    shopifyDir: integrations[0]!,
    workerFile: join(projectRoot, '.cache/worker/size/worker.js'),
  });
  console.log('\nInstalled and deployed (apparent size):');
  console.log(`  npm install tryon-button, alone  ${mb(sizes.widgetInstalled)} with its dependencies`);
  console.log(`  Shopify theme app extension      ${mb(sizes.shopifyExtension)} (Shopify allows 10 MB)`);
  console.log(
    `  proxy Worker, no catalog         ${kb(sizes.workerBundle)}, ${kb(sizes.workerBundleGzip)} gzip (Workers allow 3 MB gzip on the free plan)`,
  );
  // The sizes the README and docs quote, written where they are quoted (scripts/size-figures.ts).
  const quoted = await writeSizeFigures(projectRoot, { ...sizeFigures(budgets), ...installFigures(sizes) });
  if (quoted.length > 0) console.log(`  sizes quoted in ${quoted.join(', ')} updated`);
  const problems = await cdnProblems(cdn, budgets.problems);
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
