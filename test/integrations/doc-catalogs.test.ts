// Every catalog the docs show as a whole file (a JSON block with `products`) is one the proxy
// accepts: parsed by the same schema `createProxy` and `npx tryon-proxy` read TRYON_CATALOG with.
// The Shopify and WooCommerce examples once lacked `products`, `mode` and `garment`, so a shop
// that copied them got a proxy that refused to start.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { parseCatalog } from '../../proxy/catalog/catalog.js';
import { projectRoot } from '../../scripts/build.js';

async function markdownFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile() && e.name.endsWith('.md')).map((e) => join(e.parentPath, e.name));
}

/** The JSON blocks of a Markdown text that are whole catalogs, with the line each starts on. */
function catalogBlocks(text: string): { line: number; json: unknown }[] {
  const blocks: { line: number; json: unknown }[] = [];
  for (const match of text.matchAll(/^\s*```json\n([\s\S]*?)^\s*```/gm)) {
    let json: unknown;
    try {
      json = JSON.parse(match[1]!);
    } catch {
      continue; // a fragment (one product's entry, a log line): not a file to load
    }
    if (json && typeof json === 'object' && 'products' in json)
      blocks.push({ line: text.slice(0, match.index).split('\n').length, json });
  }
  return blocks;
}

test('every whole catalog in the docs passes the proxy’s own catalog schema', async () => {
  const checked: string[] = [];
  for (const file of await markdownFiles(join(projectRoot, 'docs'))) {
    for (const { line, json } of catalogBlocks(await readFile(file, 'utf8'))) {
      const where = `${relative(projectRoot, file)}:${line}`;
      assert.doesNotThrow(() => parseCatalog(json), where);
      checked.push(where);
    }
  }
  for (const page of ['docs/integrations/shopify.md', 'docs/integrations/woocommerce.md'])
    assert.ok(
      checked.some((where) => where.startsWith(page)),
      `${page}'s catalog is checked (found: ${checked.join(', ')})`,
    );
});

test('a catalog without mode or garment is refused, so the check above can fail', () => {
  assert.throws(() => parseCatalog({ products: { saree: { garmentImage: 'garments/saree.png' } } }));
});
