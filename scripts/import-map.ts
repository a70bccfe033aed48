// The CDN build's import map with `integrity`: the sha384 of every script in dist/cdn, keyed by the
// URL the browser will fetch it from. The script tag's `integrity` covers only the entry; the core,
// the panel and every lazy chunk arrive by `import()`, which carries no attribute, so without this
// a CDN that served other bytes under a chunk's name would run them. A browser that honours
// import-map integrity refuses any module of the page whose URL is in the map and whose bytes do not
// match (docs/security.md, "Subresource Integrity").
//
// The keys are URLs, resolved against the page (not against the CDN): the map is written for one
// folder URL, `base`. buildCdn() writes dist/cdn/importmap.json for the package's exact version on
// jsDelivr; a shop serving the files elsewhere writes its own folder URL in place of that prefix,
// or builds with `npm run build -- --import-map-base <url>` (docs/integrations/script-tag.md).
import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { listFiles } from './build-files.js';
import { sriHash } from './build-budgets.js';

/** The file every CDN build writes beside its scripts. */
export const IMPORT_MAP_FILE = 'importmap.json';

export interface ImportMap {
  /** None: the widget imports its chunks by relative URL, never by bare name. Present for pasting beside a shop's own entries. */
  imports: Record<string, string>;
  /** Resolved script URL → `sha384-…`. */
  integrity: Record<string, string>;
}

/** The folder of the CDN build of `version` on jsDelivr: the package's own public CDN and the map's default base. */
export function jsdelivrBase(version: string): string {
  return `https://cdn.jsdelivr.net/npm/tryon-button@${version}/dist/cdn/`;
}

/**
 * A base must name a folder the way a browser resolves it: an absolute http(s) URL or a path from
 * the site's root, ending in `/`. A relative one (`./`, `widget/`) would resolve against each page's
 * own address, so no key would match a chunk's URL and nothing would be checked, silently.
 */
export function checkBase(base: string): void {
  const absolute = /^https?:\/\/[^/]+\//i.test(base);
  const rootPath = base.startsWith('/') && !base.startsWith('//');
  if (!(absolute || rootPath) || !base.endsWith('/'))
    throw new Error(
      `the import map's base must be an http(s) URL or a path from the site's root, ending in "/" (e.g. /widget/ or https://cdn.example.com/tryon/), not ${JSON.stringify(base)}`,
    );
}

/** Every script the build emitted (entry, chunks, workers), as paths inside `outDir` with forward slashes. */
async function scriptsIn(outDir: string): Promise<string[]> {
  return (await listFiles(outDir))
    .filter((path) => path.endsWith('.js'))
    .map((path) => relative(outDir, path).split('\\').join('/'));
}

/** The import map for the scripts in `outDir`, served from the folder URL `base`. */
export async function importMapFor(outDir: string, base: string): Promise<ImportMap> {
  checkBase(base);
  const integrity: Record<string, string> = {};
  for (const file of await scriptsIn(outDir)) integrity[`${base}${file}`] = await sriHash(join(outDir, file));
  return { imports: {}, integrity };
}

/** Writes `<outDir>/importmap.json` for `base`; returns the map. */
export async function writeImportMap(outDir: string, base: string): Promise<ImportMap> {
  const map = await importMapFor(outDir, base);
  await writeFile(join(outDir, IMPORT_MAP_FILE), `${JSON.stringify(map, null, 2)}\n`);
  return map;
}

/** The base a written map's keys share (they are all `<base><file>`), or undefined when it has none. */
export function baseOf(map: ImportMap): string | undefined {
  const keys = Object.keys(map.integrity);
  const first = keys[0];
  if (first === undefined) return undefined;
  const base = first.slice(0, first.lastIndexOf('/') + 1);
  return keys.every((key) => key.startsWith(base) && !key.slice(base.length).includes('/')) ? base : undefined;
}

/**
 * What is wrong with `map` for the scripts now in `outDir`: a script with no entry (a chunk or
 * worker added after the map was written), an entry whose hash is not its file's, an entry for a
 * file that is not there. Empty when every script is pinned by its own bytes.
 */
export async function checkImportMap(outDir: string, map: ImportMap, base: string): Promise<string[]> {
  const problems: string[] = [];
  const scripts = await scriptsIn(outDir);
  for (const file of scripts) {
    const expected = map.integrity[`${base}${file}`];
    const actual = await sriHash(join(outDir, file));
    if (expected === undefined) problems.push(`${file} is not in the import map (no entry for ${base}${file})`);
    else if (expected !== actual)
      problems.push(`${file} does not match the import map: its bytes hash to ${actual}, the map says ${expected}`);
  }
  for (const key of Object.keys(map.integrity)) {
    if (!key.startsWith(base) || !scripts.includes(key.slice(base.length)))
      problems.push(`the import map pins ${key}, which is not a script of this build`);
  }
  return problems;
}

/** Reads `<outDir>/importmap.json` and checks it against the scripts beside it (see checkImportMap). */
export async function checkWrittenImportMap(outDir: string): Promise<string[]> {
  const text = await readFile(join(outDir, IMPORT_MAP_FILE), 'utf8').catch(() => undefined);
  if (text === undefined) return [`${IMPORT_MAP_FILE} is missing from ${outDir}`];
  const map = JSON.parse(text) as ImportMap;
  const base = baseOf(map);
  if (base === undefined) return [`${IMPORT_MAP_FILE} has no entries under one folder URL`];
  return checkImportMap(outDir, map, base);
}

/** The inline map's text exactly as the snippet writes it between its tags (what a CSP hash covers). */
function inlineMapText(map: ImportMap): string {
  return `\n${JSON.stringify(map, null, 2)}\n`;
}

/**
 * What a page pastes into its `<head>`: the map, then the entry with its own `integrity` (which
 * browsers without import-map integrity still check). The map must come before any module script.
 * `cspHash` is the `script-src` source that allows the inline map on a page with a
 * Content-Security-Policy.
 */
export function importMapSnippet(map: ImportMap, base: string): { html: string; cspHash: string } {
  const entry = `${base}tryon-button.js`;
  const hash = map.integrity[entry];
  if (!hash) throw new Error(`the import map has no entry for ${entry}`);
  const text = inlineMapText(map);
  return {
    html: [
      `<script type="importmap">${text}</script>`,
      `<script type="module" src="${entry}" integrity="${hash}" crossorigin="anonymous"></script>`,
    ].join('\n'),
    cspHash: `'sha256-${createHash('sha256').update(text).digest('base64')}'`,
  };
}
