// Every kind of file the CDN build ships has a row in docs/integrations/script-tag.md's table of
// types, and the demo shop serves every file of a fresh build with its row's type: a kind the
// shop did not know once answered 404 (the photo check's WebAssembly and weights), and the check
// never ran in the demo.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { projectRoot } from '../../scripts/build.js';
import { cachedCdnBuild } from '../../scripts/kept-builds.js';
import { createShop } from '../../demo/shop/app.js';

/** The table between the `cdn-file-types` markers: extension → type. */
async function documentedTypes(): Promise<Map<string, string>> {
  const doc = await readFile(join(projectRoot, 'docs/integrations/script-tag.md'), 'utf8');
  const table = /<!-- cdn-file-types -->([\s\S]*?)<!-- \/cdn-file-types -->/.exec(doc)?.[1];
  assert.ok(table, 'script-tag.md has the cdn-file-types table');
  const rows = [...table.matchAll(/^\| `(\.[a-z0-9]+)` \| `([^`]+)` \|/gm)];
  return new Map(rows.map((row) => [row[1]!, row[2]!]));
}

describe('the types the CDN build needs', () => {
  let outDir: string;
  let files: string[];
  before(async () => {
    outDir = await mkdtemp(join(tmpdir(), 'tryon-cdn-types-'));
    await cachedCdnBuild(outDir);
    files = (await readdir(outDir, { recursive: true, withFileTypes: true }))
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name).slice(outDir.length + 1));
  });
  after(async () => {
    await rm(outDir, { recursive: true, force: true });
  });

  test('the docs give a type for every kind of file the build ships', async () => {
    const types = await documentedTypes();
    const kinds = [...new Set(files.map((file) => extname(file)))].sort();
    assert.ok(
      kinds.includes('.wasm') && kinds.includes('.bin'),
      `the build ships the check's files (${kinds.join(' ')})`,
    );
    assert.deepEqual(
      kinds.filter((kind) => !types.has(kind)),
      [],
      'every kind of file has a row in the table',
    );
  });

  test('the demo shop serves every file of the build with its documented type', async () => {
    const types = await documentedTypes();
    const shop = createShop({ imagesDir: outDir, widgetDir: outDir, pageScript: '' });
    for (const file of files) {
      const response = await shop.request(`/widget/${file}`);
      assert.equal(response.status, 200, `${file} is served`);
      assert.equal(response.headers.get('content-type')?.split(';')[0], types.get(extname(file)), `${file}'s type`);
      await response.arrayBuffer();
    }
  });
});
