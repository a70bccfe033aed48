// `npm run build`: the widget for a script tag (dist/cdn) and for bundlers (dist/npm), the proxy
// as a package entry and a runnable server (dist/proxy), the custom-elements manifest and the API
// reference generated from it. Prints every file's size, the size budgets and the SRI hashes.
//
// The demo calls buildCdn() at every start, so it is quiet when asked and takes a fraction of a
// second.
import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';
import { cdnConfig } from '../vite.config.js';

export const projectRoot = fileURLToPath(new URL('..', import.meta.url));

export interface BuiltFile {
  /** Path relative to the build's outDir, with forward slashes. */
  file: string;
  bytes: number;
  /** Size after gzip -9, what a CDN sends. */
  gzip: number;
}

export interface BuildResult {
  outDir: string;
  files: BuiltFile[];
}

export interface BuildOptions {
  outDir?: string;
  quiet?: boolean;
  /** The element's entry module; tests point it elsewhere. Default widget/tryon-button.ts. */
  entry?: string;
}

async function listFiles(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...(await listFiles(path)));
    else found.push(path);
  }
  return found.sort();
}

export async function measure(outDir: string): Promise<BuiltFile[]> {
  const files: BuiltFile[] = [];
  for (const path of await listFiles(outDir)) {
    const bytes = await readFile(path);
    files.push({
      file: relative(outDir, path).split('\\').join('/'),
      bytes: bytes.length,
      gzip: gzipSync(bytes, { level: 9 }).length,
    });
  }
  return files;
}

/** The script-tag build: dist/cdn/tryon-button.js with Lit inside, the panel as a lazy chunk. */
export async function buildCdn(options: BuildOptions = {}): Promise<BuildResult> {
  const outDir = options.outDir ?? join(projectRoot, 'dist/cdn');
  await build(cdnConfig({ outDir, quiet: options.quiet ?? false, ...(options.entry ? { entry: options.entry } : {}) }));
  return { outDir, files: await measure(outDir) };
}

/** Subresource Integrity value for a file: what goes in `<script integrity="…">`. */
export async function sriHash(path: string): Promise<string> {
  const digest = createHash('sha384').update(await readFile(path)).digest('base64');
  return `sha384-${digest}`;
}

export async function fileExists(path: string): Promise<boolean> {
  return stat(path).then(() => true, () => false);
}

function isMain(): boolean {
  const script = process.argv[1];
  return script !== undefined && fileURLToPath(import.meta.url) === resolve(script);
}

if (isMain()) {
  const cdn = await buildCdn();
  for (const f of cdn.files) console.log(`${f.file.padEnd(32)} ${String(f.bytes).padStart(8)} B ${String(f.gzip).padStart(8)} B gz`);
}
