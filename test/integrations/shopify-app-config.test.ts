// The Shopify app's configuration (integrations/shopify-app/shopify.app.toml) sets up the
// App Proxy the docs and the proxy's App Proxy tests assume: the store's /apps/tryon/… forwarded to
// the proxy's mount, with the one access scope configuring it needs, and docs/integrations/shopify.md
// quotes the same fields.
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
    const pair = /^(\w+)\s*=\s*(.+)$/.exec(line);
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
    const quoted = /```toml\n([\s\S]*?)```/.exec(doc)?.[1];
    assert.ok(quoted, 'the doc quotes the toml');
    const fromDoc = readToml(quoted);
    assert.deepEqual(fromDoc['app_proxy'], toml['app_proxy']);
    assert.deepEqual(fromDoc['access_scopes'], toml['access_scopes']);
  });
});
