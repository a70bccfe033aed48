// A package's folders as layers: which folder imports which, read from the sources with the
// compiler's own import scanner (type-only imports, `export … from` and dynamic `import()` count, as
// in test/architecture/import-cycles.test.ts), checked against the table the architecture map states.
// Shared by test/proxy/layers.test.ts and test/sandbox/layers.test.ts.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** A folder of the package (`.` for its root) and the folders it may import besides itself. */
export type LayerRules = Record<string, readonly string[]>;

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) return [];
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourcesUnder(path);
    return /\.ts$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

function resolveSpecifier(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const stem = resolve(dirname(from), specifier).replace(/\.(js|ts)$/, '');
  return existsSync(`${stem}.ts`) ? `${stem}.ts` : undefined;
}

/** Every import from one folder of `pkg` into another, as `folder → folder: file imports target`. */
export function folderImports(pkg: string): { from: string; to: string; line: string }[] {
  const base = join(projectRoot, pkg);
  const folderOf = (file: string) => dirname(relative(base, file)).split('\\').join('/');
  const found: { from: string; to: string; line: string }[] = [];
  for (const file of sourcesUnder(base)) {
    for (const imported of ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles) {
      const target = resolveSpecifier(file, imported.fileName);
      if (!target || relative(base, target).startsWith('..')) continue;
      const from = folderOf(file);
      const to = folderOf(target);
      if (from !== to)
        found.push({ from, to, line: `${relative(base, file)} imports ${relative(base, target)} (${from} → ${to})` });
    }
  }
  return found;
}

/** The imports the rules do not allow, and the folders the rules do not name. */
export function layerViolations(pkg: string, rules: LayerRules): string[] {
  const problems: string[] = [];
  const folders = new Set(
    sourcesUnder(join(projectRoot, pkg)).map((file) =>
      dirname(relative(join(projectRoot, pkg), file))
        .split('\\')
        .join('/'),
    ),
  );
  for (const folder of folders) if (!(folder in rules)) problems.push(`${pkg}/${folder} has no row in the rules`);
  for (const edge of folderImports(pkg)) {
    if (!rules[edge.from]?.includes(edge.to)) problems.push(edge.line);
  }
  return problems;
}
