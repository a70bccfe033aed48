// The widget's builds, made once for each state of what they are built from, then copied where
// they are wanted. The demo builds the widget at every start, two dozen test files across the
// node, e2e and widget suites build it as a shop gets it, and three stage its npm package (tsc's
// declarations alone are seconds of CPU): each build is the same files again. The key is a hash of
// everything the builds read that this repository can change: the widget's sources, the build
// scripts, Vite's and TypeScript's configs, the package manifests and the lockfile. A change to any
// of them builds afresh; the test of the build itself (build.test.ts) always calls buildCdn.
// Builds with other options (an entry, an import map base) are not kept.
import { createHash, randomUUID } from 'node:crypto';
import { cp, mkdir, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileExists, measure, projectRoot } from './build-files.js';
import type { BuildResult } from './build-files.js';
import { buildCdn } from './build-widget.js';

/** Where the kept builds live, one folder per kind and key (the newest few of each kind are kept). */
const CACHE = join(projectRoot, '.cache/kept-builds');
const KEPT = 3;
/** A build under way elsewhere is waited for this long before this process builds on its own. */
const WAIT_MS = 180_000;

/** Folders and files the CDN build reads, relative to the project's root. */
const INPUTS = [
  'widget',
  'scripts',
  'vite.config.ts',
  'tsconfig.json',
  'tsconfig.base.json',
  'tsconfig.build.json',
  'package.json',
  'package-lock.json',
];
// widget/CHANGELOG.md is the repository's, copied in for packing (scripts/build.ts copyChangelog): no input.
const SKIPPED = new Set(['dist', 'node_modules', 'CHANGELOG.md']);

async function inputFiles(path: string): Promise<string[]> {
  const info = await stat(path).catch(() => undefined);
  if (!info) return [];
  if (!info.isDirectory()) return [path];
  const found: string[] = [];
  for (const entry of await readdir(path, { withFileTypes: true })) {
    if (SKIPPED.has(entry.name)) continue;
    found.push(...(await inputFiles(join(path, entry.name))));
  }
  return found;
}

/** The hash of every input's path and bytes under `root`: the same sources, the same key. */
export async function sourcesKey(root = projectRoot): Promise<string> {
  const hash = createHash('sha256');
  const files = (await Promise.all(INPUTS.map((input) => inputFiles(join(root, input))))).flat().sort();
  for (const file of files) {
    hash
      .update(relative(root, file))
      .update('\0')
      .update(await readFile(file))
      .update('\0');
  }
  return hash.digest('hex').slice(0, 24);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The folder kept for `kind` and the sources as they are now, made by `make` (in this process, or
 * waited for from another one already at it) when there is none.
 */
export async function keptBuild(kind: string, make: (outDir: string) => Promise<unknown>): Promise<string> {
  const folder = join(CACHE, kind);
  const key = await sourcesKey();
  const kept = join(folder, key);
  const done = join(kept, '.complete');
  if (await fileExists(done)) return kept;
  await mkdir(folder, { recursive: true });
  const lock = join(folder, `${key}.lock`);
  const started = Date.now();
  // mkdir is atomic: one process builds, the others wait for its folder to appear.
  while (
    !(await mkdir(lock).then(
      () => true,
      () => false,
    ))
  ) {
    if (await fileExists(done)) return kept;
    // A holder that died (a killed test run) leaves its lock: taken over once it is that old.
    const since = await stat(lock).then(
      (info) => Date.now() - info.mtimeMs,
      () => 0,
    );
    if (since > WAIT_MS || Date.now() - started > WAIT_MS) {
      await rm(lock, { recursive: true, force: true });
      continue;
    }
    await sleep(200);
  }
  try {
    if (await fileExists(done)) return kept;
    const building = join(folder, `building-${randomUUID()}`);
    await make(building);
    await writeFile(join(building, '.complete'), `${new Date().toISOString()}\n`);
    await rm(kept, { recursive: true, force: true });
    await rename(building, kept);
    await forgetOldBuilds(folder, key);
    return kept;
  } finally {
    await rm(lock, { recursive: true, force: true });
  }
}

/** Keeps the newest builds of a kind only: every change of the sources makes another. */
async function forgetOldBuilds(folder: string, current: string): Promise<void> {
  const builds = (await readdir(folder, { withFileTypes: true })).filter(
    (entry) => entry.isDirectory() && /^[0-9a-f]{24}$/.test(entry.name) && entry.name !== current,
  );
  const dated = await Promise.all(
    builds.map(async (entry) => ({ name: entry.name, at: (await stat(join(folder, entry.name))).mtimeMs })),
  );
  for (const old of dated.sort((a, b) => b.at - a.at).slice(KEPT - 1))
    await rm(join(folder, old.name), { recursive: true, force: true });
}

/** A kept folder's files copied into `outDir` (without its completion mark). */
export async function copyKept(kept: string, outDir: string): Promise<void> {
  await mkdir(outDir, { recursive: true });
  await cp(kept, outDir, { recursive: true, filter: (source) => source !== join(kept, '.complete') });
}

/**
 * The CDN build (buildCdn's, with its default options) in `outDir`: copied from the build kept for
 * the sources as they are now, made first if there is none.
 */
export async function cachedCdnBuild(outDir: string): Promise<BuildResult> {
  await copyKept(await keptBuild('cdn', (dir) => buildCdn({ outDir: dir, quiet: true })), outDir);
  return { outDir, files: await measure(outDir) };
}
