// One figure for each size, generated where it is quoted. The README and the docs quote the
// widget's sizes between markers, `<!-- size:first-script -->7.6 KB<!-- /size -->`; `npm run
// build` measures the build it just made and writes each figure into every marker of its name
// (writeSizeFigures), and test/integrations/size-figures.test.ts builds afresh and fails when a
// quoted figure is not the build's (staleSizeFigures). A size quoted without a marker is a copy
// that nothing keeps true: quote it with one.
//
// Besides the CDN build's gzip figures, the sizes of what a shop installs or deploys
// (installSizes): the widget's package installed alone with its dependencies, the Shopify theme
// app extension's folder, the proxy's Worker bundle. test/integrations/package-install.test.ts
// holds the first against a real offline install of the packed tarball; size-figures.test.ts the
// other two against fresh builds.
import { execFile } from 'node:child_process';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import type { BudgetCheck } from './build-budgets.js';
import { fileExists, listFiles, projectRoot } from './build-files.js';

/** The CDN build's figures, gzip. */
export type CdnSizeFigure = 'first-script' | 'button-and-panel' | 'button-and-panel-largest-language';
/** What a shop installs or deploys. */
export type InstallSizeFigure = 'widget-installed' | 'shopify-extension' | 'worker-bundle' | 'worker-bundle-gzip';
/** The sizes the docs may quote, by marker name. */
export type SizeFigure = CdnSizeFigure | InstallSizeFigure;

export const SIZE_FIGURES: readonly SizeFigure[] = [
  'first-script',
  'button-and-panel',
  'button-and-panel-largest-language',
  'widget-installed',
  'shopify-extension',
  'worker-bundle',
  'worker-bundle-gzip',
];

/** The files that quote sizes between markers (relative to the project's root). */
export const QUOTING_FILES = [
  'README.md',
  'docs/architecture.md',
  'docs/widget.md',
  'docs/performance.md',
  'docs/integrations/README.md',
  'docs/integrations/npm.md',
  'docs/integrations/script-tag.md',
  'docs/integrations/shopify.md',
  'docs/integrations/deploy-proxy.md',
];

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
/** Megabytes of 1024 × 1024 bytes, one decimal, as `du --apparent-size -h` rounds them. */
export const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const kib = (bytes: number) => `${Math.round(bytes / 1024)} KiB`;

/** The bytes a quoted figure stands for ("5.4 MB", "126 KiB") and half its last digit, the rounding. */
export function quotedBytes(quoted: string): { bytes: number; rounding: number } {
  const m = /^(\d+(?:\.(\d+))?) (MB|KiB|KB)$/.exec(quoted);
  if (!m) throw new Error(`"${quoted}" is not a size figure`);
  const unit = m[3] === 'MB' ? 1024 * 1024 : 1024;
  return { bytes: Number(m[1]) * unit, rounding: (unit * 10 ** -(m[2]?.length ?? 0)) / 2 };
}

/**
 * The figures of one CDN build, gzip: the first script (the entry and what it imports statically),
 * button and panel on an English page, and the same with the largest other language's dictionary.
 */
export function sizeFigures(
  budgets: Pick<BudgetCheck, 'button' | 'buttonAndPanel'> & { largestDictionary: number },
): Record<CdnSizeFigure, string> {
  return {
    'first-script': kb(budgets.button),
    'button-and-panel': kb(budgets.buttonAndPanel - budgets.largestDictionary),
    'button-and-panel-largest-language': kb(budgets.buttonAndPanel),
  };
}

/** Bytes of every file below `dir` (apparent size, as a tarball or a disk quota counts them). */
export async function sizeOf(dir: string): Promise<number> {
  let total = 0;
  for (const path of await listFiles(dir)) total += (await stat(path)).size;
  return total;
}

/** Where Node would find package `name` required from `fromDir`: the nearest node_modules up the tree. */
async function installedDir(name: string, fromDir: string): Promise<string> {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (await fileExists(join(candidate, 'package.json'))) return candidate;
    if (dir === dirname(dir) || relative(projectRoot, dir).startsWith('..')) break;
  }
  throw new Error(`${name} is not installed in this repository (run npm install)`);
}

interface Manifest {
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

/**
 * Every package the runtime dependencies of the package in `dir` need, found in this
 * repository's node_modules from `resolveFrom` (the package's own folder, or its source folder
 * for a staged copy).
 */
export async function runtimeClosure(
  dir: string,
  resolveFrom = dir,
  found = new Map<string, string>(),
): Promise<Map<string, string>> {
  const manifest = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as Manifest;
  const required = [
    ...Object.keys(manifest.dependencies ?? {}),
    ...Object.keys(manifest.peerDependencies ?? {}).filter((name) => !manifest.peerDependenciesMeta?.[name]?.optional),
  ];
  for (const name of required) {
    if (found.has(name)) continue;
    const at = await installedDir(name, resolveFrom);
    found.set(name, at);
    await runtimeClosure(at, at, found);
  }
  return found;
}

/** The unpacked bytes of each folder as `npm pack` would take it (no scripts run: the folders are built). */
function packedSizes(dirs: string[]): Promise<number[]> {
  return new Promise((resolve, reject) => {
    execFile(
      'npm',
      ['pack', '--dry-run', '--json', '--ignore-scripts', ...dirs],
      { cwd: projectRoot, maxBuffer: 32 * 1024 * 1024, env: { ...process.env, npm_config_update_notifier: 'false' } },
      (error, stdout, stderr) => {
        if (error) return reject(new Error(`npm pack --dry-run failed:\n${stdout}${stderr}`));
        const listing = JSON.parse(stdout.slice(stdout.indexOf('['))) as { unpackedSize: number }[];
        resolve(listing.map((pack) => pack.unpackedSize));
      },
    );
  });
}

/**
 * The widget's package as `npm install tryon-button` puts it in an empty project: what the
 * package at `widgetDir` packs (built, with its changelog) and what each of its runtime
 * dependencies packs, as this repository installed them. npm's own `.package-lock.json` (a few
 * KB) is all a real install adds.
 */
export async function widgetInstalledBytes(widgetDir: string, resolveFrom = widgetDir): Promise<number> {
  const dependencies = [...(await runtimeClosure(widgetDir, resolveFrom)).values()];
  return (await packedSizes([widgetDir, ...dependencies])).reduce((sum, bytes) => sum + bytes, 0);
}

/** What a shop installs or deploys, in bytes. */
export interface InstallSizes {
  widgetInstalled: number;
  shopifyExtension: number;
  workerBundle: number;
  workerBundleGzip: number;
}

/**
 * Measures InstallSizes: the built widget package at `widgetDir`, the Shopify extension folder at
 * `shopifyDir` (scripts/build.ts buildIntegrations), and the Worker bundle without a catalog,
 * built into `workerFile` (scripts/worker.ts; a catalog's images add to it).
 */
export async function installSizes(options: {
  widgetDir: string;
  shopifyDir: string;
  workerFile: string;
}): Promise<InstallSizes> {
  // Loaded here, not at the top: worker.ts brings Miniflare, which no other build step needs.
  const { buildWorker } = await import('./worker.js');
  const worker = await buildWorker({ outFile: options.workerFile });
  return {
    widgetInstalled: await widgetInstalledBytes(options.widgetDir),
    shopifyExtension: await sizeOf(options.shopifyDir),
    workerBundle: worker.bytes,
    workerBundleGzip: worker.gzipBytes,
  };
}

/** InstallSizes as the docs quote them. */
export function installFigures(sizes: InstallSizes): Record<InstallSizeFigure, string> {
  return {
    'widget-installed': mb(sizes.widgetInstalled),
    'shopify-extension': mb(sizes.shopifyExtension),
    'worker-bundle': kib(sizes.workerBundle),
    'worker-bundle-gzip': kib(sizes.workerBundleGzip),
  };
}

type Figures = Partial<Record<SizeFigure, string>>;

const MARKER = /<!-- size:([a-z-]+) -->([^<]*)<!-- \/size -->/g;

/** Every marker in `text`: its name and the figure quoted. */
export function quotedSizes(text: string): { name: string; quoted: string }[] {
  return [...text.matchAll(MARKER)].map((m) => ({ name: m[1]!, quoted: m[2]! }));
}

const known = (name: string): name is SizeFigure => (SIZE_FIGURES as readonly string[]).includes(name);

/**
 * `text` with every marker's figure replaced by the measured one in `figures`; a marker whose
 * figure was not measured keeps its own; an unknown name is an error.
 */
export function withSizeFigures(text: string, figures: Figures, file = 'text'): string {
  return text.replace(MARKER, (whole, name: string) => {
    if (!known(name)) throw new Error(`${file}: no size figure named "${name}" (known: ${SIZE_FIGURES.join(', ')})`);
    const figure = figures[name];
    return figure === undefined ? whole : `<!-- size:${name} -->${figure}<!-- /size -->`;
  });
}

/** Writes the figures into every marker of QUOTING_FILES under `root`; returns the files it changed. */
export async function writeSizeFigures(root: string, figures: Figures): Promise<string[]> {
  const changed: string[] = [];
  for (const file of QUOTING_FILES) {
    const path = join(root, file);
    const text = await readFile(path, 'utf8').catch(() => undefined);
    if (text === undefined) continue;
    const next = withSizeFigures(text, figures, file);
    if (next !== text) {
      await writeFile(path, next);
      changed.push(file);
    }
  }
  return changed;
}

/**
 * Each quoted figure that is not the measured one: "README.md: first-script says 7.5 KB, the
 * build is 7.6 KB". Only the names in `figures` are compared; an unknown name is always reported.
 */
export async function staleSizeFigures(root: string, figures: Figures): Promise<string[]> {
  const stale: string[] = [];
  for (const file of QUOTING_FILES) {
    const text = await readFile(join(root, file), 'utf8').catch(() => '');
    for (const { name, quoted } of quotedSizes(text)) {
      if (!known(name)) {
        stale.push(`${file}: no size figure named "${name}"`);
        continue;
      }
      const measured = figures[name];
      if (measured === undefined) continue;
      if (quoted !== measured)
        stale.push(`${file}: ${name} says ${quoted}, the build is ${measured} (npm run build writes it)`);
    }
  }
  return stale;
}
