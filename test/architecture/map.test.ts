// The map (docs/architecture.md) must match the code, so a newcomer can trust it: every source module
// of every package has a row, and every row names modules that exist. The convention the map follows:
//
//   <!-- map: widget/ -->
//   | Module | Its one job |
//   |---|---|
//   | `run/tryon-run.ts` | … |
//   | `store/redis.ts`, `store/redis-keys.ts` | … |
//   | `i18n/<code>.ts` | … |
//
// A `<!-- map: folder/ -->` line opens that folder's part of the map; every table row after it, up to
// the next such line (or a `<!-- folders: … -->` rule), names modules in its first cell, as backticked
// paths from that folder. A `<name>` in a path stands for any part of one file name (`i18n/<code>.ts`
// is every dictionary). A row that names an export in its other cells credits it to its own modules.
//
// Since other work moves and adds modules, each failure names the module and what to do about it.
//
// A sibling check: the project cites no document outside itself (the hosted API's own description,
// design notes): what it relies on from the hosted API is written in docs/upstream-api.md.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const mapFile = 'docs/architecture.md';
const folders = ['widget/', 'proxy/', 'sandbox/', 'demo/', 'scripts/', 'integrations/'];
const sourceFile = /\.(ts|tsx|js|mjs)$/;

/** Tracked files and new ones not ignored (so build output never counts, and a module not yet committed does). */
function projectFiles(...paths: string[]): string[] {
  const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z', '--', ...paths], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return [...new Set(out.split('\0').filter(Boolean))].sort();
}

/** Every source module of every package: TypeScript and JavaScript, no declarations, no build output, no tests. */
function sourceModules(): string[] {
  return projectFiles(...folders).filter(
    (path) =>
      sourceFile.test(path) &&
      !path.endsWith('.d.ts') &&
      !path.split('/').includes('dist') &&
      !path.split('/').includes('node_modules') &&
      !/\.test\.[a-z]+$/.test(path),
  );
}

interface MapRow {
  folder: string;
  line: number;
  paths: string[]; // as written in the row, from the folder
  named: string[]; // backticked names in its other cells (`createProxy`, `sendPhoto()`)
  cited: string[]; // backticked module paths in its other cells (`app.ts`), whose exports it may name too
}

/** The module rows of the map, by the convention above. */
function mapRows(text: string): MapRow[] {
  const rows: MapRow[] = [];
  let folder: string | undefined;
  text.split('\n').forEach((raw, index) => {
    const marker = /^<!--\s*map:\s*(\S+)\s*-->\s*$/.exec(raw.trim());
    if (marker?.[1]) {
      folder = marker[1].endsWith('/') ? marker[1] : `${marker[1]}/`;
      return;
    }
    if (/^<!--\s*folders:/.test(raw.trim())) {
      folder = undefined; // a package's folder rule (test/architecture/folder-rules.test.ts), not module rows
      return;
    }
    if (!folder || !raw.startsWith('|')) return;
    const firstCell = raw.split('|')[1] ?? '';
    if (/^\s*:?-{3,}/.test(firstCell) || /^\s*Module\s*$/i.test(firstCell)) return; // the header and its rule
    const paths = [...firstCell.matchAll(/`([^`]+)`/g)].map((m) => m[1] as string);
    const rest = raw.split('|').slice(2).join('|');
    const named = [...rest.matchAll(/`([A-Za-z_$][\w$]*)(?:\(\))?`/g)].map((m) => m[1] as string);
    const cited = [...rest.matchAll(/`([\w./-]+\.(?:ts|js))`/g)].map((m) => m[1] as string);
    rows.push({ folder, line: index + 1, paths, named, cited });
  });
  return rows;
}

function matcher(folder: string, written: string): RegExp {
  const pattern = (folder + written)
    .split(/(<[^>/]+>)/)
    .map((part) => (/^<[^>/]+>$/.test(part) ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${pattern}$`);
}

const map = readFileSync(join(root, mapFile), 'utf8');
const rows = mapRows(map);

test('the map has a part for every package folder', () => {
  const mapped = new Set(rows.map((row) => row.folder));
  const missing = folders.filter((folder) => !mapped.has(folder));
  assert.deepEqual(missing, [], `${mapFile} has no "<!-- map: folder/ -->" part with module rows for: ${missing}`);
});

test('every source module has a row in the map', () => {
  const patterns = rows.flatMap((row) => row.paths.map((path) => matcher(row.folder, path)));
  const unmapped = sourceModules().filter((module) => !patterns.some((pattern) => pattern.test(module)));
  assert.deepEqual(
    unmapped,
    [],
    `${mapFile} does not mention ${unmapped.length} module(s); add a row naming each as \`path/from/its/folder\` ` +
      `under that folder's "<!-- map: folder/ -->" line, with its one job:\n  ${unmapped.join('\n  ')}`,
  );
});

test('every module the map names exists', () => {
  const modules = sourceModules();
  const stale = rows.flatMap((row) =>
    row.paths
      .filter((path) => !sourceFile.test(path) || !modules.some((module) => matcher(row.folder, path).test(module)))
      .map((path) => `${mapFile}:${row.line}: \`${path}\` (under ${row.folder}) names no source module`),
  );
  assert.deepEqual(
    stale,
    [],
    `the map names modules that are not there (moved, renamed or deleted: fix or remove the row):\n  ${stale.join('\n  ')}`,
  );
});

test('the map is read by its convention (a row with no module path is a mistake, not prose)', () => {
  const empty = rows.filter((row) => row.paths.length === 0).map((row) => `${mapFile}:${row.line}`);
  assert.deepEqual(empty, [], `these table rows under a map line name no module in their first cell:\n  ${empty}`);
});

/** The names a module exports, read from its syntax tree (declarations, `export { … }` and `export … from`). */
function exportedNames(path: string): Set<string> {
  const source = ts.createSourceFile(path, readFileSync(join(root, path), 'utf8'), ts.ScriptTarget.Latest);
  const names = new Set<string>();
  for (const statement of source.statements) {
    if (ts.isExportDeclaration(statement) && statement.exportClause && ts.isNamedExports(statement.exportClause)) {
      for (const element of statement.exportClause.elements) names.add(element.name.text);
      continue;
    }
    const exported = ts.canHaveModifiers(statement)
      ? ts.getModifiers(statement)?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword)
      : false;
    if (!exported) continue;
    if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        if (ts.isIdentifier(declaration.name)) names.add(declaration.name.text);
      }
    } else if (
      (ts.isFunctionDeclaration(statement) ||
        ts.isClassDeclaration(statement) ||
        ts.isInterfaceDeclaration(statement) ||
        ts.isTypeAliasDeclaration(statement) ||
        ts.isEnumDeclaration(statement)) &&
      statement.name
    ) {
      names.add(statement.name.text);
    }
  }
  return names;
}

// A row that names an export in backticks credits it to the row's modules, or to a module the row
// cites beside it (`createProxy` (`app.ts`)); naming an export of another module is the error that
// makes a map untrue without failing the row checks above (`proxyOptionsFrom` credited to the wrong
// file). Backticked words that no module of the folder exports (`lit`, `preview: "off"`) are prose
// and are not checked.
test("every export a row names is exported by the row's own modules", () => {
  const modules = sourceModules();
  const exportsOf = new Map(modules.map((module) => [module, exportedNames(module)]));
  const wrong: string[] = [];
  for (const row of rows) {
    const own = modules.filter((module) =>
      [...row.paths, ...row.cited].some((path) => matcher(row.folder, path).test(module)),
    );
    const ownNames = new Set(own.flatMap((module) => [...(exportsOf.get(module) ?? [])]));
    for (const name of row.named) {
      if (ownNames.has(name)) continue;
      const owners = modules.filter((module) => module.startsWith(row.folder) && exportsOf.get(module)?.has(name));
      if (owners.length > 0) wrong.push(`${mapFile}:${row.line}: \`${name}\` is exported by ${owners.join(', ')}`);
    }
  }
  assert.deepEqual(
    wrong,
    [],
    `rows credit exports to modules that do not export them (move the words to the right row):\n  ${wrong.join('\n  ')}`,
  );
});

// The hosted API's description and the design notes live outside the repository: a reference to them
// is a dead end for anyone with only the repository. docs/upstream-api.md is the project's own account.
const outsideReferences = [/DESIGN\.md/, /DESIGN part/, /tryon-api\.md/];

test('no tracked text file cites a document outside the repository', () => {
  const self = 'test/architecture/map.test.ts';
  const citing: string[] = [];
  for (const path of projectFiles('.')) {
    if (path === self) continue;
    let text: string;
    try {
      text = readFileSync(join(root, path), 'utf8');
    } catch {
      continue; // listed but absent (deleted in the work tree)
    }
    if (text.includes('\0')) continue; // binary
    text.split('\n').forEach((line, index) => {
      if (outsideReferences.some((pattern) => pattern.test(line))) citing.push(`${path}:${index + 1}: ${line.trim()}`);
    });
  }
  assert.deepEqual(
    citing,
    [],
    `these lines cite a document outside the repository; cite docs/upstream-api.md (the hosted API as the ` +
      `project relies on it) or say it in place:\n  ${citing.join('\n  ')}`,
  );
});
