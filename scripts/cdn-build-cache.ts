// The CDN build, made once for each state of what it is built from, then copied where it is wanted.
// The demo builds the widget at every start, and two dozen test files across the node, e2e and
// widget suites build it as a shop gets it: each build is seconds of CPU for the same files. The
// key is a hash of everything the build reads that this repository can change: the widget's
// sources, the build scripts, Vite's and TypeScript's configs, the package manifests and the
// lockfile. A change to any of them builds afresh; the test of the build itself (build.test.ts)
// always calls buildCdn. Builds with other options (an entry, an import map base) are not kept.
import { createHash, randomUUID } from 'node:crypto';
import { cp, mkdir, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileExists, measure, projectRoot } from './build-files.js';
import type { BuildResult } from './build-files.js';
import { buildCdn } from './build-widget.js';

/** Where the kept builds live, one folder per key (the newest few are kept). */
const CACHE = join(projectRoot, '.cache/cdn-build');
const KEPT = 3;
/** A build under way elsewhere is waited for this long before this process builds on its own. */
const WAIT_MS = 180_000;

/** Folders and files the CDN build reads, relative to the project's root. */
const INPUTS = ['widget', 'scripts', 'vite.config.ts', 'tsconfig.json', 'package.json', 'package-lock.json'];
const SKIPPED = new Set(['dist', 'node_modules']);

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
export async function cdnBuildKey(root = projectRoot): Promise<string> {
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

/** The kept build for `key`, built now (by this process, or by another one already at it) if there is none. */
async function keptBuild(key: string): Promise<string> {
  const kept = join(CACHE, key);
  const done = join(kept, '.complete');
  if (await fileExists(done)) return kept;
  await mkdir(CACHE, { recursive: true });
  const lock = join(CACHE, `${key}.lock`);
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
    const building = join(CACHE, `building-${randomUUID()}`);
    await buildCdn({ outDir: building, quiet: true });
    await writeFile(join(building, '.complete'), `${new Date().toISOString()}\n`);
    await rm(kept, { recursive: true, force: true });
    await rename(building, kept);
    await forgetOldBuilds(key);
    return kept;
  } finally {
    await rm(lock, { recursive: true, force: true });
  }
}

/** Keeps the newest builds only: every change of the sources makes another. */
async function forgetOldBuilds(current: string): Promise<void> {
  const folders = (await readdir(CACHE, { withFileTypes: true })).filter(
    (entry) => entry.isDirectory() && /^[0-9a-f]{24}$/.test(entry.name) && entry.name !== current,
  );
  const dated = await Promise.all(
    folders.map(async (entry) => ({ name: entry.name, at: (await stat(join(CACHE, entry.name))).mtimeMs })),
  );
  for (const old of dated.sort((a, b) => b.at - a.at).slice(KEPT - 1))
    await rm(join(CACHE, old.name), { recursive: true, force: true });
}

/**
 * The CDN build (buildCdn's, with its default options) in `outDir`: copied from the build kept for
 * the sources as they are now, made first if there is none.
 */
export async function cachedCdnBuild(outDir: string): Promise<BuildResult> {
  const kept = await keptBuild(await cdnBuildKey());
  await mkdir(outDir, { recursive: true });
  await cp(kept, outDir, { recursive: true, filter: (source) => !source.endsWith('.complete') });
  return { outDir, files: await measure(outDir) };
}
