// Every relative link in the repository's Markdown leads somewhere: the file exists, and its
// `#anchor` is a heading of that file (GitHub's slugs: lower case, punctuation dropped, spaces to
// hyphens, a repeated heading numbered) or an explicit `<a id>`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { projectRoot } from '../../scripts/build.js';

const withoutCode = (text: string) => text.replace(/```[\s\S]*?```/g, '');

function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/[^\p{L}\p{N}_\- ]/gu, '')
    .replace(/ /g, '-');
}

function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, heading] of withoutCode(text).matchAll(/^#{1,6}\s+(.*)$/gm)) {
    const base = slug(heading!);
    const count = seen.get(base);
    seen.set(base, (count ?? -1) + 1);
    anchors.add(count === undefined ? base : `${base}-${count + 1}`);
  }
  for (const [, id] of text.matchAll(/<a (?:id|name)="([^"]+)"/g)) anchors.add(id!);
  return anchors;
}

test('slugs follow GitHub’s rules', () => {
  assert.equal(slug('The hand-off (desktop → phone)'), 'the-hand-off-desktop--phone');
  assert.equal(
    slug("Verifying Shopify's signature, and who the shopper is"),
    'verifying-shopifys-signature-and-who-the-shopper-is',
  );
  assert.deepEqual([...anchorsOf('# A\n## A\n```\n# B\n```\n<a id="c"></a>')], ['a', 'a-1', 'c']);
});

test('every relative link in the Markdown leads to a file and, with #anchor, to its heading', () => {
  const files = execFileSync('git', ['ls-files', '*.md'], { cwd: projectRoot, encoding: 'utf8' })
    .split('\n')
    .filter(Boolean)
    .map((file) => join(projectRoot, file))
    .filter((file) => existsSync(file));
  assert.ok(files.length > 20, `found ${files.length} Markdown files`);
  const broken: string[] = [];
  let checked = 0;
  for (const file of files) {
    for (const [, target, anchor] of withoutCode(readFileSync(file, 'utf8')).matchAll(
      /\]\(([^)\s#]*)(?:#([^)\s]+))?\)/g,
    )) {
      if (/^[a-z]+:/i.test(target!)) continue;
      const path = target ? resolve(dirname(file), target) : file;
      const where = `${relative(projectRoot, file)} → ${target}${anchor ? `#${anchor}` : ''}`;
      checked++;
      if (!existsSync(path)) broken.push(`${where} (no such file)`);
      else if (anchor && path.endsWith('.md') && !anchorsOf(readFileSync(path, 'utf8')).has(anchor)) broken.push(where);
    }
  }
  assert.ok(checked > 100, `checked ${checked} links`);
  assert.deepEqual(broken, []);
});
