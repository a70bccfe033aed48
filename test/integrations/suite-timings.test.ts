// The table `npm test` ends with (scripts/suite-timings.ts): every suite that ran, its tests and
// seconds, a failed suite marked, and the whole run's wall-clock time.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { timingTable } from '../../scripts/suite-timings.js';

test('one row per suite in the order given, a failed one marked, then the whole run', () => {
  const table = timingTable(
    [
      { suite: 'node', tests: 812, failed: 0, seconds: 301.4 },
      { suite: 'widget', tests: 1450, failed: 2, seconds: 288.6 },
      { suite: 'typecheck', tests: 1, failed: 0, seconds: 40 },
    ],
    402.2,
  );
  const lines = table.split('\n');
  assert.match(lines[0]!, /^suite\s+tests\s+seconds$/);
  assert.match(lines[2]!, /^node\s+812\s+301$/);
  assert.match(lines[3]!, /^widget \(2 failed\)\s+1450\s+289$/);
  assert.match(lines[4]!, /^typecheck\s+1\s+40$/);
  assert.match(lines.at(-1)!, /^whole run \(wall clock\)\s+2263\s+402$/);
  // Columns line up: every row as wide as the header.
  assert.equal(new Set(lines.map((line) => line.length)).size, 1);
});
