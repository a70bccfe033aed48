// The sandbox's folders import one way: each folder only the folders below it in the table here,
// and no folder the entries at the package's root.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { folderImports, layerViolations, type LayerRules } from '../proxy/layers.js';

/** Bottom first: each folder and what it may import. */
const SANDBOX_LAYERS: LayerRules = {
  api: [],
  files: ['api'],
  drawing: ['files', 'api'],
  jobs: ['drawing', 'files', 'api'],
  routes: ['jobs', 'files', 'api'],
  '.': ['routes', 'jobs', 'drawing', 'files', 'api'],
};

test("the sandbox's folders import only the folders below them", () => {
  const problems = layerViolations('sandbox', SANDBOX_LAYERS);
  assert.deepEqual(problems, [], `imports against the sandbox's layers:\n  ${problems.join('\n  ')}`);
});

test('the check reads real imports (routes/ does import jobs/)', () => {
  assert.ok(folderImports('sandbox').some((edge) => edge.from === 'routes' && edge.to === 'jobs'));
});
