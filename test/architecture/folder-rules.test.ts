// Which folder of a package may import which is written once, in docs/architecture.md, and this test
// holds the code to it. The convention:
//
//   <!-- folders: widget/ -->
//   | Folder | May import |
//   |---|---|
//   | `i18n/` | nothing |
//   | `core/` | `i18n/` |
//   | `./` | `panel/`, `core/` |
//
// A `<!-- folders: package/ -->` line opens a package's rule; each table row after it names one
// top-level folder of the package in its first cell (`./` for the files at the package's root) and, in
// its second, every folder it may import. A subfolder belongs to its top folder (`photo/check/` is
// `photo/`), and a folder always imports itself. The rule must be a one-way order of layers: a rule that
// allows a cycle of folders fails, so no folder can lean on another that leans back on it; and a folder
// may import all that the folders it imports may (the row says so in full), so the drawing below can
// leave those arrows out without saying more than the rule.
//
// Below the table, a Mermaid flowchart draws the rule (`panel --> run`; `root` is `./`), with the edges
// the order implies left out: the test checks the drawing is exactly the rule's transitive reduction,
// and prints the drawing to paste when the rule changes.
import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { importGraph, root } from './import-graph.js';

const docFile = 'docs/architecture.md';
const packages = ['widget/', 'proxy/', 'sandbox/'];

type Rules = Map<string, { line: number; allowed: Set<string> }>;

/** The rule of each package, by the convention above. */
export function readRules(text: string): Map<string, Rules> {
  const all = new Map<string, Rules>();
  let current: Rules | undefined;
  text.split('\n').forEach((raw, index) => {
    const marker = /^<!--\s*folders:\s*(\S+?)\/?\s*-->$/.exec(raw.trim());
    if (marker) {
      current = new Map();
      all.set(`${marker[1]}/`, current);
      return;
    }
    if (!current) return;
    if (raw.startsWith('<!--') || raw.startsWith('#')) {
      current = undefined; // the next part of the document begins
      return;
    }
    if (!raw.startsWith('|')) return;
    const [, first = '', second = ''] = raw.split('|');
    if (/^\s*:?-{3,}/.test(first) || /^\s*Folder\s*$/i.test(first)) return;
    const folder = /`([^`]+)`/.exec(first)?.[1];
    if (!folder) throw new Error(`${docFile}:${index + 1}: a rule row names no folder in backticks`);
    const allowed = new Set([...second.matchAll(/`([^`]+)`/g)].map((m) => m[1] as string));
    current.set(folder, { line: index + 1, allowed });
  });
  return all;
}

/** A file's top folder in its package, written as the rule writes it (`photo/`, or `./` at the root). */
export function folderOf(pkg: string, file: string): string {
  const inside = relative(join(root, pkg), file).split('/');
  return inside.length > 1 ? `${inside[0]}/` : './';
}

/** Folders the rule allows to import each other round a loop, if any (a depth-first search for a back edge). */
export function loopIn(rules: Map<string, Set<string>>): string[] | undefined {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (folder: string): string[] | undefined => {
    state.set(folder, 'open');
    path.push(folder);
    for (const next of rules.get(folder) ?? []) {
      if (next === folder) continue;
      if (state.get(next) === 'open') return [...path.slice(path.indexOf(next)), next];
      if (!state.has(next)) {
        const loop = visit(next);
        if (loop) return loop;
      }
    }
    path.pop();
    state.set(folder, 'done');
    return undefined;
  };
  for (const folder of rules.keys()) {
    if (state.has(folder)) continue;
    const loop = visit(folder);
    if (loop) return loop;
  }
  return undefined;
}

/** The edges a Mermaid block after a package's marker draws, as `from → to` folder pairs. */
export function readDrawing(text: string, pkg: string): string[] | undefined {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => line.trim() === `<!-- folders: ${pkg} -->`);
  if (start < 0) return undefined;
  const open = lines.findIndex((line, index) => index > start && line.trim() === '```mermaid');
  const close = lines.findIndex((line, index) => index > open && line.trim() === '```');
  const heading = lines.findIndex((line, index) => index > start && /^#{1,3} /.test(line));
  if (open < 0 || close < 0 || (heading >= 0 && heading < open)) return undefined;
  const folder = (id: string) => (id === 'root' ? './' : `${id}/`);
  return lines
    .slice(open + 1, close)
    .map((line) => /^\s*([\w-]+)\s*-->\s*([\w-]+)\s*$/.exec(line))
    .filter((edge): edge is RegExpExecArray => edge !== null)
    .map(([, from, to]) => `${folder(from!)} → ${folder(to!)}`)
    .sort();
}

/** The rule's edges less those another path implies (a one-way order's transitive reduction). */
export function reduction(rules: Map<string, Set<string>>): string[] {
  const reach = (from: string, seen = new Set<string>()): Set<string> => {
    for (const next of rules.get(from) ?? []) {
      if (next === from || seen.has(next)) continue;
      seen.add(next);
      reach(next, seen);
    }
    return seen;
  };
  const kept: string[] = [];
  for (const [from, allowed] of rules) {
    for (const to of allowed) {
      if (to === from) continue;
      const implied = [...allowed].some((via) => via !== to && via !== from && reach(via).has(to));
      if (!implied) kept.push(`${from} → ${to}`);
    }
  }
  return kept.sort();
}

const mermaidId = (folder: string) => (folder === './' ? 'root' : folder.replace(/\/$/, ''));

const text = readFileSync(join(root, docFile), 'utf8');
const rules = readRules(text);

for (const pkg of packages) {
  test(`${pkg}: every folder has a rule, and the rule names only folders that exist`, () => {
    const rule = rules.get(pkg);
    assert.ok(rule, `${docFile} has no "<!-- folders: ${pkg} -->" table of which folder may import which`);
    const present = new Set(
      readdirSync(join(root, pkg))
        .filter((name) => name !== 'dist' && name !== 'node_modules' && !name.startsWith('.'))
        .filter((name) => statSync(join(root, pkg, name)).isDirectory())
        .map((name) => `${name}/`),
    );
    present.add('./');
    const written = new Set(rule.keys());
    const unruled = [...present].filter((folder) => !written.has(folder));
    assert.deepEqual(unruled, [], `${docFile}: add a row under "<!-- folders: ${pkg} -->" for: ${unruled}`);
    const stale = [...rule]
      .flatMap(([folder, { line, allowed }]) => [folder, ...allowed].map((named) => ({ named, line })))
      .filter(({ named }) => !present.has(named))
      .map(({ named, line }) => `${docFile}:${line}: \`${named}\``);
    assert.deepEqual(stale, [], `the rule names folders ${pkg} does not have:\n  ${stale.join('\n  ')}`);
  });

  test(`${pkg}: the rule is a one-way order`, () => {
    const rule = rules.get(pkg);
    assert.ok(rule);
    const loop = loopIn(new Map([...rule].map(([folder, { allowed }]) => [folder, allowed])));
    assert.equal(loop, undefined, `${docFile} lets folders import each other round a loop: ${loop?.join(' → ')}`);
    const short = [...rule].flatMap(([folder, { allowed, line }]) =>
      [...allowed]
        .flatMap((next) => [...(rule.get(next)?.allowed ?? [])])
        .filter((further) => further !== folder && !allowed.has(further))
        .map((further) => `${docFile}:${line}: \`${folder}\` may import what it imports may, so also \`${further}\``),
    );
    assert.deepEqual([...new Set(short)], [], 'rows that leave out a layer below them:');
  });

  test(`${pkg}: the drawing is the rule`, () => {
    const rule = rules.get(pkg);
    assert.ok(rule);
    const expected = reduction(new Map([...rule].map(([folder, { allowed }]) => [folder, allowed])));
    const paste = [
      '```mermaid',
      'flowchart TD',
      ...expected.map((edge) => {
        const [from, to] = edge.split(' → ') as [string, string];
        return `  ${mermaidId(from)} --> ${mermaidId(to)}`;
      }),
      '```',
    ].join('\n');
    assert.deepEqual(
      readDrawing(text, pkg),
      expected,
      `${docFile}: the Mermaid drawing after "<!-- folders: ${pkg} -->" must draw the rule; paste:\n${paste}`,
    );
  });

  test(`${pkg}: every import follows the rule`, () => {
    const rule = rules.get(pkg);
    assert.ok(rule);
    const broken: string[] = [];
    for (const [file, targets] of importGraph([pkg], { templates: true })) {
      const from = folderOf(pkg, file);
      for (const target of targets) {
        if (!relative(root, target).startsWith(pkg)) continue; // another package: the package table's rule
        const to = folderOf(pkg, target);
        if (to === from || rule.get(from)?.allowed.has(to)) continue;
        broken.push(`${relative(root, file)} imports ${relative(root, target)} (${from} → ${to})`);
      }
    }
    assert.deepEqual(
      broken,
      [],
      `imports ${docFile}'s rule for ${pkg} does not allow: move the module to the folder it belongs in, ` +
        `or, if the architecture has changed, change the rule and say why there:\n  ${broken.join('\n  ')}`,
    );
  });
}

// A folder is for finding things: a package's root keeps its entries (at most eight source files) and
// no folder grows past fifteen, where it would need folders of its own.
test('package roots keep their entries only, and no folder grows past fifteen files', () => {
  const crowded: string[] = [];
  const count = (dir: string) =>
    readdirSync(join(root, dir)).filter((name) => /\.(ts|js)$/.test(name) && !name.endsWith('.d.ts')).length;
  const walk = (dir: string): void => {
    for (const name of readdirSync(join(root, dir))) {
      if (name === 'dist' || name === 'node_modules' || name.startsWith('.')) continue;
      const path = `${dir}/${name}`;
      if (!statSync(join(root, path)).isDirectory()) continue;
      if (count(path) > 15) crowded.push(`${path}/ holds ${count(path)} source files (at most 15)`);
      walk(path);
    }
  };
  for (const pkg of packages) {
    const dir = pkg.replace(/\/$/, '');
    if (count(dir) > 8) crowded.push(`${pkg} holds ${count(dir)} source files at its root (at most 8)`);
    walk(dir);
  }
  assert.deepEqual(crowded, [], `folders to split or move files out of:\n  ${crowded.join('\n  ')}`);
});

test('the rule reader and the loop finder themselves', () => {
  const read = readRules(
    [
      '<!-- folders: pkg/ -->',
      '| Folder | May import |',
      '|---|---|',
      '| `a/` | nothing |',
      '| `b/` | `a/` |',
      '| `./` | `a/`, `b/` |',
      '## Next part',
      '| `c/` | `a/` |',
    ].join('\n'),
  ).get('pkg/');
  assert.deepEqual(
    [...(read ?? [])].map(([folder, { allowed }]) => [folder, [...allowed]]),
    [
      ['a/', []],
      ['b/', ['a/']],
      ['./', ['a/', 'b/']],
    ],
  );
  assert.equal(
    loopIn(
      new Map([
        ['a/', new Set(['b/'])],
        ['b/', new Set(['c/'])],
        ['c/', new Set<string>()],
      ]),
    ),
    undefined,
  );
  assert.deepEqual(
    loopIn(
      new Map([
        ['a/', new Set(['b/'])],
        ['b/', new Set(['c/'])],
        ['c/', new Set(['a/'])],
      ]),
    ),
    ['a/', 'b/', 'c/', 'a/'],
  );
  assert.deepEqual(
    reduction(
      new Map([
        ['c/', new Set(['b/', 'a/'])],
        ['b/', new Set(['a/'])],
        ['a/', new Set<string>()],
      ]),
    ),
    ['b/ → a/', 'c/ → b/'],
  );
  assert.deepEqual(
    readDrawing(
      ['<!-- folders: p/ -->', '| `a/` | x |', '```mermaid', 'flowchart TD', '  root --> a', '```'].join('\n'),
      'p/',
    ),
    ['./ → a/'],
  );
  assert.equal(folderOf('widget/', join(root, 'widget/photo/check/photo-check.ts')), 'photo/');
  assert.equal(folderOf('widget/', join(root, 'widget/tryon-button.ts')), './');
});
