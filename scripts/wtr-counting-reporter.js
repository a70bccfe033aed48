// A web-test-runner reporter that writes {passed, failed} for the whole run to a file, so that
// `npm test` can print one plain summary line for every suite together.
import { writeFileSync } from 'node:fs';

function count(suite, totals) {
  for (const test of suite.tests ?? []) {
    if (test.skipped) totals.skipped++;
    else if (test.passed) totals.passed++;
    else totals.failed++;
  }
  for (const child of suite.suites ?? []) count(child, totals);
}

export function countingReporter(file) {
  return {
    onTestRunFinished({ sessions }) {
      if (!file) return;
      const totals = { passed: 0, failed: 0, skipped: 0 };
      for (const session of sessions) {
        if (session.testResults) count(session.testResults, totals);
        // A file that failed to load or threw outside a test counts as one failure.
        if (!session.passed && (session.errors?.length ?? 0) > 0) totals.failed++;
      }
      writeFileSync(file, JSON.stringify(totals));
    },
  };
}
