// The workspace packages as npm publishes them, for the packaging tests: each package's folder
// copied as `npm pack` takes it (package.json, README, LICENSE, the committed files its `files`
// names, the repository's CHANGELOG.md as `prepack` copies it), built into that copy with the same functions its `prepack` runs, and packed with
// `npm pack --ignore-scripts`. Building into a copy, not into widget/dist etc., lets tests run
// beside each other and beside a developer's build. `npm pack --workspaces` itself (prepack
// building in place) is what `npm run release` runs.
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cachedCdnBuild, copyKept, keptBuild } from '../../scripts/kept-builds.js';
import {
  buildNpm,
  buildProxy,
  copyChangelog,
  buildSandbox,
  fileExists,
  writeJsdelivrEntry,
  PACKAGES,
  type PackageName,
} from '../../scripts/build.js';

export interface PackageManifest {
  name: string;
  version: string;
  files?: string[];
  scripts?: Record<string, string>;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  bin?: Record<string, string>;
  exports?: Record<string, string | Record<string, string>>;
  [field: string]: unknown;
}

export function run(
  command: string,
  args: string[],
  cwd: string,
  env: Record<string, string | undefined> = {},
): Promise<{ code: number; output: string; stdout: string }> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      {
        cwd,
        timeout: 300_000,
        maxBuffer: 32 * 1024 * 1024,
        env: { ...process.env, npm_config_update_notifier: 'false', ...env },
      },
      (error, stdout, stderr) => {
        resolve({
          code: error ? (typeof error.code === 'number' ? error.code : 1) : 0,
          output: `${stdout}${stderr}`,
          stdout,
        });
      },
    );
  });
}

export async function readManifest(dir: string): Promise<PackageManifest> {
  return JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as PackageManifest;
}

/** The package's folder as npm would pack it, built: returns the copy's path. */
export async function stagePackage(name: PackageName, into: string): Promise<string> {
  const stage = join(into, name);
  // The widget's package (its two builds and tsc's declarations, seconds of CPU) is staged once
  // for each state of its sources and copied (scripts/kept-builds.ts); the servers' are quick.
  if (name === 'tryon-button')
    await copyKept(await keptBuild('tryon-button-package', (dir) => build(name, dir)), stage);
  else await build(name, stage);
  // After the kept copy: the changelog changes more often than the widget and is no input of its build.
  await copyChangelog(stage);
  return stage;
}

async function build(name: PackageName, stage: string): Promise<void> {
  const source = PACKAGES[name];
  await mkdir(stage, { recursive: true });
  const manifest = await readManifest(source);
  for (const file of [
    'package.json',
    'README.md',
    'LICENSE',
    ...(manifest.files ?? []).filter((f) => !f.startsWith('dist') && f !== 'CHANGELOG.md'),
  ]) {
    if (await fileExists(join(source, file))) await cp(join(source, file), join(stage, file), { recursive: true });
  }
  if (name === 'tryon-button') {
    await cachedCdnBuild(join(stage, 'dist/cdn'));
    await writeJsdelivrEntry(join(stage, 'dist'), manifest.version);
    await buildNpm({ outDir: join(stage, 'dist/npm'), quiet: true, apiReference: false });
  } else if (name === 'tryon-proxy') {
    await buildProxy({ outDir: join(stage, 'dist'), quiet: true });
  } else {
    await buildSandbox({ outDir: join(stage, 'dist'), quiet: true });
  }
}

/** `npm pack` of a staged package into `destination`: the tarball's path. */
export async function packStaged(stage: string, destination: string): Promise<string> {
  await mkdir(destination, { recursive: true });
  const packed = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', destination], stage);
  if (packed.code !== 0) throw new Error(`npm pack failed:\n${packed.output}`);
  const [pack] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as { filename: string }[];
  return join(destination, pack!.filename);
}

/** Stages and packs the packages named, in a fresh temp folder: name → tarball. */
export async function packPackages(
  names: PackageName[],
): Promise<{ work: string; tarballs: Record<string, string>; stages: Record<string, string> }> {
  const work = await mkdtemp(join(tmpdir(), 'tryon-packages-'));
  const tarballs: Record<string, string> = {};
  const stages: Record<string, string> = {};
  // One at a time: the builds share the machine's two cores with other suites.
  for (const name of names) {
    stages[name] = await stagePackage(name, join(work, 'stage'));
    tarballs[name] = await packStaged(stages[name], join(work, 'tarballs'));
  }
  return { work, tarballs, stages };
}
