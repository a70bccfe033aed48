// The Shopify app's configuration (integrations/shopify-app/shopify.app.toml) sets up the
// App Proxy the docs and the proxy's App Proxy tests assume: the store's /apps/tryon/… forwarded to
// the proxy's mount, with the one access scope configuring it needs, and docs/integrations/shopify.md
// quotes the same fields; and it defines the app-owned product metafields the theme block reads.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';

const root = new URL('../../', import.meta.url);

/** `[section]` → key → value, for the flat string and array values this file uses. */
function readToml(text: string): Record<string, Record<string, string>> {
  const sections: Record<string, Record<string, string>> = { '': {} };
  let current = sections['']!;
  for (const raw of text.split('\n')) {
    const line = raw.replace(/\s+#.*$/, '').trim();
    if (!line || line.startsWith('#')) continue;
    const header = /^\[([\w.]+)\]$/.exec(line);
    if (header) {
      current = sections[header[1]!] ??= {};
      continue;
    }
    const pair = /^([\w.]+)\s*=\s*(.+)$/.exec(line);
    assert.ok(pair, `a key = value line: ${line}`);
    current[pair[1]!] = pair[2]!.replace(/^"(.*)"$/, '$1');
  }
  return sections;
}

describe('shopify.app.toml', () => {
  test('sets up the App Proxy at /apps/tryon with the write_app_proxy scope, as the docs say', async () => {
    const toml = readToml(await readFile(new URL('integrations/shopify-app/shopify.app.toml', root), 'utf8'));
    assert.deepEqual(toml['app_proxy'], {
      url: 'https://tryon.your-domain.example/tryon',
      prefix: 'apps',
      subpath: 'tryon',
    });
    assert.deepEqual(
      toml['access_scopes']?.['scopes']?.split(',').map((s) => s.trim()),
      ['write_app_proxy'],
    );
    assert.equal(toml['']?.['embedded'], 'false');
    const doc = await readFile(new URL('docs/integrations/shopify.md', root), 'utf8');
    assert.match(doc, /One proxy per store/);
    assert.match(doc, /shopify app init/);
    assert.match(doc, /shopify app deploy/);
    const quoted = [...doc.matchAll(/```toml\n([\s\S]*?)```/g)]
      .map((m) => m[1]!)
      .find((t) => t.includes('[app_proxy]'));
    assert.ok(quoted, 'the doc quotes the toml');
    const fromDoc = readToml(quoted);
    assert.deepEqual(fromDoc['app_proxy'], toml['app_proxy']);
    assert.deepEqual(fromDoc['access_scopes'], toml['access_scopes']);
  });

  test("defines the block's two product metafields in the app's own namespace, editable by the merchant", async () => {
    const toml = readToml(await readFile(new URL('integrations/shopify-app/shopify.app.toml', root), 'utf8'));
    const definitions = Object.keys(toml).filter((section) => section.includes('metafields'));
    // `app` in the file is the reserved `$app` namespace (app--<client id> once deployed).
    assert.deepEqual(definitions.sort(), [
      'product.metafields.app.tryon_enabled',
      'product.metafields.app.tryon_product',
    ]);
    // Exactly these keys: no storefront access, as the app's own block reads them without it.
    assert.deepEqual(toml['product.metafields.app.tryon_enabled'], {
      name: 'Virtual try-on',
      description: "Shows the try-on button on this product's page (the Virtual try-on block).",
      type: 'boolean',
      'access.admin': 'merchant_read_write',
    });
    assert.equal(toml['product.metafields.app.tryon_product']?.['type'], 'single_line_text_field');
    assert.equal(toml['product.metafields.app.tryon_product']?.['access.admin'], 'merchant_read_write');
    // The block and the editor's note use the same names.
    const block = await readFile(new URL('integrations/shopify/blocks/tryon-button.liquid', root), 'utf8');
    for (const key of ['tryon_enabled', 'tryon_product'])
      assert.ok(block.includes(`product.metafields['$app'].${key}`), key);
    const note = JSON.parse(await readFile(new URL('integrations/shopify/locales/en.default.json', root), 'utf8')) as {
      blocks: { tryon_button: { placeholder: string } };
    };
    assert.ok(
      note.blocks.tryon_button.placeholder.includes(`"${toml['product.metafields.app.tryon_enabled']?.['name']}"`),
    );
    assert.ok(
      note.blocks.tryon_button.placeholder.includes(`"${toml['product.metafields.app.tryon_product']?.['name']}"`),
    );
    const doc = await readFile(new URL('docs/integrations/shopify.md', root), 'utf8');
    assert.match(doc, /product\.metafields\['\$app'\]\.tryon_enabled/);
  });
});
