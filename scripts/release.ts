// `npm run release`: what a release publishes, under dist/release/ (emptied first):
// - the three packages' tarballs, from `npm pack --workspaces` (each package's `prepack` builds it);
// - tryon-button-wordpress.zip: the WordPress plugin folder with the built widget inside, one
//   top-level folder `tryon-button/`, as WordPress's "Upload Plugin" screen takes it;
// - tryon-button-shopify-extension.zip: the Shopify theme app extension folder (`tryon-extension/`);
// - SHA256SUMS, in `sha256sum -c` format;
// - RELEASE-NOTES.md: the newest section of CHANGELOG.md, then the ready `<head>` snippet that pins
//   every script of this version on jsDelivr (its import map with integrity, and the entry's tag).
// The platform folders are scripts/build.ts buildIntegrations(), the code the platform tests use.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  buildIntegrations,
  checkWrittenImportMap,
  IMPORT_MAP_FILE,
  importMapSnippet,
  jsdelivrBase,
  PACKAGES,
  projectRoot,
  type ImportMap,
} from './build.js';
import { zipFolder } from './zip.js';

export const RELEASE_FILES = {
  wordpress: 'tryon-button-wordpress.zip',
  shopify: 'tryon-button-shopify-extension.zip',
  sums: 'SHA256SUMS',
  notes: 'RELEASE-NOTES.md',
} as const;

export interface Release {
  dir: string;
  /** File names in `dir`, sorted. */
  files: string[];
  tarballs: string[];
}

function npm(args: string[], cwd: string): Promise<string> {
  return new Promise((resolveRun, reject) => {
    execFile(
      'npm',
      args,
      { cwd, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, npm_config_update_notifier: 'false' } },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`npm ${args.join(' ')} failed:\n${stdout}${stderr}`));
        else resolveRun(stdout);
      },
    );
  });
}

/**
 * The newest section of a changelog written as `## <version> …` headings (Keep a Changelog):
 * its heading and body, up to the next `## `.
 */
/**
 * The plugin as WordPress's **Upload Plugin** takes it: one top-level folder, `tryon-button/`. The
 * real-WordPress tests install this same zip through WordPress's own upgrader.
 */
export function wordpressZip(pluginFolder: string): Promise<Buffer> {
  return zipFolder(pluginFolder, 'tryon-button');
}

export function newestSection(changelog: string): { version: string; text: string } {
  const start = changelog.search(/^## /m);
  if (start === -1) throw new Error('CHANGELOG.md has no "## <version>" section');
  const rest = changelog.slice(start);
  const next = rest.slice(3).search(/^## /m);
  const text = (next === -1 ? rest : rest.slice(0, next + 3)).trim();
  const version = /^## \[?v?([\w.+-]+)\]?/.exec(text)?.[1];
  if (!version) throw new Error(`CHANGELOG.md's newest heading names no version: ${text.split('\n')[0]}`);
  return { version, text };
}

/**
 * The release note's closing section: the snippet a page pastes to pin every script of this version
 * served by jsDelivr, from the CDN build's own importmap.json, refused unless that map matches the
 * packed build's bytes.
 */
export async function pinningSection(cdnDir: string, version: string): Promise<string> {
  const problems = await checkWrittenImportMap(cdnDir);
  if (problems.length > 0) throw new Error(`${IMPORT_MAP_FILE} does not pin the CDN build:\n${problems.join('\n')}`);
  const map = JSON.parse(await readFile(join(cdnDir, IMPORT_MAP_FILE), 'utf8')) as ImportMap;
  const snippet = importMapSnippet(map, jsdelivrBase(version));
  return [
    '### Pin every script (jsDelivr)',
    '',
    `Paste this into the page's \`<head>\`, before any other module script, to load tryon-button ${version} from jsDelivr with every chunk checked by browsers that honour import-map integrity (docs/integrations/script-tag.md, "Pin every chunk"). Its hashes are this release's. A page with a Content-Security-Policy allows the inline map with \`${snippet.cspHash}\` in \`script-src\`, beside \`https://cdn.jsdelivr.net\`.`,
    '',
    '```html',
    snippet.html,
    '```',
  ].join('\n');
}

/** `sha256sum` lines for `files` in `dir`. */
export async function checksums(dir: string, files: string[]): Promise<string> {
  const lines = await Promise.all(
    files.map(
      async (file) =>
        `${createHash('sha256')
          .update(await readFile(join(dir, file)))
          .digest('hex')}  ${file}`,
    ),
  );
  return `${lines.join('\n')}\n`;
}

export async function release(dir = join(projectRoot, 'dist/release')): Promise<Release> {
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });

  // Every package's version must be the changelog's newest: the note describes these tarballs.
  const { version, text } = newestSection(await readFile(join(projectRoot, 'CHANGELOG.md'), 'utf8'));
  for (const [name, folder] of Object.entries(PACKAGES)) {
    const manifest = JSON.parse(await readFile(join(folder, 'package.json'), 'utf8')) as { version: string };
    if (manifest.version !== version)
      throw new Error(`${name} is version ${manifest.version}, but CHANGELOG.md's newest section is ${version}`);
  }

  // prepack builds each package into its own dist/ before npm packs it.
  // The prepack builds print to the same stdout: the JSON is the last top-level array.
  const output = await npm(['pack', '--workspaces', '--json', '--pack-destination', dir], projectRoot);
  const packed = JSON.parse(output.slice([...output.matchAll(/^\[$/gm)].pop()?.index ?? 0)) as { filename: string }[];
  const tarballs = packed.map((p) => p.filename).sort();

  const workDir = join(projectRoot, 'dist');
  const [shopify, wordpress] = await buildIntegrations(join(PACKAGES['tryon-button'], 'dist/cdn'), workDir);
  await writeFile(join(dir, RELEASE_FILES.wordpress), await wordpressZip(wordpress!));
  await writeFile(join(dir, RELEASE_FILES.shopify), await zipFolder(shopify!, 'tryon-extension'));
  const pinning = await pinningSection(join(PACKAGES['tryon-button'], 'dist/cdn'), version);
  await writeFile(join(dir, RELEASE_FILES.notes), `${text}\n\n${pinning}\n`);

  const artifacts = [...tarballs, RELEASE_FILES.wordpress, RELEASE_FILES.shopify, RELEASE_FILES.notes].sort();
  await writeFile(join(dir, RELEASE_FILES.sums), await checksums(dir, artifacts));
  return { dir, files: (await readdir(dir)).sort(), tarballs };
}

function isMain(): boolean {
  const script = process.argv[1];
  return script !== undefined && fileURLToPath(import.meta.url) === resolve(script);
}

if (isMain()) {
  release()
    .then(async (done) => {
      console.log(`\nRelease in ${done.dir}:`);
      const sums = await readFile(join(done.dir, RELEASE_FILES.sums), 'utf8');
      for (const line of sums.trim().split('\n')) console.log(`  ${line}`);
      console.log(`  ${RELEASE_FILES.sums}`);
    })
    .catch((error: unknown) => {
      console.error(`release failed: ${(error as Error).message}`);
      process.exit(1);
    });
}
