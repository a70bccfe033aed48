// The proxy's folders import one way: each folder only the folders below it in the table here, and
// no folder the entries at the package's root. A feature names what it needs of a store and holds
// its adapters; store/ only puts them together, above the features, so no feature imports it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { folderImports, layerViolations, projectRoot, type LayerRules } from './layers.js';

const FEATURES = ['tryons', 'photos', 'catalog', 'money', 'upstream'];
const BELOW_FEATURES = ['limits', 'middleware', 'security', 'cluster', 'http', 'operator'];

/** Bottom first: each folder and what it may import. */
const PROXY_LAYERS: LayerRules = {
  operator: [],
  http: ['operator'],
  cluster: ['http', 'operator'],
  security: ['http', 'operator'],
  middleware: ['security', 'http', 'operator'],
  limits: ['cluster', 'http', 'operator'],
  upstream: ['cluster', 'http', 'operator'],
  money: ['cluster', 'http', 'operator'],
  catalog: ['money', 'upstream', 'cluster', 'http', 'operator'],
  photos: ['upstream', 'limits', 'security', 'cluster', 'http', 'operator'],
  tryons: ['photos', 'catalog', 'money', 'upstream', 'limits', 'security', 'cluster', 'http', 'operator'],
  store: [...FEATURES, ...BELOW_FEATURES],
  routes: ['store', ...FEATURES, ...BELOW_FEATURES],
  config: ['store', ...FEATURES, ...BELOW_FEATURES],
  '.': ['config', 'routes', 'store', ...FEATURES, ...BELOW_FEATURES],
};

test("the proxy's folders import only the folders below them", () => {
  const problems = layerViolations('proxy', PROXY_LAYERS);
  assert.deepEqual(problems, [], `imports against the proxy's layers:\n  ${problems.join('\n  ')}`);
});

test('the check reads real imports (store/ does import the features, and routes/ the store)', () => {
  const edges = folderImports('proxy');
  assert.ok(edges.some((edge) => edge.from === 'store' && edge.to === 'money'));
  assert.ok(edges.some((edge) => edge.from === 'routes' && edge.to === 'store'));
});

/** Source files (not declarations) directly in `dir`, and its folders. */
function listing(dir: string): { sources: string[]; folders: string[] } {
  const names = readdirSync(dir).filter((name) => name !== 'dist' && name !== 'node_modules');
  return {
    sources: names.filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts')),
    folders: names.filter((name) => statSync(join(dir, name)).isDirectory()),
  };
}

test("the proxy's root holds its entries only, and no folder grows past fifteen files", () => {
  const root = join(projectRoot, 'proxy');
  const top = listing(root);
  assert.ok(top.sources.length <= 8, `proxy/ holds ${top.sources.length} source files: ${top.sources.join(', ')}`);
  for (const folder of top.folders) {
    const { sources } = listing(join(root, folder));
    assert.ok(sources.length <= 15, `proxy/${folder} holds ${sources.length} files`);
  }
});
