// The packages' import graph, read with the compiler's own import scanner (`ts.preProcessFile`), so
// type-only imports, `export … from` and dynamic `import()` all count. Two kinds the scanner does not
// report count as well: a worker's `new URL('./file.js', import.meta.url)`, and (for the folder rules,
// where only the folder matters) a dynamic import of a template (`import(`./${code}.ts`)`), which may
// load any file of its folder.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export function sourcesUnder(dir: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) found.push(...sourcesUnder(path));
    else if (/\.(ts|tsx|mts)$/.test(name) && !name.endsWith('.d.ts')) found.push(path);
  }
  return found;
}

/** Resolves a relative specifier the way the project writes them (`./x.js` for `./x.ts`); bare names are leaves. */
function resolveSpecifier(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(dirname(from), specifier);
  const stem = base.replace(/\.(js|mjs|ts|mts)$/, '');
  for (const candidate of [`${stem}.ts`, `${stem}.tsx`, `${stem}.mts`, join(base, 'index.ts')]) {
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

const workerUrl = /new URL\(\s*['"](\.[^'"]+)['"]\s*,\s*import\.meta\.url\s*\)/g;
const templateImport = /import\(\s*`(\.[^`$]*)\$\{/g;

/** What one file imports: resolved paths of files in the project; with `templates`, every file a template import may load. */
export function importsOf(file: string, { templates = false } = {}): string[] {
  const source = readFileSync(file, 'utf8');
  const targets = ts
    .preProcessFile(source, true, true)
    .importedFiles.map((imported) => resolveSpecifier(file, imported.fileName));
  for (const [, specifier] of source.matchAll(workerUrl)) targets.push(resolveSpecifier(file, specifier!));
  for (const [, prefix] of templates ? source.matchAll(templateImport) : []) {
    const folder = resolve(dirname(file), dirname(`${prefix}x`));
    if (existsSync(folder)) targets.push(...sourcesUnder(folder).filter((path) => dirname(path) === folder));
  }
  return [...new Set(targets.filter((target): target is string => target !== undefined && target !== file))];
}

/** file → the project files it imports, for every TypeScript source under the given folders. */
export function importGraph(folders: readonly string[], options: { templates?: boolean } = {}): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const folder of folders) {
    for (const file of sourcesUnder(join(root, folder))) graph.set(file, importsOf(file, options));
  }
  return graph;
}
